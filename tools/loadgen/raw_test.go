package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The raw client reads sized and chunked bodies and the headers it needs from answers one after
// another on one keep-alive connection, and sends what it was given.
func TestRawConnReadsAnswersOnOneConnection(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789", 500) // over net/http's 2 KB: chunked when the length is not said
	var connections atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo":
			got, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Request-ID", "req-1")
			_, _ = w.Write([]byte(r.Method + " " + r.Header.Get("Authorization") + " " + r.Header.Get("Idempotency-Key") + " " +
				r.Header.Get("Content-Type") + " " + string(got)))
		case "/long":
			_, _ = io.WriteString(w, long[:1000])
			w.(http.Flusher).Flush()
			_, _ = io.WriteString(w, long[1000:])
		case "/busy":
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
		}
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			connections.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)

	r, err := newRawConn(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	ctx := context.Background()
	send := func(method, path, token string, body []byte, key string) int {
		t.Helper()
		status, err := r.roundTrip(ctx, r.appendRequest(nil, method, path, token, body, key))
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		return status
	}

	if status := send("POST", "/echo", "tok", []byte(`{"a":1}`), "key-1"); status != http.StatusOK ||
		string(r.body) != `POST Bearer tok key-1 application/json {"a":1}` || r.requestID != "req-1" {
		t.Errorf("POST /echo = %d %q, X-Request-ID %q", status, r.body, r.requestID)
	}
	if status := send("GET", "/long", "", nil, ""); status != http.StatusOK || !bytes.Equal(r.body, []byte(long)) {
		t.Errorf("GET /long (chunked) = %d, %d bytes, want %d", status, len(r.body), len(long))
	}
	if status := send("GET", "/busy", "", nil, ""); status != http.StatusTooManyRequests || r.retryAfter != "3" || len(r.body) != 0 || r.requestID != "" {
		t.Errorf("GET /busy = %d, Retry-After %q, body %q, X-Request-ID %q", status, r.retryAfter, r.body, r.requestID)
	}
	if status := send("GET", "/echo", "", nil, ""); status != http.StatusOK || string(r.body) != "GET    " {
		t.Errorf("GET /echo = %d %q", status, r.body)
	}
	if n := connections.Load(); n != 1 {
		t.Errorf("%d connections for four requests, want one kept alive", n)
	}
}
