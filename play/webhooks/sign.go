// Package webhooks sends the webhooks: it signs them as Standard Webhooks do, and runs the loop
// that claims the deliveries due from its Queue, sends them through its Sender and records their
// outcomes. What a delivery carries and to whom it may go (the subscriptions, their owners
// authority, the fan-out of a game's changes) is package play's, which hands the loop its work.
package webhooks

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

// SecretBytes is the length of a subscription's secret (the standard asks for 24 to 64).
const SecretBytes = 32

// secretPrefix marks a Standard Webhooks symmetric secret.
const secretPrefix = "whsec_"

// NewSecret makes a subscription's secret: its raw bytes, and the form shown once.
func NewSecret() (key []byte, shown string) {
	key = make([]byte, SecretBytes)
	_, _ = rand.Read(key) // crypto/rand.Read does not fail
	return key, secretPrefix + base64.StdEncoding.EncodeToString(key)
}

// Headers are the headers that sign one attempt of a delivery.
type Headers struct {
	ID, Timestamp, Signature string
}

// Sign signs body, sent at `at` as delivery id, with each of the subscription's keys.
func Sign(keys [][]byte, id string, at time.Time, body []byte) Headers {
	ts := strconv.FormatInt(at.Unix(), 10)
	sigs := make([]string, len(keys))
	for i, key := range keys {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id + "." + ts + "."))
		mac.Write(body)
		sigs[i] = "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	return Headers{ID: id, Timestamp: ts, Signature: strings.Join(sigs, " ")}
}
