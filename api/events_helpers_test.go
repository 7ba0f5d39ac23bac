package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api"
	"primegames/api/apitest"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// The harness of the live-update tests: two server instances on one database (evCluster), a game
// played through one of them by a scripted client (evGame) and an event stream read line by line
// as a browser's EventSource would (evStream). Actions go through instance A and streams are read
// from B, each with its own pool and its own listening connection, so every test crosses instances.

type evCluster struct {
	a, b       *apitest.Server
	srvA, srvB *api.Server
	dbA, dbB   *repo.DB
	// proxyB, when there is one, stands between B and the database.
	proxyB *repotest.Proxy
}

func newEvCluster(t testing.TB, cfgB api.Config) *evCluster {
	t.Helper()
	return startEvCluster(t, cfgB, false, nil)
}

// newEvClusterOn is newEvCluster with both instances reading clock (see newAPIOn); their workers,
// started by the test, must read it too (runBotsOn).
func newEvClusterOn(t *testing.T, cfgB api.Config, clock play.Clock) *evCluster {
	t.Helper()
	return startEvCluster(t, cfgB, false, clock)
}

func startEvCluster(t testing.TB, cfgB api.Config, proxied bool, clock play.Clock) *evCluster {
	t.Helper()
	dbA, dbURL := repotest.NewDBWithURL(t)
	c := &evCluster{dbA: dbA}
	if proxied {
		c.proxyB, dbURL = repotest.NewProxy(t, dbURL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dbB, err := repo.Open(ctx, dbURL, repo.PoolOptions{MaxConns: 10})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dbB.Close)
	c.dbB = dbB
	if c.srvA, err = newAPIOn(testConfig(), dbA, clock, quietLogger()); err != nil {
		t.Fatal(err)
	}
	c.a = apitest.Start(t, c.srvA)
	t.Cleanup(c.srvA.Close) // before the HTTP server closes, which waits for open streams
	if c.srvB, err = newAPIOn(cfgB, dbB, clock, quietLogger()); err != nil {
		t.Fatal(err)
	}
	c.b = apitest.Start(t, c.srvB)
	t.Cleanup(c.srvB.Close)
	return c
}

// evGame is a game played through one instance by a scripted openapi.
type evGame struct {
	t       testing.TB
	s       *apitest.Server
	id      string
	creator string
	tokens  []string
	kind    string
	toAct   int
	status  client.GameStatus
	seq     int64
	version int64
	rng     *rand.Rand
	posted  map[int64]json.RawMessage
	// versions[seq] is the game's version in the response that recorded entry seq.
	versions map[int64]int64
}

func newEvGame(t testing.TB, s *apitest.Server, kind string, options any, players int, seed uint64) *evGame {
	t.Helper()
	req := map[string]any{"game": kind, "players": names(players)}
	if options != nil {
		req["options"] = options
	}
	resp := s.Post("/v1/games", req)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
	}
	var c client.CreatedGame
	resp.JSON(t, &c)
	g := &evGame{t: t, s: s, id: c.Game.Id.String(), creator: c.CreatorToken, kind: kind, rng: rand.New(rand.NewPCG(seed, 7)),
		posted: map[int64]json.RawMessage{}, versions: map[int64]int64{0: c.Game.Version}}
	for _, st := range c.Seats {
		g.tokens = append(g.tokens, st.Token)
	}
	g.update(c.Game)
	return g
}

func (g *evGame) update(body client.Game) {
	g.status, g.version = body.Status, body.Version
	if body.Turn != nil && len(body.Turn.ToAct) == 1 {
		g.toAct = body.Turn.ToAct[0]
	}
}

func (g *evGame) path(suffix string) string { return "/v1/games/" + g.id + suffix }

