package outbound_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"primegames/outbound"
	"primegames/play"
)

// The guard against server-side request forgery: by default nothing of the service's own network
// is called, whether the URL names it by address (refused up front) or by a name that resolves to
// it (refused when dialled); an address the operator lists is called; redirects are not followed;
// an endless answer is read only up to the cap, within the timeout.
func TestOutboundRefusesTheServicesOwnNetworkUnlessAllowed(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/endless":
			w.WriteHeader(http.StatusOK)
			chunk := []byte(strings.Repeat("x", 4096))
			for {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":"):]
	ctx := context.Background()
	headers := play.WebhookHeaders{ID: "msg_1", Timestamp: "1", Signature: "v1,x"}

	closed, err := outbound.New(outbound.Config{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{srv.URL, "http://10.1.2.3/x", "http://169.254.169.254/latest/meta-data", "http://[::1]/x", "http://100.64.0.1/x"} {
		if err := closed.CheckURL(u); err == nil {
			t.Errorf("CheckURL(%s) allowed by default", u)
		}
	}
	if err := closed.CheckURL("https://hooks.example.com/x"); err != nil {
		t.Errorf("a public name refused: %v", err)
	}
	// A name that resolves to loopback passes CheckURL (no lookup) but is refused when dialled.
	if status, err := closed.Send(ctx, "http://localhost"+port+"/", headers, []byte("{}")); err == nil || err.Error() != "the receiver's address is not allowed" {
		t.Errorf("localhost dialled by default: %d %v", status, err)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the receiver was reached %d times by a sender that allows nothing local", n)
	}

	open, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: time.Second, MaxResponse: 1024})
	if err != nil {
		t.Fatal(err)
	}
	if status, err := open.Send(ctx, srv.URL+"/", headers, []byte("{}")); err != nil || status != http.StatusNoContent {
		t.Fatalf("allowed address: %d %v", status, err)
	}
	if err := open.CheckURL("https://hooks.example.com/x"); err == nil {
		t.Error("a host outside the allow list passes CheckURL")
	}
	if status, err := open.Send(ctx, srv.URL+"/redirect", headers, nil); err != nil || status != http.StatusFound {
		t.Fatalf("redirect: %d %v, want 302 not followed", status, err)
	}
	if status, err := open.Send(ctx, srv.URL+"/endless", headers, nil); err != nil || status != http.StatusOK {
		t.Fatalf("endless answer: %d %v", status, err)
	}
}
