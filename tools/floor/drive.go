package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"primegames/tools/internal/procstat"
)

// drive starts a server, runs the GET mode and then the POST mode against it for d each, and
// prints the server's CPU per request of each.
func drive(cfg config, clients int, d time.Duration) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	addr := ln.Addr().String()
	ln.Close()
	srv, stop, err := startServer(cfg, addr)
	if err != nil {
		return err
	}
	defer func() {
		stop.Close()
		_ = srv.Wait()
	}()
	if err := waitUp(addr, 30*time.Second); err != nil {
		return err
	}
	server := "echo"
	if cfg.plain {
		server = "net/http"
	}
	fmt.Printf("floor: %s + pgx, %d clients, %s a mode, GET body %d B, POST body %d B, snapshot %d B, notify %v\n",
		server, clients, d, cfg.getBody, cfg.postBody, cfg.snapshot, cfg.notify)
	for _, mode := range []string{"get", "post"} {
		// A second of warm-up (connections, the pool, prepared statements), not counted.
		if _, err := run(addr, mode, clients, time.Second, cfg.games); err != nil {
			return err
		}
		before := procstat.CPU(srv.Process.Pid)
		start := time.Now()
		n, err := run(addr, mode, clients, d, cfg.games)
		if err != nil {
			return err
		}
		wall := time.Since(start)
		after := procstat.CPU(srv.Process.Pid)
		perReq := (after - before) / time.Duration(n)
		fmt.Printf("RESULT floor mode=%s requests=%d per_s=%.0f server_cpu_per_request_us=%.1f\n",
			mode, n, float64(n)/wall.Seconds(), float64(perReq.Nanoseconds())/1e3)
	}
	return nil
}

func waitUp(addr string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond) // polls a process's start: there is no event to wait on
	}
	return fmt.Errorf("the server did not start on %s in %s", addr, limit)
}

// run sends requests of the mode from each client on its own keep-alive connection for d; it
// returns how many were answered 200.
func run(addr, mode string, clients int, d time.Duration, games int) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	total, firstErr := 0, error(nil)
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := client(ctx, addr, mode, c, clients, games)
			mu.Lock()
			total += n
			if err != nil && firstErr == nil {
				firstErr = err
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total, firstErr
}

func client(ctx context.Context, addr, mode string, c, clients, games int) (int, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	in := bufio.NewReaderSize(conn, 64<<10)
	var requests [][]byte
	for g := c + 1; g <= games; g += clients {
		var req string
		if mode == "get" {
			req = fmt.Sprintf("GET /games/%d HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer 0123456789abcdef0123456789abcdef\r\n\r\n", g, addr)
		} else {
			body := `{"type":"move","value":7}`
			req = fmt.Sprintf("POST /games/%d/actions HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer 0123456789abcdef0123456789abcdef\r\n"+
				"Content-Type: application/json\r\nIdempotency-Key: 0123456789abcdef\r\nContent-Length: %d\r\n\r\n%s", g, addr, len(body), body)
		}
		requests = append(requests, []byte(req))
	}
	if len(requests) == 0 {
		return 0, fmt.Errorf("-games %d is fewer than the clients", games)
	}
	n := 0
	for i := 0; ctx.Err() == nil; i++ {
		if _, err := conn.Write(requests[i%len(requests)]); err != nil {
			return n, err
		}
		status, err := readResponse(in)
		if err != nil {
			return n, err
		}
		if status != 200 {
			return n, fmt.Errorf("%s answered %d", mode, status)
		}
		n++
	}
	return n, nil
}

func readResponse(in *bufio.Reader) (int, error) {
	line, err := in.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 {
		return 0, fmt.Errorf("status line %q", line)
	}
	status, _ := strconv.Atoi(string(line[9:12]))
	length := -1
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if bytes.EqualFold(name, []byte("Content-Length")) {
			length, _ = strconv.Atoi(string(bytes.TrimSpace(value)))
		}
	}
	if length < 0 {
		return 0, fmt.Errorf("an answer without Content-Length")
	}
	_, err = io.CopyN(io.Discard, in, int64(length))
	return status, err
}