// play makes one legal move of the seat to act and returns its entry's seq and when the POST
// was sent and when its response had arrived.
func (g *evGame) play() (seq int64, sent, returned time.Time) {
	g.t.Helper()
	if g.status != "active" {
		g.t.Fatalf("game %s is %s", g.id, g.status)
	}
	var legal client.LegalActions
	var actions []json.RawMessage
	g.s.Get(g.path("/legal-actions"), bearer(g.tokens[g.toAct])...).JSON(g.t, &legal)
	if err := json.Unmarshal(legal.Actions, &actions); err != nil {
		g.t.Fatalf("legal actions %s: %v", legal.Actions, err)
	}
	if len(actions) == 0 {
		g.t.Fatalf("seat %d has no legal action", g.toAct)
	}
	var pick climbLegal
	choose(g.t, greedyPlayer(g.t, g.kind), actions, g.rng, &pick)
	sent = time.Now()
	resp := g.s.Post(g.path("/actions"), []byte(pick.Action), bearer(g.tokens[g.toAct])...)
	returned = time.Now()
	if resp.StatusCode != http.StatusCreated {
		g.t.Fatalf("POST action %s = %d: %s", pick.Action, resp.StatusCode, resp.Body)
	}
	var res client.ActionResult
	resp.JSON(g.t, &res)
	g.update(res.Game)
	g.seq = res.Entry.Seq
	g.posted[g.seq], g.versions[g.seq] = pick.Action, res.Game.Version
	return g.seq, sent, returned
}

// evEvent is one server-sent event, or a comment.
type evEvent struct {
	ID, Event, Data string
	Comment         string
	At              time.Time
}

// action decodes an `action` event, returning it and its entry.
func (e evEvent) action(t testing.TB) (client.GameEvent, client.HistoryEntry) {
	t.Helper()
	if e.Event != "action" {
		t.Fatalf("event %q (%s), want action", e.Event, e.Data)
	}
	var a client.GameEvent
	if err := json.Unmarshal([]byte(e.Data), &a); err != nil {
		t.Fatalf("action data: %v: %s", err, e.Data)
	}
	en := a.Entry
	if !strings.Contains(e.ID, ":") && e.ID != strconv.FormatInt(en.Seq, 10) { // classroom streams' ids are checked by their test
		t.Errorf("event id %q for entry seq %d", e.ID, en.Seq)
	}
	return a, en
}

// evStream is an open event stream read by a goroutine.
type evStream struct {
	resp   *http.Response
	events chan evEvent
	closed chan struct{} // closed when the server ends the stream
	cancel context.CancelFunc
}

// openEvStream opens GET base+path with header pairs and fails unless it answers 200 text/event-stream.
func openEvStream(t testing.TB, base, path string, headers ...string) *evStream {
	t.Helper()
	s := startStream(t, base, path, "text/event-stream", headers...)
	go s.read()
	return s
}

// startStream opens GET base+path with header pairs and fails unless it answers 200 with the
// media type; reading it is the caller's.
func startStream(t testing.TB, base, path, mediaType string, headers ...string) *evStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatalf("GET %s: %v", path, err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), mediaType) {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		t.Fatalf("GET %s = %d %s: %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	s := &evStream{resp: resp, events: make(chan evEvent, 100_000), closed: make(chan struct{}), cancel: cancel}
	t.Cleanup(s.close)
	return s
}

func (s *evStream) read() {
	defer close(s.closed)
	r := bufio.NewReader(s.resp.Body)
	var ev evEvent
	var data []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.Event != "" || len(data) > 0 {
				ev.Data, ev.At = strings.Join(data, "\n"), time.Now()
				s.events <- ev
			}
			ev, data = evEvent{}, nil
		case strings.HasPrefix(line, ":"):
			s.events <- evEvent{Comment: strings.TrimSpace(line[1:]), At: time.Now()}
		default:
			name, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch name {
			case "id":
				ev.ID = value
			case "event":
				ev.Event = value
			case "data":
				data = append(data, value)
			}
		}
	}
}

func (s *evStream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next returns the next event (comments skipped), failing after timeout.
func (s *evStream) next(t testing.TB, timeout time.Duration) evEvent {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case e := <-s.events:
			if e.Comment == "" {
				return e
			}
		case <-deadline:
			t.Fatalf("no event within %s", timeout)
		}
	}
}

// ended waits for the server to close the stream after its last event.
func (s *evStream) ended(t *testing.T, timeout time.Duration) {
	t.Helper()
	select {
	case <-s.closed:
	case <-time.After(timeout):
		t.Fatalf("the stream is still open after %s", timeout)
	}
	for {
		select {
		case e := <-s.events:
			if e.Comment == "" {
				t.Errorf("event after the end: %+v", e)
			}
		default:
			return
		}
	}
}

const evWait = 10 * time.Second
