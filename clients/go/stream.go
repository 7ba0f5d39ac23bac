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
)

// The live streams (a game's, a classroom's, a student's) are read here as NDJSON (`Accept:
// application/x-ndjson`): one JSON object per line, the same messages as the server-sent events,
// with `{"event":"heartbeat"}` lines that Stream skips.

// maxLineBytes bounds one line of a stream, and so what Stream holds in memory: a history entry
// is a few kilobytes, and a longer line ends the stream with an error rather than growing a buffer.
const maxLineBytes = 1 << 20

// Stream reads one live stream. Next returns its messages in order; LastID is the id to resume
// from after a disconnect (the params' LastEventID of the Follow call that opens it again).
type Stream[Line any] struct {
	body   io.ReadCloser
	lines  *bufio.Scanner
	lastID string
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
	return &Stream[Line]{body: resp.Body, lines: lines}, nil
}

// Next waits for the stream's next message, skipping heartbeats. It returns io.EOF once the server
// has closed the stream (after an `end`, `error` or `revoked` message, or when it shuts down: resume
// then from LastID), and an error once the Follow call's context is done.
func (s *Stream[Line]) Next() (Line, error) {
	var line Line
	for s.lines.Scan() {
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

// Close ends the stream.
func (s *Stream[Line]) Close() error { return s.body.Close() }
