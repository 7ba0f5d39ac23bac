package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

var replayStep = regexp.MustCompile(`<g class="step" data-seq="(\d+)"`)

// stepSeqs are the seqs of a replay picture's steps.
func stepSeqs(body []byte) []string {
	var seqs []string
	for _, m := range replayStep.FindAllSubmatch(body, -1) {
		seqs = append(seqs, string(m[1]))
	}
	return seqs
}

// A replay covers a window of the history, 100 entries at most; Link leads from one window to the
// next, and together the windows show every step once.
func TestReplayIsDrawnInWindows(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	c := createGame(t, s, map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0, "rounds": 2},
		"players": []map[string]string{{"bot": "random"}, {"bot": "random"}}})
	id := c.Game.Id.String()
	waitFor(t, s, id, botGameTimeout, finished)
	entries := history(t, s, id)
	if len(entries) < 12 {
		t.Fatalf("only %d entries; the test needs a few windows of 5", len(entries))
	}

	var seen []string
	next := "/v1/games/" + id + "/replay.svg?count=5"
	for windows := 0; next != ""; windows++ {
		if windows > len(entries) {
			t.Fatal("the windows do not end")
		}
		resp := s.Get(next)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d: %s", next, resp.StatusCode, resp.Body)
		}
		steps := stepSeqs(resp.Body)
		if len(steps) == 0 || len(steps) > 5 {
			t.Fatalf("GET %s drew %d steps, want 1 to 5", next, len(steps))
		}
		seen = append(seen, steps...)
		next = ""
		if link := resp.Header.Get("Link"); strings.Contains(link, `rel="next"`) {
			m := regexp.MustCompile(`<([^>]+)>; rel="next"`).FindStringSubmatch(link)
			next = m[1]
		}
	}
	want := make([]string, len(entries))
	for i, e := range entries {
		want[i] = fmt.Sprint(e.Seq)
	}
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Errorf("the windows showed steps %v, want every entry once: %v", seen, want)
	}

	// The default window is the first 100 entries; one beyond the history has no step.
	whole := s.Get("/v1/games/" + id + "/replay.svg")
	if steps := stepSeqs(whole.Body); len(steps) != min(len(entries), 100) {
		t.Errorf("the default window drew %d steps, want %d", len(steps), min(len(entries), 100))
	}
	if resp := s.Get(fmt.Sprintf("/v1/games/%s/replay.svg?from=%d", id, len(entries))); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "step_not_found" {
		t.Errorf("a window beyond the history = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := s.Get("/v1/games/" + id + "/replay.svg?count=101"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("count=101 = %d, want 400", resp.StatusCode)
	}
	// The ETag is known before anything is drawn: If-None-Match is 304.
	if resp := s.Get("/v1/games/"+id+"/replay.svg", "If-None-Match", whole.Header.Get("ETag")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match = %d, want 304", resp.StatusCode)
	}
}

