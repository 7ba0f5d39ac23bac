package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/play"
)

// sharedReplays lets the requests for one window of a finished game's replay that arrive while it
// is being drawn share that drawing: the first folds and draws it into memory, under the render
// gate, and the others wait for its bytes without taking a render slot. A finished game's replay is
// the same for everyone (PR-8), so eight dashboards opening it at once cost one drawing, not eight.
type sharedReplays struct {
	mu       sync.Mutex
	drawings map[string]*replayDrawing
	// joined, when set (by tests), is called when a request starts to wait for another's drawing.
	joined func()
}

// replayDrawing is one window drawn: its SVG, plain and gzipped (compressed once for all who share
// it, rather than by each request), and the window after it (play.Replay's Next), or why it
// failed. Each request names the neighbours in its own Link, with its own access token.
type replayDrawing struct {
	done      chan struct{}
	svg, gzip []byte
	next      *int64
	err       error
}

// send writes the drawing to c: gzipped for a client that takes it, as compress would.
func (d *replayDrawing) send(c echo.Context) error {
	if middleware.AcceptsGzip(c.Request()) {
		middleware.MarkGzipped(c.Response().Header())
		return sendWhole(c, http.StatusOK, svgType, d.gzip)
	}
	return sendWhole(c, http.StatusOK, svgType, d.svg)
}

func newSharedReplays() *sharedReplays { return &sharedReplays{drawings: map[string]*replayDrawing{}} }

// drawing is the drawing of r, made by draw unless another request is making it already. When the
// request making it gives up (its context ends), a request still waiting makes it again.
func (s *sharedReplays) drawing(ctx context.Context, r *play.Replay, draw func(*replayDrawing)) *replayDrawing {
	for {
		s.mu.Lock()
		d, drawing := s.drawings[r.Tag]
		if !drawing {
			d = &replayDrawing{done: make(chan struct{})}
			s.drawings[r.Tag] = d
		}
		s.mu.Unlock()
		if !drawing {
			draw(d)
			s.mu.Lock()
			delete(s.drawings, r.Tag)
			s.mu.Unlock()
			close(d.done)
			return d
		}
		if s.joined != nil {
			s.joined()
		}
		select {
		case <-d.done:
		case <-ctx.Done():
			return &replayDrawing{err: ctx.Err()}
		}
		drawerGaveUp := errors.Is(d.err, context.Canceled) || errors.Is(d.err, context.DeadlineExceeded)
		if !drawerGaveUp || ctx.Err() != nil {
			return d
		}
	}
}

// drawInMemory folds and draws r into d under the render gate.
func (s *Server) drawInMemory(ctx context.Context, r *play.Replay) func(*replayDrawing) {
	return func(d *replayDrawing) {
		release, err := s.renders.enter(ctx)
		if err != nil {
			d.err = err
			return
		}
		defer release()
		if d.err = r.Fold(ctx); d.err != nil {
			return
		}
		var out bytes.Buffer
		if d.err = r.Draw(&out); d.err == nil {
			d.svg, d.gzip, d.next = out.Bytes(), middleware.Gzipped(out.Bytes()), r.Next
		}
	}
}
