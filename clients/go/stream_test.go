package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
