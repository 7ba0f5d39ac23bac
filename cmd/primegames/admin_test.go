package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The admin address serves the profiler's index and profiles.
func TestAdminHandlerServesTheProfiler(t *testing.T) {
	ts := httptest.NewServer(adminHandler())
	defer ts.Close()
	for path, want := range map[string]string{
		"/debug/pprof/":                  "goroutine",
		"/debug/pprof/goroutine?debug=1": "goroutine profile",
		"/debug/pprof/profile?seconds=1": "",
		"/debug/pprof/cmdline":           "",
	} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) || len(body) == 0 {
			t.Errorf("GET %s = %d (%d bytes), want 200 containing %q", path, resp.StatusCode, len(body), want)
		}
	}
}
