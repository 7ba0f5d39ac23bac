package client

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The live streams (a game's, a classroom's, a student's) are read here as NDJSON (`Accept:
// application/x-ndjson`): one JSON object per line, the same messages as the server-sent events,
// with `{"event":"heartbeat"}` lines that Stream skips.

// maxLineBytes bounds one line of a stream, and so what Stream holds in memory: a history entry
// is a few kilobytes, and a longer line ends the stream with an error rather than growing a buffer.
const maxLineBytes = 1 << 20

// DefaultIdleLimit is how long Next waits for a line (heartbeats included) before it ends a stream
// as silent: three of the server's heartbeats (STREAM_HEARTBEAT, 15 s by default).
const DefaultIdleLimit = 45 * time.Second

// ErrStreamSilent is the error of Next on a stream that sent nothing, not even a heartbeat, for
// longer than its idle limit: the connection stalled without breaking (a phone changing networks,
// a NAT that dropped its state). The stream is closed; open it again from LastID.
var ErrStreamSilent = errors.New("stream: silent for longer than its idle limit")

// Stream reads one live stream. Next returns its messages in order; LastID is the id to resume
// from after a disconnect (the params' LastEventID of the Follow call that opens it again).
type Stream[Line any] struct {
	body   io.ReadCloser
	lines  *bufio.Scanner
	lastID string

	// The watch on silence: while Next waits, a timer closes the body once no line has come for
	// idle. mu guards the fields below; the timer's function and Next/SetIdleLimit/Close share them.
	mu      sync.Mutex
	idle    time.Duration // <= 0: no limit
	timer   *time.Timer   // nil until Next first waits with a limit
	waiting bool          // Next is reading
	heard   time.Time     // when Next began waiting or last read a line
	silent  bool          // the timer closed the body
	closed  bool          // Close was called or the stream ended: the timer does nothing more
}

// StreamRefused is the error of a Follow call whose stream was not opened: the status and, when
// the server sent one, its problem document (a 429 or 503 says when to retry in RetryAfter).
type StreamRefused struct {
	StatusCode int
	RetryAfter string
	Problem    *Problem
}

func (e *StreamRefused) Error() string {
	if e.Problem != nil {
		return fmt.Sprintf("stream refused: %d %s", e.StatusCode, e.Problem.Code)
	}
	return fmt.Sprintf("stream refused: %d", e.StatusCode)
}

// FollowGame opens game id's stream: GameStreamLine messages, whose Discriminator is "action",
// "end" (then the stream ends), "error" or "revoked" (the token stopped working; the stream ends,
// and reopening it with that token is refused). params may be nil.
func (c *ClientWithResponses) FollowGame(ctx context.Context, id GameID, params *StreamGameEventsParams, reqEditors ...RequestEditorFn) (*Stream[GameStreamLine], error) {
	if params == nil {
		params = &StreamGameEventsParams{}
	}
	return follow[GameStreamLine](c.StreamGameEvents(ctx, id, params, append(reqEditors, acceptNDJSON)...))
}

// FollowClassroom opens a classroom's stream (a teacher's token): GameStreamLine messages of all
// its games. params may be nil.
func (c *ClientWithResponses) FollowClassroom(ctx context.Context, id ClassroomID, params *StreamClassroomEventsParams, reqEditors ...RequestEditorFn) (*Stream[GameStreamLine], error) {
	if params == nil {
		params = &StreamClassroomEventsParams{}
	}
	return follow[GameStreamLine](c.StreamClassroomEvents(ctx, id, params, append(reqEditors, acceptNDJSON)...))
}

// FollowMe opens the player stream of the token's student: PlayerStreamLine messages. params may
// be nil.
func (c *ClientWithResponses) FollowMe(ctx context.Context, params *StreamMyEventsParams, reqEditors ...RequestEditorFn) (*Stream[PlayerStreamLine], error) {
	if params == nil {
		params = &StreamMyEventsParams{}
	}
	return follow[PlayerStreamLine](c.StreamMyEvents(ctx, params, append(reqEditors, acceptNDJSON)...))
}

func acceptNDJSON(_ context.Context, req *http.Request) error {
	req.Header.Set("Accept", "application/x-ndjson")
	return nil
}

func follow[Line any](resp *http.Response, err error) (*Stream[Line], error) {
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer func() { _ = resp.Body.Close() }()
		refused := &StreamRefused{StatusCode: resp.StatusCode, RetryAfter: resp.Header.Get("Retry-After")}
		var problem Problem
		if body, err := io.ReadAll(io.LimitReader(resp.Body, maxLineBytes)); err == nil && json.Unmarshal(body, &problem) == nil && problem.Code != "" {
			refused.Problem = &problem
		}
		return nil, refused
	}
	if media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); media != "application/x-ndjson" {
		_ = resp.Body.Close()
		return nil, fmt.Errorf("stream: the server answered %q, not application/x-ndjson", media)
	}
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	return &Stream[Line]{body: resp.Body, lines: lines, idle: DefaultIdleLimit}, nil
}

