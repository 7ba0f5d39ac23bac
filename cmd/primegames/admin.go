package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// adminHandler serves the Go profiler (net/http/pprof) under /debug/pprof/. It is mounted only on
// ADMIN_ADDR, never on the public address: profiles reveal the program's internals and a CPU
// profile costs the server while it runs.
func adminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// serveAdmin listens on addr and serves adminHandler until ctx ends. A listen failure is returned
// at once, so a wrong ADMIN_ADDR stops the binary at start.
func serveAdmin(ctx context.Context, addr string, logger *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on ADMIN_ADDR %s: %w", addr, err)
	}
	// No WriteTimeout: /debug/pprof/profile?seconds=N answers after N seconds.
	hs := &http.Server{Handler: adminHandler(), ReadHeaderTimeout: 10 * time.Second}
	logger.Info("serving the profiler", "addr", ln.Addr().String())
	go func() {
		<-ctx.Done()
		_ = hs.Close()
	}()
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Warn("admin server stopped", "error", err)
		}
	}()
	return nil
}
