package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"
)

// HEAD of a game, of its legal actions and of its event stream is checked (apitest) against the head
// operation the contract declares beside each GET: statuses, headers such as ETag and
// WWW-Authenticate, no body.
func TestHeadAnswersValidateAgainstTheirHeadOperations(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := newPrimedGame(t, h)
	game := "/v1/games/" + c.Game.Id.String()
	seat := bearer(c.Seats[0].Token)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a stream's HEAD must end
	defer cancel()
	head := func(path string, headers ...string) (int, http.Header) {
		t.Helper()
		resp := h.Do(h.Request(http.MethodHead, path, nil, headers...).WithContext(ctx))
		return resp.StatusCode, resp.Header
	}

	status, header := head(game, seat...)
	if status != http.StatusOK || header.Get("ETag") == "" {
		t.Fatalf("HEAD %s = %d, ETag %q; want 200 with an ETag", game, status, header.Get("ETag"))
	}
	if status, _ := head(game, append(seat, "If-None-Match", header.Get("ETag"))...); status != http.StatusNotModified {
		t.Errorf("HEAD %s with If-None-Match = %d, want 304", game, status)
	}
	if status, _ := head(game+"/legal-actions", seat...); status != http.StatusOK {
		t.Errorf("HEAD legal-actions = %d, want 200", status)
	}
	if status, header := head(game + "/legal-actions"); status != http.StatusUnauthorized || header.Get("WWW-Authenticate") == "" {
		t.Errorf("HEAD legal-actions without a token = %d, WWW-Authenticate %q; want 401 with it", status, header.Get("WWW-Authenticate"))
	}
	if status, header := head(game+"/events", seat...); status != http.StatusOK || header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("HEAD events = %d %q, want 200 text/event-stream", status, header.Get("Content-Type"))
	}
	if status, _ := head("/v1/games/00000000-0000-0000-0000-000000000000"); status != http.StatusNotFound {
		t.Errorf("HEAD of no game = %d, want 404", status)
	}
}
