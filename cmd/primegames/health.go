package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// health asks the server listening on cfg.ListenAddr whether it is ready (GET /readyz: it serves
// and reaches its database) or, with "live", alive (GET /healthz). It needs no shell or curl, so a
// container healthcheck on the distroless image can run it.
func health(ctx context.Context, cfg config, args []string, out io.Writer) error {
	path := "/readyz"
	switch {
	case len(args) == 1 && args[0] == "live":
		path = "/healthz"
	case len(args) != 0:
		return errUsage
	}
	url := "http://" + localAddress(cfg.ListenAddr) + path
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: GET %s = %d %s", url, resp.StatusCode, oneLine(string(body)))
	}
	_, err = fmt.Fprintf(out, "%s: %s\n", url, strings.TrimSpace(string(body)))
	return err
}

// localAddress turns a listening address into one to connect to on this machine: ":8080" and
// "0.0.0.0:8080" become "127.0.0.1:8080", "[::]:8080" becomes "[::1]:8080".
func localAddress(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	switch ip := net.ParseIP(host); {
	case host == "" || (ip != nil && ip.Equal(net.IPv4zero)):
		host = "127.0.0.1"
	case ip != nil && ip.Equal(net.IPv6unspecified):
		host = "::1"
	}
	return net.JoinHostPort(host, port)
}