// Expensive requests beyond RENDER_LIMIT wait in RENDER_QUEUE; beyond both, 503 renders_busy with
// Retry-After and the limits as facts, logged as load shed (a warning), not as a fault. Cheap
// requests are not held.
func TestRenderLimitRefusesWhenFull(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	cfg := testConfig()
	cfg.RenderLimit, cfg.RenderQueue = 1, 1
	logs := &lockedBuffer{}
	srv, err := newAPI(cfg, db, slog.New(slog.NewJSONHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan struct{}, 8)
	srv.OnRenderWait(func() { waiting <- struct{}{} })
	s := apitest.Start(t, srv)
	c := s.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{{"name": "A"}, {"name": "B"}}})
	var created struct {
		Game struct{ ID string }
	}
	c.JSON(t, &created)
	id := created.Game.ID

	release, err := srv.HoldRender(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	queued := make(chan *apitest.Response, 1)
	go func() { queued <- s.Get("/v1/games/" + id + "/picture.svg") }()
	<-waiting // the picture waits for the slot held

	refused := []string{"/picture.svg", "/picture.png?layout=phone", "/states/0", "/review"}
	for _, path := range refused {
		resp := s.Get("/v1/games/" + id + path)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("GET %s with the gate full = %d (Retry-After %q): %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), resp.Body)
		}
		p := resp.Problem(t)
		var facts api.RenderBusyFacts
		if err := json.Unmarshal(p.Facts, &facts); p.Code != "renders_busy" || err != nil || facts != (api.RenderBusyFacts{Limit: 1, Queue: 1}) {
			t.Errorf("GET %s: problem %s with facts %s, want renders_busy with limit 1, queue 1", path, p.Code, p.Facts)
		}
	}
	if resp := s.Get("/v1/games/" + id); resp.StatusCode != http.StatusOK {
		t.Errorf("GET the game with the gate full = %d, want 200: cheap requests are not held", resp.StatusCode)
	}
	release()
	if resp := <-queued; resp.StatusCode != http.StatusOK {
		t.Errorf("the queued picture = %d, want 200 once the slot was free: %s", resp.StatusCode, resp.Body)
	}
	shed := 0
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var entry struct{ Level, Msg string }
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		switch {
		case entry.Level == "ERROR":
			t.Errorf("logged as an error: %s", line)
		case entry.Msg == "request shed" && entry.Level == "WARN":
			shed++
		}
	}
	if shed != len(refused) {
		t.Errorf("%d requests logged as shed at warn level, want the %d refused:\n%s", shed, len(refused), logs.String())
	}
}

// Replays of one window of a finished game asked for at once share one drawing: the first request
// draws it under the render gate, the others wait for its bytes without a render slot (issue 23:
// eight dashboards opening the same replay cost one drawing).
func TestConcurrentReplaysOfAFinishedGameShareOneDrawing(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	cfg := testConfig()
	cfg.RenderLimit, cfg.RenderQueue = 1, 8
	srv, err := newAPI(cfg, db, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	waits, joins := make(chan struct{}, 16), make(chan struct{}, 16)
	srv.OnRenderWait(func() { waits <- struct{}{} })
	srv.OnReplayShared(func() { joins <- struct{}{} })
	s := apitest.Start(t, srv)
	c := createGame(t, s, map[string]any{"game": "primed", "players": []map[string]string{{"name": "A"}, {"name": "B"}}})
	id := c.Game.Id.String()
	if resp := s.Post("/v1/games/"+id+"/abort", nil, bearer(c.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}

	release, err := srv.HoldRender(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	replies := make(chan *apitest.Response, n)
	for range n {
		go func() { replies <- s.Get("/v1/games/" + id + "/replay.svg") }()
	}
	<-waits // the first waits for the render slot held
	for range n - 1 {
		select {
		case <-joins: // the others wait for its drawing
		case <-waits:
			release()
			t.Fatal("a second request waited for a render slot of its own")
		}
	}
	release()
	var first []byte
	for range n {
		resp := <-replies
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(resp.Body), "<svg") {
			t.Fatalf("replay = %d: %.200s", resp.StatusCode, resp.Body)
		}
		if first == nil {
			first = resp.Body
		} else if string(resp.Body) != string(first) {
			t.Error("the replays that shared a drawing differ")
		}
	}
	if len(waits) != 0 {
		t.Errorf("%d more requests waited for a render slot, want none: one drawing for all", len(waits))
	}
	// Those went gzipped (Go's client asks for it); a client that does not take gzip gets the same
	// picture plain.
	plain := s.Get("/v1/games/"+id+"/replay.svg", "Accept-Encoding", "identity")
	if plain.StatusCode != http.StatusOK || plain.Header.Get("Content-Encoding") != "" || string(plain.Body) != string(first) {
		t.Errorf("a plain replay = %d (Content-Encoding %q), same picture: %v", plain.StatusCode, plain.Header.Get("Content-Encoding"), string(plain.Body) == string(first))
	}
}
