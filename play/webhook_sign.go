package play

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// Webhooks are signed as Standard Webhooks sign them (https://www.standardwebhooks.com): the
// secret is random bytes, shown once as "whsec_" + their base64; each request carries
// webhook-id, webhook-timestamp (Unix seconds) and webhook-signature, "v1," + the base64
// HMAC-SHA256, keyed with those bytes, of "<webhook-id>.<webhook-timestamp>.<body>". While a
// rotated secret still signs, webhook-signature holds both signatures, space-separated (the new
// secret's first), and a receiver accepts the request if any of them verifies.

// webhookSecretBytes is the length of a subscription's secret (the standard asks for 24 to 64).
const webhookSecretBytes = 32

// webhookSecretPrefix marks a Standard Webhooks symmetric secret.
const webhookSecretPrefix = "whsec_"

// newWebhookSecret makes a subscription's secret: its raw bytes, and the form shown once.
func newWebhookSecret() (key []byte, shown string) {
	key = make([]byte, webhookSecretBytes)
	_, _ = rand.Read(key) // crypto/rand.Read does not fail
	return key, webhookSecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// WebhookHeaders are the headers that sign one attempt of a delivery.
type WebhookHeaders struct {
	ID, Timestamp, Signature string
}

// SignWebhook signs body, sent at `at` as delivery id, with each of the subscription's keys.
func SignWebhook(keys [][]byte, id string, at time.Time, body []byte) WebhookHeaders {
	ts := strconv.FormatInt(at.Unix(), 10)
	sigs := make([]string, len(keys))
	for i, key := range keys {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id + "." + ts + "."))
		mac.Write(body)
		sigs[i] = "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	return WebhookHeaders{ID: id, Timestamp: ts, Signature: strings.Join(sigs, " ")}
}
