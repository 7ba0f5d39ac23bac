package api

import (
	"testing"

	"primegames/play"
	"primegames/play/i18n"
)

// What a subscription's deliveries came to is said in the reader's language: its last error and
// the reason it was disabled, the sentences the delivery loop writes (play/webhooks/loop.go), with
// the sentence inside the reason translated too; English stays as stored.
func TestWebhookBodySaysItsDeliveriesInTheLanguage(t *testing.T) {
	t.Parallel()
	w := &play.Webhook{ID: "5f0c5c8e-8d7e-4a52-9a43-0d2b1f6c7e11", Scope: "game", Status: "disabled",
		LastError:      ptr("the receiver answered 500"),
		DisabledReason: ptr("4 attempts of a delivery failed, over 1m0s; the last: the receiver answered 500."),
	}
	for _, tc := range []struct{ code, lastError, reason string }{
		{"en", "the receiver answered 500", "4 attempts of a delivery failed, over 1m0s; the last: the receiver answered 500."},
		{"es", "el receptor respondió 500", "Fallaron 4 intentos de una entrega, en 1m0s; el último: el receptor respondió 500."},
		{"de", "der Empfänger antwortete 500", "4 Versuche einer Zustellung schlugen fehl, über 1m0s; der letzte: der Empfänger antwortete 500."},
	} {
		l := i18n.Of(tc.code)
		if tc.code == "en" {
			l = i18n.English
		}
		body := webhookBody(w, l)
		if body.LastError == nil || *body.LastError != tc.lastError || body.DisabledReason == nil || *body.DisabledReason != tc.reason {
			t.Errorf("%s: last_error %q, disabled_reason %q; want %q, %q", tc.code, deref(body.LastError), deref(body.DisabledReason), tc.lastError, tc.reason)
		}
	}
	if body := webhookBody(&play.Webhook{ID: w.ID, Scope: "game"}, i18n.Of("fr")); body.LastError != nil || body.DisabledReason != nil {
		t.Errorf("a subscription that never failed has last_error %v, disabled_reason %v", body.LastError, body.DisabledReason)
	}
}
