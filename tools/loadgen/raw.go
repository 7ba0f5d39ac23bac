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

// rawConn is one keep-alive connection whose requests are written and read by hand: of each
// response only the status, the headers the client needs (Content-Length, Connection, Retry-After,
// X-Request-ID) and the body's bytes are read. It is the lean client of -raw, as pgbench is of
// Postgres: Go's HTTP client costs about as much CPU per request as the server's whole answer to a
// kept game, on the same cores.
type rawConn struct {
	addr string
	conn net.Conn
	in   *bufio.Reader
	// Of the last response, good until the next request.
	body       []byte
	retryAfter string
	requestID  string
}

func newRawConn(base string) (*rawConn, error) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return nil, fmt.Errorf("-raw needs an http:// -url, not %q", base)
	}
	return &rawConn{addr: u.Host}, nil
}

// appendRequest appends a request of method for path to dst: with the token as a bearer token, key
// as its Idempotency-Key and body as a JSON body, each when given.
func (r *rawConn) appendRequest(dst []byte, method, path, token string, body []byte, key string) []byte {
	dst = append(dst, method...)
	dst = append(dst, ' ')
	dst = append(dst, path...)
	dst = append(dst, " HTTP/1.1\r\nHost: "...)
	dst = append(dst, r.addr...)
	dst = append(dst, "\r\nUser-Agent: loadgen-raw\r\n"...)
	if token != "" {
		dst = append(dst, "Authorization: Bearer "...)
		dst = append(dst, token...)
		dst = append(dst, "\r\n"...)
	}
	if key != "" {
		dst = append(dst, "Idempotency-Key: "...)
		dst = append(dst, key...)
		dst = append(dst, "\r\n"...)
	}
	if body != nil {
		dst = append(dst, "Content-Type: application/json\r\nContent-Length: "...)
		dst = strconv.AppendInt(dst, int64(len(body)), 10)
		dst = append(dst, "\r\n"...)
	}
	dst = append(dst, "\r\n"...)
	return append(dst, body...)
}

// roundTrip sends request (as appendRequest makes it) and reads the answer, connecting first when
// it has no connection; it returns the status. After an error the connection is closed.
func (r *rawConn) roundTrip(ctx context.Context, request []byte) (int, error) {
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
	if _, err := r.conn.Write(request); err != nil {
		r.close()
		return 0, err
	}
	status, err := r.readResponse()
	if err != nil {
		r.close()
	}
	return status, err
}

func (r *rawConn) readResponse() (int, error) {
	r.retryAfter, r.requestID = "", ""
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
	length, closing, chunked := -1, false, false
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
			if !bytes.EqualFold(value, []byte("chunked")) {
				return status, fmt.Errorf("Transfer-Encoding %q", value)
			}
			chunked = true
		case bytes.EqualFold(name, []byte("Retry-After")):
			r.retryAfter = string(value)
		case bytes.EqualFold(name, []byte("X-Request-ID")):
			r.requestID = string(value)
		}
	}
	r.body = r.body[:0]
	switch {
	case chunked:
		if err := r.readChunks(); err != nil {
			return status, err
		}
	case length < 0:
		return status, errors.New("an answer with neither Content-Length nor chunks")
	default:
		if err := r.readBody(length); err != nil {
			return status, err
		}
	}
	if closing {
		r.close()
	}
	return status, nil
}

// readBody appends the next n bytes to r.body.
func (r *rawConn) readBody(n int) error {
	start := len(r.body)
	r.body = append(r.body, make([]byte, n)...)
	_, err := io.ReadFull(r.in, r.body[start:])
	return err
}

// readChunks appends a chunked body to r.body (net/http chunks a body of over 2 KB whose length
// the handler did not set).
func (r *rawConn) readChunks() error {
	for {
		line, err := r.in.ReadSlice('\n')
		if err != nil {
			return err
		}
		sizeField, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		size, err := strconv.ParseInt(string(bytes.TrimSpace(sizeField)), 16, 32)
		if err != nil || size < 0 {
			return fmt.Errorf("chunk size %q", line)
		}
		if size > 0 {
			if err := r.readBody(int(size)); err != nil {
				return err
			}
		}
		// A chunk ends with CRLF; the last, empty one, after any trailers, with an empty line.
		for {
			line, err := r.in.ReadSlice('\n')
			if err != nil {
				return err
			}
			if size > 0 || len(bytes.TrimRight(line, "\r\n")) == 0 {
				break
			}
		}
		if size == 0 {
			return nil
		}
	}
}

func (r *rawConn) close() {
	if r.conn != nil {
		r.conn.Close()
		r.conn, r.in = nil, nil
	}
}
