package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestHelpGoesToStdoutAndSucceeds(t *testing.T) {
	for _, arg := range []string{"help", "-h", "--help"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{arg}, envOf(nil), &out); err != nil {
			t.Errorf("primegames %s: %v, want success", arg, err)
		}
		if !strings.Contains(out.String(), "primegames serve") {
			t.Errorf("primegames %s printed %q, want the usage", arg, out.String())
		}
	}
	if err := run(context.Background(), nil, envOf(nil), &bytes.Buffer{}); err != errUsage {
		t.Errorf("primegames with no command = %v, want the usage error", err)
	}
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	// A bad configuration does not stop the version from printing.
	if err := run(context.Background(), []string{"version"}, envOf(map[string]string{"LOG_LEVEL": "loud"}), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "primegames ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("version printed %q", out.String())
	}
	version = "v1.2.3"
	defer func() { version = "" }()
	if got := versionString(); !strings.HasPrefix(got, "v1.2.3 (") {
		t.Errorf("with -X main.version=v1.2.3: %q", got)
	}
}

func TestHealthAsksTheServerOnListenAddr(t *testing.T) {
	ready := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/healthz":
			_, _ = w.Write([]byte(`{"status":"ok"}`))
		case r.URL.Path == "/readyz" && ready:
			_, _ = w.Write([]byte(`{"status":"ready"}`))
		default:
			http.Error(w, `{"status":"database unreachable"}`, http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	env := envOf(map[string]string{"LISTEN_ADDR": ":" + port})
	health := func(args ...string) error {
		return run(context.Background(), append([]string{"health"}, args...), env, &bytes.Buffer{})
	}
	if err := health(); err != nil {
		t.Errorf("health of a ready server: %v", err)
	}
	ready = false
	if err := health(); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("health of a server that is not ready = %v, want an error naming 503", err)
	}
	if err := health("live"); err != nil {
		t.Errorf("health live of a server that answers: %v", err)
	}
	srv.Close()
	if err := health("live"); err == nil {
		t.Error("health live with no server succeeded")
	}
	if err := health("sideways"); err != errUsage {
		t.Errorf("health sideways = %v, want the usage error", err)
	}
}

func TestLocalAddress(t *testing.T) {
	for listen, want := range map[string]string{
		":8080": "127.0.0.1:8080", "0.0.0.0:8080": "127.0.0.1:8080", "[::]:9000": "[::1]:9000",
		"127.0.0.1:80": "127.0.0.1:80", "api.internal:8080": "api.internal:8080",
	} {
		if got := localAddress(listen); got != want {
			t.Errorf("localAddress(%q) = %q, want %q", listen, got, want)
		}
	}
}
