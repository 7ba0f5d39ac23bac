package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"primegames.dev/client"
)

// serve answers every request with status, content type and body, and records the request.
func serve(t *testing.T, status int, contentType, body string) (*client.ClientWithResponses, *http.Request) {
	t.Helper()
	var got http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = *r.Clone(context.Background())
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	api, err := client.NewClientWithResponses(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return api, &got
}

func TestFollowGameSkipsHeartbeatsAndKeepsTheLastID(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	body := `{"event":"heartbeat"}
{"event":"action","id":"0","data":{"game_id":"` + id.String() + `","status":"active","version":1,"entry":{"seq":0,"game":"primed"}}}

{"event":"heartbeat"}
{"event":"end","data":{"game_id":"` + id.String() + `","status":"finished","version":9,"winners":[1]}}
`
	api, req := serve(t, http.StatusOK, "application/x-ndjson", body)
	stream, err := api.FollowGame(context.Background(), id, nil, client.Bearer("pgs_token"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stream.Close() }()
	if got := req.Header.Get("Accept"); got != "application/x-ndjson" {
		t.Errorf("Accept = %q", got)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer pgs_token" {
		t.Errorf("Authorization = %q", got)
	}

	var events []string
	for {
		line, err := stream.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch m, _ := line.ValueByDiscriminator(); m := m.(type) {
		case client.GameActionMessage:
			if _, ok := m.Data.Entry.Primed(); !ok {
				t.Errorf("the action's entry is not Primed's: %#v", m.Data.Entry.Kind())
			}
			events = append(events, "action "+m.Id)
		case client.GameEndMessage:
			events = append(events, "end")
			if m.Data.Version != 9 {
				t.Errorf("end version = %d", m.Data.Version)
			}
		default:
			t.Errorf("unexpected message %#v", m)
		}
	}
	if strings.Join(events, ",") != "action 0,end" {
		t.Errorf("events = %v, want action 0, end", events)
	}
	if stream.LastID() != "0" {
		t.Errorf("LastID = %q, want 0 (the end has no id)", stream.LastID())
	}
}

func TestFollowGameRefusedNamesTheProblem(t *testing.T) {
	t.Parallel()
	api, _ := serve(t, http.StatusTooManyRequests, "application/problem+json",
		`{"type":"about:blank","title":"Too many requests","status":429,"code":"rate_limited"}`)
	_, err := api.FollowGame(context.Background(), uuid.New(), nil)
	var refused *client.StreamRefused
	if !errors.As(err, &refused) {
		t.Fatalf("err = %v, want a StreamRefused", err)
	}
	if refused.StatusCode != 429 || refused.RetryAfter != "3" || refused.Problem == nil || refused.Problem.Code != "rate_limited" {
		t.Errorf("refused = %+v", refused)
	}
}

func TestFollowGameRefusesAnEventStream(t *testing.T) {
	t.Parallel()
	api, _ := serve(t, http.StatusOK, "text/event-stream", "retry: 2000\n\n")
	if _, err := api.FollowGame(context.Background(), uuid.New(), nil); err == nil || !strings.Contains(err.Error(), "text/event-stream") {
		t.Errorf("err = %v, want one naming the content type", err)
	}
}

func TestStreamEndsAtALineLongerThanItsBound(t *testing.T) {
	t.Parallel()
	long := `{"event":"action","id":"1","data":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}` + "\n"
	api, _ := serve(t, http.StatusOK, "application/x-ndjson", long)
	stream, err := api.FollowGame(context.Background(), uuid.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stream.Close() }()
	if _, err := stream.Next(); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("err = %v, want a line too long", err)
	}
}

// serveLive answers with an NDJSON stream that writes each line the test sends on the returned
// channel, and otherwise stalls, the connection open, until the test ends: a silent connection.
func serveLive(t *testing.T) (*client.ClientWithResponses, chan<- string) {
	t.Helper()
	lines, stop := make(chan string), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ndjson")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case line := <-lines:
				_, _ = io.WriteString(w, line+"\n")
				w.(http.Flusher).Flush()
			case <-stop:
				return
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first: the handler returns, then the server closes
	api, err := client.NewClientWithResponses(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return api, lines
}

const heartbeat = `{"event":"heartbeat"}`

func action(id string) string {
	return `{"event":"action","id":"` + id + `","data":{"game_id":"` + uuid.NewString() + `","status":"active","version":1,"entry":{"seq":0,"game":"primed"}}}`
}

func TestStreamSilentLongerThanItsLimitEnds(t *testing.T) {
	t.Parallel()
	api, lines := serveLive(t)
	stream, err := api.FollowGame(context.Background(), uuid.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stream.Close() }()
	stream.SetIdleLimit(50 * time.Millisecond)
	go func() { lines <- action("7") }()
	if _, err := stream.Next(); err != nil {
		t.Fatal(err)
	}
	// The server now says nothing, the connection open.
	if _, err := stream.Next(); !errors.Is(err, client.ErrStreamSilent) {
		t.Fatalf("err = %v, want ErrStreamSilent", err)
	}
	if _, err := stream.Next(); !errors.Is(err, client.ErrStreamSilent) {
		t.Errorf("again: err = %v, want ErrStreamSilent", err)
	}
	if stream.LastID() != "7" {
		t.Errorf("LastID = %q, want 7", stream.LastID())
	}
}

func TestStreamHeartbeatsKeepItOpenPastItsLimit(t *testing.T) {
	t.Parallel()
	api, lines := serveLive(t)
	stream, err := api.FollowGame(context.Background(), uuid.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stream.Close() }()
	const limit = 300 * time.Millisecond
	stream.SetIdleLimit(limit)
	start := time.Now()
	go func() {
		// Heartbeats at a tenth of the limit, for twice the limit, then a message.
		tick := time.NewTicker(limit / 10)
		defer tick.Stop()
		for range 20 {
			<-tick.C
			lines <- heartbeat
		}
		lines <- action("3")
	}()
	if _, err := stream.Next(); err != nil {
		t.Fatalf("err = %v after %v, want the message after the heartbeats", err, time.Since(start))
	}
	if waited := time.Since(start); waited < limit {
		t.Errorf("the message came after %v, not past the limit %v: the test proves nothing", waited, limit)
	}
	if stream.LastID() != "3" {
		t.Errorf("LastID = %q, want 3", stream.LastID())
	}
	if _, err := stream.Next(); !errors.Is(err, client.ErrStreamSilent) {
		t.Errorf("after the heartbeats stop: err = %v, want ErrStreamSilent", err)
	}
}

func TestStreamSilenceCountsOnlyWhileNextWaits(t *testing.T) {
	t.Parallel()
	api, lines := serveLive(t)
	stream, err := api.FollowGame(context.Background(), uuid.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stream.Close() }()
	stream.SetIdleLimit(50 * time.Millisecond)
	lines <- action("1")
	lines <- action("2") // both written before the caller reads either
	if _, err := stream.Next(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond) // a caller busy with the first message
	if _, err := stream.Next(); err != nil {
		t.Fatalf("err = %v, want the second message: the caller, not the server, was slow", err)
	}
}

func TestStreamWithoutIdleLimitWaitsUntilClosed(t *testing.T) {
	t.Parallel()
	api, _ := serveLive(t)
	stream, err := api.FollowGame(context.Background(), uuid.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	stream.SetIdleLimit(0)
	closed := time.AfterFunc(100*time.Millisecond, func() { _ = stream.Close() })
	defer closed.Stop()
	if _, err := stream.Next(); err == nil || errors.Is(err, client.ErrStreamSilent) {
		t.Errorf("err = %v, want the error of a closed body", err)
	}
}
