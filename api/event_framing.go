package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/live"
	"primegames/play/i18n"
)

// An event stream goes out in one of two framings, chosen by the request's Accept header:
//
//   - server-sent events (the default): `id:`, `event:` and `data:` lines, `: heartbeat` comments;
//   - NDJSON (Accept: application/x-ndjson): one JSON object per line, the message as the
//     contract's *StreamEvent/Line schemas describe it, {"event":…,"id":…,"data":…}, and
//     {"event":"heartbeat"} lines.
//
// Both carry the same events with the same ids, so a stream resumes the same way in either.

// heartbeatLine is an NDJSON stream's heartbeat.
const heartbeatLine = `{"event":"heartbeat"}` + "\n"

// wantsNDJSON reports whether the request asks for a stream as NDJSON.
func wantsNDJSON(c echo.Context) bool {
	return strings.Contains(c.Request().Header.Get(echo.HeaderAccept), ndjson)
}

// lastEventID is the id a stream resumes after: the Last-Event-ID header, else the last_event_id
// query parameter (for clients that cannot set headers), else "".
func lastEventID(header, query *string) string {
	for _, v := range []*string{header, query} {
		if v != nil && strings.TrimSpace(*v) != "" {
			return strings.TrimSpace(*v)
		}
	}
	return ""
}

// eventWriter writes and flushes each event under its own deadline, so a client that does not read
// is disconnected rather than buffered for: it resumes with Last-Event-ID. The deadline also
// replaces the server's WRITE_TIMEOUT, which would otherwise cut every stream short.
//
// Over HTTP/1.1 it writes through net/http until the stream is detached (detach), then to the
// connection itself, framing each event as a chunk of the chunked body the headers announced.
type eventWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	ndjson  bool
	// detachable: the request is an HTTP/1.1 GET, so the body is chunked and the connection may be
	// taken.
	detachable bool
	conn       net.Conn // the connection, once taken
	broken     bool     // a write to conn failed: the body is cut mid-chunk
	// sub is the stream's subscription: once its authority has ended, no event goes out but the
	// last, `revoked`. Checked right before each write, after the read that it writes.
	sub *live.Subscription
}

func (s *Server) newEventWriter(c echo.Context) *eventWriter {
	middleware.LeaveUncompressed(c)
	w, r := c.Response(), c.Request()
	return &eventWriter{
		w: w, rc: http.NewResponseController(w), timeout: s.hub.WriteTimeout(), ndjson: wantsNDJSON(c),
		// A HEAD (served as GET) has no body to write chunks to.
		detachable: r.ProtoMajor == 1 && r.ProtoMinor >= 1 && methodOf(c) != http.MethodHead,
	}
}

// detach takes the connection from net/http once the headers and the first events are out; it
// returns nil when it cannot (another protocol than HTTP/1.1, or a writer that cannot be hijacked,
// as in tests that record responses).
func (ew *eventWriter) detach() net.Conn {
	if !ew.detachable {
		return nil
	}
	conn, buffered, err := ew.rc.Hijack()
	if err != nil {
		return nil
	}
	_ = buffered // what the client sent after its request is not read: a stream takes no requests
	ew.conn, ew.w, ew.rc = conn, nil, nil
	return conn
}

// end finishes the body of a detached stream (its last chunk, unless a write failed midway) and
// closes the connection.
func (ew *eventWriter) end() {
	if !ew.broken {
		_ = ew.conn.SetWriteDeadline(time.Now().Add(min(ew.timeout, time.Second)))
		_, _ = io.WriteString(ew.conn, "0\r\n\r\n")
	}
	_ = ew.conn.Close()
}

// event sends one message: its id ("" for none), its name and its JSON data; none once the
// stream's authority has ended.
func (ew *eventWriter) event(id, name string, data []byte) error {
	if ew.sub != nil {
		if reason := ew.sub.Revoked(); reason != "" {
			return live.Revoked(reason)
		}
	}
	return ew.write(id, name, data)
}

