package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"time"
)

// rawReader sends one GET again and again on its own keep-alive connection, written and read by
// hand: the request's bytes are made once, and of each response only the status, Content-Length and
// the body's bytes are read (the body is not decoded). It is the lean client of the GET modes, as
// pgbench is of Postgres: Go's HTTP client costs about as much CPU per request as the server's
// whole answer to a kept game, on the same cores.
type rawReader struct {
	addr    string
	request []byte
	conn    net.Conn
	in      *bufio.Reader
	body    []byte
}

func newRawReader(base, path, token string) (*rawReader, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return nil, fmt.Errorf("-raw needs an http:// -url, not %q", base)
	}
	var req bytes.Buffer
	fmt.Fprintf(&req, "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: loadgen-raw\r\n", path, u.Host)
	if token != "" {
		fmt.Fprintf(&req, "Authorization: Bearer %s\r\n", token)
	}
	req.WriteString("\r\n")
	return &rawReader{addr: u.Host, request: req.Bytes()}, nil
}

// get sends the request and reads the answer; it returns the status.
func (r *rawReader) get(ctx context.Context) (int, error) {
	if r.conn == nil {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", r.addr)
		if err != nil {
			return 0, err
		}
		r.conn, r.in = conn, bufio.NewReaderSize(conn, 64<<10)
	}
	if deadline, ok := ctx.Deadline(); ok {
		_ = r.conn.SetDeadline(deadline.Add(5 * time.Second))
	}
	if _, err := r.conn.Write(r.request); err != nil {
		r.close()
		return 0, err
	}
	status, err := r.readResponse()
	if err != nil {
		r.close()
	}
	return status, err
}

func (r *rawReader) readResponse() (int, error) {
	line, err := r.in.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, fmt.Errorf("not an HTTP/1.1 status line: %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, fmt.Errorf("status line %q", line)
	}
	length, closing := -1, false
	for {
		line, err := r.in.ReadSlice('\n')
		if err != nil {
			return status, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return status, fmt.Errorf("Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Connection")) && bytes.EqualFold(value, []byte("close")):
			closing = true
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			return status, errors.New("a chunked answer: the raw reader reads Content-Length bodies only")
		}
	}
	if length < 0 {
		return status, errors.New("an answer without Content-Length")
	}
	if cap(r.body) < length {
		r.body = make([]byte, length)
	}
	if _, err := io.ReadFull(r.in, r.body[:length]); err != nil {
		return status, err
	}
	if closing {
		r.close()
	}
	return status, nil
}

func (r *rawReader) close() {
	if r.conn != nil {
		r.conn.Close()
		r.conn, r.in = nil, nil
	}
}
