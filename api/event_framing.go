package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/live"
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
type eventWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	ndjson  bool
}

func (s *Server) newEventWriter(c echo.Context) *eventWriter {
	leaveUncompressed(c)
	w := c.Response()
	return &eventWriter{w: w, rc: http.NewResponseController(w), timeout: s.hub.WriteTimeout(), ndjson: wantsNDJSON(c)}
}

// event sends one message: its id ("" for none), its name and its JSON data.
func (ew *eventWriter) event(id, name string, data []byte) error {
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
	if err := ew.rc.SetWriteDeadline(time.Now().Add(ew.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	if _, err := ew.w.Write([]byte(event)); err != nil {
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	return ew.flush()
}

func (ew *eventWriter) flush() error {
	if err := ew.rc.Flush(); err != nil {
		return fmt.Errorf("%w: %v", live.ErrClientGone, err)
	}
	return nil
}

// streamConn is a stream's HTTP response, as live.Serve drives it.
type streamConn struct {
	s     *Server
	c     echo.Context
	out   *eventWriter
	topic live.Topic
}

func (sc *streamConn) Begin() error { return sc.out.begin() }

func (sc *streamConn) Heartbeat() error { return sc.out.heartbeat() }

// Refuse sends err as the stream's `error` event, a problem document.
func (sc *streamConn) Refuse(err error) error {
	p := sc.s.problemFor(err)
	p.Instance, p.RequestId = ptr(sc.c.Request().URL.Path), ptr(requestIDOf(sc.c))
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
			"request_id", requestIDOf(sc.c), "stream", string(sc.topic), "error", err.Error())
	}
}