// write sends one message, whatever the stream's authority.
func (ew *eventWriter) write(id, name string, data []byte) error {
	if !ew.ndjson {
		if id != "" {
			return ew.send(fmt.Sprintf("id: %s\nevent: %s\ndata: %s\n\n", id, name, data))
		}
		return ew.send(fmt.Sprintf("event: %s\ndata: %s\n\n", name, data))
	}
	line, err := json.Marshal(struct {
		Event string          `json:"event"`
		ID    string          `json:"id,omitempty"`
		Data  json.RawMessage `json:"data"`
	}{name, id, bytes.TrimSpace(data)})
	if err != nil {
		return err
	}
	return ew.send(string(line) + "\n")
}

// begin answers the request with an open stream.
func (ew *eventWriter) begin() error {
	h := ew.w.Header()
	h.Set(echo.HeaderCacheControl, "no-store")
	h.Set("X-Accel-Buffering", "no") // nginx and friends: do not hold events back
	if ew.detachable {
		// The connection carries nothing after the stream: a client must not put it back in its pool.
		h.Set(echo.HeaderConnection, "close")
	}
	if ew.ndjson {
		h.Set(echo.HeaderContentType, ndjson)
		ew.w.WriteHeader(http.StatusOK)
		return ew.flush()
	}
	h.Set(echo.HeaderContentType, "text/event-stream")
	ew.w.WriteHeader(http.StatusOK)
	return ew.send(fmt.Sprintf("retry: %d\n\n", live.RetryMillis))
}

func (ew *eventWriter) heartbeat() error {
	if ew.ndjson {
		return ew.send(heartbeatLine)
	}
	return ew.send(": heartbeat\n\n")
}

func (ew *eventWriter) send(event string) error {
	if ew.conn != nil {
		return ew.sendChunk(event)
	}
	if err := ew.rc.SetWriteDeadline(time.Now().Add(ew.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	if _, err := ew.w.Write([]byte(event)); err != nil {
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	return ew.flush()
}

// sendChunk writes one event to a detached stream's connection, as a chunk, in one write.
func (ew *eventWriter) sendChunk(event string) error {
	chunk := make([]byte, 0, len(event)+12)
	chunk = strconv.AppendInt(chunk, int64(len(event)), 16)
	chunk = append(append(append(chunk, "\r\n"...), event...), "\r\n"...)
	if err := ew.conn.SetWriteDeadline(time.Now().Add(ew.timeout)); err != nil {
		ew.broken = true
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	if _, err := ew.conn.Write(chunk); err != nil {
		ew.broken = true
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	return nil
}

func (ew *eventWriter) flush() error {
	if err := ew.rc.Flush(); err != nil {
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	return nil
}

// streamConn is a stream's HTTP response, as live.Serve drives it.
type streamConn struct {
	s         *Server
	out       *eventWriter
	topic     live.Topic
	path      string
	requestID string
	lang      *i18n.Lang // the language of the stream's error events
}

func (sc *streamConn) Begin() error { return sc.out.begin() }

func (sc *streamConn) Heartbeat() error { return sc.out.heartbeat() }

// Refuse sends err as the stream's `error` event, a problem document.
func (sc *streamConn) Refuse(err error) error {
	p := sc.s.problemFor(err)
	translateProblem(&p, err, sc.lang)
	p.Instance, p.RequestId = ptr(sc.path), ptr(sc.requestID)
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return sc.out.event("", "error", data)
}

// ReadFailed logs the failure unless it is the database being out of reach (the listener reports
// that once for all streams).
func (sc *streamConn) ReadFailed(err error) {
	if !sc.s.database.IsUnavailable(err) {
		sc.s.logger.Warn("live updates: reading for a stream failed; it will try again",
			"request_id", sc.requestID, "stream", string(sc.topic), "error", err.Error())
	}
}