// SetIdleLimit sets how long Next waits for a line, heartbeats included, before it closes the
// stream and returns ErrStreamSilent (DefaultIdleLimit unless set; 0 or less waits forever). Keep
// it a few times the server's STREAM_HEARTBEAT. Only the time Next spends waiting counts: a caller
// slow to call Next does not end the stream.
func (s *Stream[Line]) SetIdleLimit(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idle = d
	if s.timer == nil {
		return
	}
	if d <= 0 {
		s.timer.Stop()
		return
	}
	if s.waiting {
		s.timer.Reset(max(time.Until(s.heard.Add(d)), 0))
	}
}

// wait starts the watch on silence as Next begins to read.
func (s *Stream[Line]) wait() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiting, s.heard = true, time.Now()
	if s.idle <= 0 || s.closed {
		return
	}
	if s.timer == nil {
		s.timer = time.AfterFunc(s.idle, s.expire)
	} else {
		s.timer.Reset(s.idle)
	}
}

// heardLine moves the watch on silence on: a line (a heartbeat too) came.
func (s *Stream[Line]) heardLine() {
	s.mu.Lock()
	s.heard = time.Now()
	s.mu.Unlock()
}

// stopWaiting ends the watch as Next returns (ended: the body has nothing more to give) and says
// whether the timer closed the body.
func (s *Stream[Line]) stopWaiting(ended bool) (silent bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiting = false
	if ended {
		s.closed = true
	}
	if s.timer != nil && (ended || s.idle <= 0) {
		s.timer.Stop()
	}
	return s.silent
}

// expire is the timer's function: it closes the body, so that the blocked read returns, once Next
// has waited idle since the last line, and otherwise waits again for what remains.
func (s *Stream[Line]) expire() {
	s.mu.Lock()
	if s.closed || !s.waiting || s.idle <= 0 {
		s.mu.Unlock()
		return
	}
	if left := time.Until(s.heard.Add(s.idle)); left > 0 {
		s.timer.Reset(left)
		s.mu.Unlock()
		return
	}
	s.silent, s.closed = true, true
	s.mu.Unlock()
	_ = s.body.Close()
}

// Next waits for the stream's next message, skipping heartbeats. It returns io.EOF once the server
// has closed the stream (after an `end`, `error` or `revoked` message, or when it shuts down: resume
// then from LastID), an error once the Follow call's context is done, and ErrStreamSilent once
// nothing, not even a heartbeat, came for the idle limit (see SetIdleLimit; resume from LastID).
func (s *Stream[Line]) Next() (line Line, err error) {
	s.wait()
	ended := false // the body gave all it will: no more watch on silence
	defer func() {
		if silent := s.stopWaiting(ended); silent && err != nil {
			line, err = *new(Line), fmt.Errorf("%w (%v)", ErrStreamSilent, s.limit())
		}
	}()
	for s.lines.Scan() {
		s.heardLine()
		raw := s.lines.Bytes()
		if len(strings.TrimSpace(string(raw))) == 0 {
			continue
		}
		var head struct {
			Event string  `json:"event"`
			ID    *string `json:"id"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return line, fmt.Errorf("stream: a line that is not JSON: %w", err)
		}
		if head.Event == "heartbeat" {
			continue
		}
		if err := json.Unmarshal(raw, &line); err != nil {
			return line, fmt.Errorf("stream: %s message: %w", head.Event, err)
		}
		if head.ID != nil {
			s.lastID = *head.ID
		}
		return line, nil
	}
	ended = true
	if err := s.lines.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return line, fmt.Errorf("stream: a line longer than %d bytes", maxLineBytes)
		}
		return line, err
	}
	return line, io.EOF
}

// LastID is the id of the last message Next returned that had one ("" before the first): send it
// as LastEventID to resume the stream, missing nothing and repeating nothing.
func (s *Stream[Line]) LastID() string { return s.lastID }

// limit is the idle limit, for the error's text.
func (s *Stream[Line]) limit() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idle
}

// Close ends the stream (and its watch on silence).
func (s *Stream[Line]) Close() error {
	s.mu.Lock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	s.mu.Unlock()
	return s.body.Close()
}
