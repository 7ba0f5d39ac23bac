package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/repo"
	"primegames/repo/repotest"
)

// Live updates over real HTTP with two server instances (each with its own pool and its own
// listening connection) on one database: actions go through instance A, streams are read from B.

type evCluster struct {
	a, b       *apitest.Server
	srvA, srvB *api.Server
	dbA, dbB   *repo.DB
	// proxyB, when there is one, stands between B and the database.
	proxyB *repotest.Proxy
}

func newEvCluster(t *testing.T, cfgB api.Config) *evCluster {
	t.Helper()
	return startEvCluster(t, cfgB, false)
}

// newEvClusterWithProxy is newEvCluster with instance B reaching the database through a proxy
// that the test can cut.
func newEvClusterWithProxy(t *testing.T, cfgB api.Config) *evCluster {
	t.Helper()
	return startEvCluster(t, cfgB, true)
}

func startEvCluster(t *testing.T, cfgB api.Config, proxied bool) *evCluster {
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
	if c.srvA, err = newAPI(testConfig(), dbA, quietLogger()); err != nil {
		t.Fatal(err)
	}
	c.a = apitest.Start(t, c.srvA)
	t.Cleanup(c.srvA.Close) // before the HTTP server closes, which waits for open streams
	if c.srvB, err = newAPI(cfgB, dbB, quietLogger()); err != nil {
		t.Fatal(err)
	}
	c.b = apitest.Start(t, c.srvB)
	t.Cleanup(c.srvB.Close)
	return c
}

// evGame is a game played through one instance by a scripted client.
type evGame struct {
	t       *testing.T
	s       *apitest.Server
	id      string
	creator string
	tokens  []string
	kind    string
	toAct   int
	status  string
	seq     int64
	version int64
	rng     *rand.Rand
	posted  map[int64]json.RawMessage
	// versions[seq] is the game's version in the response that recorded entry seq.
	versions map[int64]int64
}

func newEvGame(t *testing.T, s *apitest.Server, kind string, options any, players int, seed uint64) *evGame {
	t.Helper()
	req := map[string]any{"game": kind, "players": names(players)}
	if options != nil {
		req["options"] = options
	}
	resp := s.Post("/v1/games", req)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
	}
	var c struct {
		Game         gameBody    `json:"game"`
		CreatorToken string      `json:"creator_token"`
		Seats        []seatToken `json:"seats"`
	}
	resp.JSON(t, &c)
	g := &evGame{t: t, s: s, id: c.Game.ID, creator: c.CreatorToken, kind: kind, rng: rand.New(rand.NewPCG(seed, 7)),
		posted: map[int64]json.RawMessage{}, versions: map[int64]int64{0: c.Game.Version}}
	for _, st := range c.Seats {
		g.tokens = append(g.tokens, st.Token)
	}
	g.update(c.Game)
	return g
}

func (g *evGame) update(body gameBody) {
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
	var legal struct {
		Actions []json.RawMessage `json:"actions"`
	}
	g.s.Get(g.path("/legal-actions"), bearer(g.tokens[g.toAct])...).JSON(g.t, &legal)
	if len(legal.Actions) == 0 {
		g.t.Fatalf("seat %d has no legal action", g.toAct)
	}
	var pick climbLegal
	choose(g.t, greedyPlayer(g.t, g.kind), legal.Actions, g.rng, &pick)
	sent = time.Now()
	resp := g.s.Post(g.path("/actions"), []byte(pick.Action), bearer(g.tokens[g.toAct])...)
	returned = time.Now()
	if resp.StatusCode != http.StatusCreated {
		g.t.Fatalf("POST action %s = %d: %s", pick.Action, resp.StatusCode, resp.Body)
	}
	var res struct {
		Entry struct {
			Seq int64 `json:"seq"`
		} `json:"entry"`
		Game gameBody `json:"game"`
	}
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

type evAction struct {
	GameID  string          `json:"game_id"`
	Version int64           `json:"version"`
	Status  string          `json:"status"`
	Entry   json.RawMessage `json:"entry"`
}

type evEntry struct {
	Seq     int64           `json:"seq"`
	Seat    *int            `json:"seat"`
	Action  json.RawMessage `json:"action"`
	Outcome json.RawMessage `json:"outcome"`
	Random  *[]int          `json:"random"`
}

type evEnd struct {
	GameID  string `json:"game_id"`
	Status  string `json:"status"`
	Version int64  `json:"version"`
	Winners []int  `json:"winners"`
}

func (e evEvent) action(t *testing.T) (evAction, evEntry) {
	t.Helper()
	if e.Event != "action" {
		t.Fatalf("event %q (%s), want action", e.Event, e.Data)
	}
	var a evAction
	var en evEntry
	if err := json.Unmarshal([]byte(e.Data), &a); err != nil {
		t.Fatalf("action data: %v: %s", err, e.Data)
	}
	if err := json.Unmarshal(a.Entry, &en); err != nil {
		t.Fatal(err)
	}
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
func openEvStream(t *testing.T, base, path string, headers ...string) *evStream {
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
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		t.Fatalf("GET %s = %d %s: %s", path, resp.StatusCode, resp.Header.Get("Content-Type"), b)
	}
	s := &evStream{resp: resp, events: make(chan evEvent, 100_000), closed: make(chan struct{}), cancel: cancel}
	go s.read()
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
func (s *evStream) next(t *testing.T, timeout time.Duration) evEvent {
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

// A subscriber on instance B sees every action made through instance A, in order and exactly once,
// also across a forced disconnect resumed with Last-Event-ID, and then the end of the game.
func TestEventStreamAcrossInstancesInOrderExactlyOnce(t *testing.T) {
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "prime-climb", map[string]any{"prime_cards": true}, 3, 11)
	path := g.path("/events")
	stream := openEvStream(t, c.b.URL, path, bearer(g.tokens[1])...)

	var got []int64
	check := func(e evEvent) {
		t.Helper()
		a, en := e.action(t)
		if a.GameID != g.id {
			t.Errorf("event of game %s on the stream of %s", a.GameID, g.id)
		}
		if want, ok := g.versions[en.Seq]; !ok || a.Version != want {
			t.Errorf("entry %d: event version %d, the POST answered %d", en.Seq, a.Version, want)
		}
		if en.Seq > 0 && !jsonEqual(en.Action, g.posted[en.Seq]) {
			t.Errorf("entry %d: action %s, posted %s", en.Seq, en.Action, g.posted[en.Seq])
		}
		// Entries are redacted as the game stands when they are read: once it is over (here, when it
		// ended while the stream was disconnected), everything shows, random values included.
		if en.Random != nil && g.status == "active" {
			t.Errorf("entry %d shows random values while the game runs", en.Seq)
		}
		got = append(got, en.Seq)
	}
	check(stream.next(t, evWait)) // the start
	reconnected := false
	for n := 0; g.status == "active"; n++ {
		if n > 3000 {
			t.Fatal("the game does not end")
		}
		seq, _, _ := g.play()
		if n == 40 && !reconnected {
			// Drop the connection, play on while disconnected, resume from the last id received.
			stream.close()
			last := strconv.FormatInt(got[len(got)-1], 10)
			for range 5 {
				if g.status == "active" {
					g.play()
				}
			}
			stream = openEvStream(t, c.b.URL, path, append(bearer(g.tokens[1]), "Last-Event-ID", last)...)
			reconnected = true
		}
		for got[len(got)-1] < seq {
			check(stream.next(t, evWait))
		}
	}
	for got[len(got)-1] < g.seq { // the game may have ended while the stream was away
		check(stream.next(t, evWait))
	}
	e := stream.next(t, evWait)
	if e.Event != "end" || e.ID != "" {
		t.Fatalf("after the last entry: %+v, want an end event without id", e)
	}
	var end evEnd
	if err := json.Unmarshal([]byte(e.Data), &end); err != nil {
		t.Fatal(err)
	}
	if end.GameID != g.id || end.Status != "finished" || end.Version != g.version || len(end.Winners) != 1 {
		t.Errorf("end = %+v, game at version %d", end, g.version)
	}
	stream.ended(t, evWait)
	if int64(len(got)) != g.seq+1 {
		t.Errorf("received %d entries, the game has %d", len(got), g.seq+1)
	}
	for i, seq := range got {
		if seq != int64(i) {
			t.Fatalf("entry %d of the stream has seq %d: every entry once, in order (got %v)", i, seq, got)
		}
	}
	t.Logf("%d entries delivered across instances, one reconnect", len(got))

	// The whole finished game as one response, through the contract check; `since` resumes too.
	resp := c.b.Get(path + "?since=" + strconv.FormatInt(g.seq-1, 10))
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(resp.Body), "event: end") ||
		strings.Count(string(resp.Body), "event: action") != 1 || !strings.Contains(string(resp.Body), "id: "+strconv.FormatInt(g.seq, 10)+"\n") {
		t.Errorf("GET %s?since=%d = %d:\n%s", path, g.seq-1, resp.StatusCode, resp.Body)
	}
}

// Each subscriber sees the entries as the history shows them to it: a Primed player never sees the
// card the other drew, until the game is over; then everything shows.
func TestEventStreamRedactsPerSubscriber(t *testing.T) {
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "primed", nil, 2, 5)
	path := g.path("/events")
	streams := []*evStream{
		openEvStream(t, c.b.URL, path, bearer(g.tokens[0])...),
		// A browser's EventSource sends the token as a query parameter.
		openEvStream(t, c.b.URL, path+"?access_token="+url.QueryEscape(g.tokens[1])),
		openEvStream(t, c.b.URL, path),
	}
	draws := map[int]int{}
	for n := 0; n < 60 && g.status == "active"; n++ {
		g.play()
	}
	for viewer, s := range streams {
		for seq := int64(0); seq <= g.seq; seq++ {
			_, en := s.next(t, evWait).action(t)
			if en.Seq != seq {
				t.Fatalf("viewer %d: seq %d, want %d", viewer, en.Seq, seq)
			}
			var out primedOutcome
			if err := json.Unmarshal(en.Outcome, &out); err != nil {
				t.Fatal(err)
			}
			if d := out.Drew; d != nil {
				if (d.Card != nil) != (d.Seat == viewer) {
					t.Errorf("viewer %d, entry %d: seat %d drew, card shown: %v", viewer, seq, d.Seat, d.Card)
				}
				if viewer == 0 {
					draws[d.Seat]++
				}
			}
			if d := out.Dealt; d != nil {
				for seat, h := range d.Hands {
					if (h != nil) != (seat == viewer) {
						t.Errorf("viewer %d, entry %d: hand dealt to seat %d shown: %v", viewer, seq, seat, h != nil)
					}
				}
			}
		}
	}
	if draws[0] == 0 || draws[1] == 0 {
		t.Fatalf("both seats should have drawn: %v", draws)
	}
	if g.status != "active" {
		t.Fatalf("the game ended too soon (%s)", g.status)
	}

	// Abort through A: every stream on B ends with `end`.
	if resp := c.a.Post(g.path("/abort"), nil, bearer(g.creator)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	for viewer, s := range streams {
		e := s.next(t, evWait)
		var end evEnd
		if err := json.Unmarshal([]byte(e.Data), &end); err != nil || e.Event != "end" {
			t.Fatalf("viewer %d after abort: %+v (%v)", viewer, e, err)
		}
		if end.Status != "aborted" || end.Version != g.version+1 || len(end.Winners) != 0 {
			t.Errorf("viewer %d: end = %+v, want aborted at version %d", viewer, end, g.version+1)
		}
		s.ended(t, evWait)
	}

	// Once over, a stream shows every card and the random values, as the history does.
	resp := c.b.Get(path, bearer(g.tokens[0])...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s after abort = %d", path, resp.StatusCode)
	}
	blocks := strings.Split(strings.TrimSpace(string(resp.Body)), "\n\n")
	shown := 0
	for _, b := range blocks {
		_, data, ok := strings.Cut(b, "event: action\ndata: ")
		if !ok {
			continue
		}
		var a evAction
		var en evEntry
		var out primedOutcome
		if json.Unmarshal([]byte(data), &a) != nil || json.Unmarshal(a.Entry, &en) != nil || json.Unmarshal(en.Outcome, &out) != nil {
			t.Fatalf("bad event %q", b)
		}
		if en.Random == nil {
			t.Errorf("entry %d: no random values once the game is over", en.Seq)
		}
		if out.Drew != nil {
			if out.Drew.Card == nil {
				t.Errorf("entry %d: the drawn card is still hidden once the game is over", en.Seq)
			}
			shown++
		}
	}
	if shown != draws[0]+draws[1] || !strings.HasSuffix(blocks[len(blocks)-1], `"status":"aborted","version":`+strconv.FormatInt(g.version+1, 10)+`,"winners":[]}`) {
		t.Errorf("after abort: %d draws shown (want %d), last block %q", shown, draws[0]+draws[1], blocks[len(blocks)-1])
	}
}

// Streams beyond STREAM_LIMIT are refused with 503 streams_full and Retry-After; the open streams
// show in the metrics.
func TestEventStreamCapIs503WithRetryAfter(t *testing.T) {
	cfg := testConfig()
	cfg.StreamLimit = 2
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "prime-climb", nil, 2, 3)
	first := openEvStream(t, c.b.URL, g.path("/events"))
	openEvStream(t, c.b.URL, g.path("/events"))
	resp := c.b.Get(g.path("/events"))
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Problem(t).Code != "streams_full" {
		t.Fatalf("third stream = %d: %s", resp.StatusCode, resp.Body)
	}
	if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n <= 0 {
		t.Errorf("Retry-After = %q", resp.Header.Get("Retry-After"))
	}
	if m := c.b.Get("/metrics"); !strings.Contains(string(m.Body), "\nevent_streams_open 2\n") {
		t.Errorf("metrics do not show 2 open streams")
	}
	// Instance A has its own limit.
	openEvStream(t, c.a.URL, g.path("/events"))
	// A closed stream frees its slot.
	first.close()
	waitForStreamSlot(t, c.b.URL+g.path("/events"), http.StatusServiceUnavailable)
}

// waitForStreamSlot waits until a stream at url, refused with status while the server has not yet
// seen a stream close, opens.
func waitForStreamSlot(t *testing.T, url string, status int) {
	t.Helper()
	for deadline := time.Now().Add(evWait); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return
		}
		if resp.StatusCode != status || time.Now().After(deadline) {
			t.Fatalf("a stream after one closed = %d", resp.StatusCode)
		}
	}
}

// After the listening connection is killed, the listener reconnects and the streams catch up: an
// action made while nobody listened arrives, and so do later ones.
func TestEventStreamListenerReconnects(t *testing.T) {
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "prime-climb", nil, 2, 9)
	stream := openEvStream(t, c.b.URL, g.path("/events"))
	if _, en := stream.next(t, evWait).action(t); en.Seq != 0 {
		t.Fatalf("first entry %d", en.Seq)
	}
	ctx := context.Background()
	listeners := func() int {
		var n int
		if err := c.dbA.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
			repo.ListenerApplicationName).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(evWait); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	waitFor("B's listener", func() bool { return listeners() == 1 })
	for round := range 3 {
		var killed int
		if err := c.dbA.Pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1) k`, repo.ListenerApplicationName).Scan(&killed); err != nil {
			t.Fatal(err)
		}
		if killed != 1 {
			t.Fatalf("round %d: terminated %d listeners", round, killed)
		}
		// Right away, most likely before the listener is back: caught up after the reconnect.
		seq, _, _ := g.play()
		if _, en := stream.next(t, evWait).action(t); en.Seq != seq {
			t.Fatalf("round %d: got entry %d, want %d", round, en.Seq, seq)
		}
		waitFor("the listener to reconnect", func() bool { return listeners() == 1 })
		seq, _, _ = g.play()
		if _, en := stream.next(t, evWait).action(t); en.Seq != seq {
			t.Fatalf("round %d after reconnecting: got entry %d, want %d", round, en.Seq, seq)
		}
	}
}

// Heartbeats, resume parameters and refusals.
func TestEventStreamHeartbeatResumeAndErrors(t *testing.T) {
	cfg := testConfig()
	cfg.StreamHeartbeat = 50 * time.Millisecond
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "prime-climb", nil, 2, 4)
	for range 5 {
		g.play()
	}
	s := openEvStream(t, c.b.URL, g.path("/events?since=1"), "Last-Event-ID", "3")
	if _, en := s.next(t, evWait).action(t); en.Seq != 4 {
		t.Errorf("Last-Event-ID 3 (wins over since=1): first entry %d, want 4", en.Seq)
	}
	s.next(t, evWait)
	heartbeats := 0
	for deadline := time.After(evWait); heartbeats < 2; {
		select {
		case e := <-s.events:
			if e.Comment == "heartbeat" {
				heartbeats++
			} else if e.Comment == "" {
				t.Fatalf("unexpected event %+v", e)
			}
		case <-deadline:
			t.Fatalf("%d heartbeats", heartbeats)
		}
	}
	s2 := openEvStream(t, c.b.URL, g.path("/events?since=4"))
	if _, en := s2.next(t, evWait).action(t); en.Seq != 5 {
		t.Errorf("since=4: first entry %d", en.Seq)
	}
	for _, tc := range []struct {
		path    string
		headers []string
		status  int
	}{
		{g.path("/events"), []string{"Last-Event-ID", "seven"}, http.StatusBadRequest},
		{g.path("/events?since=-2"), nil, http.StatusBadRequest},
		{g.path("/events"), bearer("pgs_nope"), http.StatusUnauthorized},
		{g.path("/events?access_token=pgs_nope"), nil, http.StatusUnauthorized},
		{"/v1/games/00000000-0000-4000-8000-000000000000/events", nil, http.StatusNotFound},
	} {
		if resp := c.b.Get(tc.path, tc.headers...); resp.StatusCode != tc.status {
			t.Errorf("GET %s %v = %d, want %d: %s", tc.path, tc.headers, resp.StatusCode, tc.status, resp.Body)
		}
	}
}

// A client that stops reading is disconnected once a write takes longer than the stream write
// timeout, instead of being buffered for.
func TestEventStreamSlowSubscriberIsDropped(t *testing.T) {
	cfg := testConfig()
	cfg.StreamWriteTimeout = 200 * time.Millisecond
	cfg.StreamHeartbeat = 20 * time.Millisecond
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "prime-climb", map[string]any{"prime_cards": true}, 2, 21)
	for range 20 {
		g.play()
	}
	u, _ := url.Parse(c.b.URL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(1024)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", g.path("/events"), u.Host)
	open := func() string {
		for _, line := range strings.Split(string(c.b.Get("/metrics").Body), "\n") {
			if strings.HasPrefix(line, "event_streams_open ") {
				return strings.TrimPrefix(line, "event_streams_open ")
			}
		}
		return "?"
	}
	// Never read; keep the server writing (heartbeats and moves) until it gives up.
	deadline := time.Now().Add(30 * time.Second)
	for sawOpen := false; ; {
		n := open()
		if n == "1" {
			sawOpen = true
		}
		if sawOpen && n == "0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream of a client that does not read is still open (%s)", n)
		}
		if g.status == "active" {
			g.play()
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Under the real server, streams outlive READ_TIMEOUT and WRITE_TIMEOUT; on shutdown they end at
// once, so Serve returns without waiting for the grace period.
func TestEventStreamsOutliveTimeoutsAndEndOnShutdown(t *testing.T) {
	dbA := repotest.NewDB(t)
	cfg := testConfig()
	cfg.ShutdownGrace = 20 * time.Second
	cfg.ReadTimeout, cfg.WriteTimeout, cfg.StreamHeartbeat = 300*time.Millisecond, 300*time.Millisecond, 50*time.Millisecond
	srv, err := newAPI(cfg, dbA, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	s := apitest.Start(t, srv) // for creating the game with contract checks
	g := newEvGame(t, s, "primed", nil, 2, 1)
	stream := openEvStream(t, base, g.path("/events"))
	stream.next(t, evWait)
	time.Sleep(time.Second)
	g.play()
	if _, en := stream.next(t, evWait).action(t); en.Seq != 1 {
		t.Fatalf("entry %d, want 1", en.Seq)
	}
	select {
	case <-stream.closed:
		t.Fatal("the stream was closed by the server's read or write timeout")
	default:
	}
	start := time.Now()
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve is held up by an open stream")
	}
	stream.ended(t, evWait)
	t.Logf("Serve returned %s after the shutdown signal with a stream open", time.Since(start).Round(time.Millisecond))
}

// The delay from an accepted action (its POST has returned on instance A) to its delivery to a
// subscriber on instance B, over a few hundred actions. Logged, not asserted.
func TestEventStreamDeliveryLatency(t *testing.T) {
	const actions = 400
	c := newEvCluster(t, testConfig())
	var sinceReturn, sinceSent []time.Duration
	early := 0
	for game := 0; len(sinceReturn) < actions; game++ {
		g := newEvGame(t, c.a, "prime-climb", map[string]any{"prime_cards": true}, 2, uint64(100+game))
		stream := openEvStream(t, c.b.URL, g.path("/events"))
		stream.next(t, evWait)
		for g.status == "active" && len(sinceReturn) < actions {
			seq, sent, returned := g.play()
			e := stream.next(t, evWait)
			if _, en := e.action(t); en.Seq != seq {
				t.Fatalf("got entry %d, want %d", en.Seq, seq)
			}
			d := e.At.Sub(returned)
			if d < 0 {
				early++ // delivered before A's response was read
				d = 0
			}
			sinceReturn = append(sinceReturn, d)
			sinceSent = append(sinceSent, e.At.Sub(sent))
		}
		stream.close()
	}
	pct := func(ds []time.Duration, p float64) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[min(len(s)-1, int(p*float64(len(s))))]
	}
	t.Logf("%d actions, A -> B delivery after the POST returned: median %s, p99 %s, max %s (%d delivered before the response was read)",
		len(sinceReturn), pct(sinceReturn, 0.5), pct(sinceReturn, 0.99), pct(sinceReturn, 1), early)
	t.Logf("from the POST being sent: median %s, p99 %s", pct(sinceSent, 0.5), pct(sinceSent, 0.99))
}

// A stream opened on a lobby waits, then receives the start (entry 0) when the game starts on
// another instance.
func TestEventStreamFromLobbyThroughStart(t *testing.T) {
	c := newEvCluster(t, testConfig())
	resp := c.a.Post("/v1/games", map[string]any{"game": "primed", "seats": 2})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create lobby = %d: %s", resp.StatusCode, resp.Body)
	}
	var lobby created
	resp.JSON(t, &lobby)
	path := "/v1/games/" + lobby.Game.ID
	stream := openEvStream(t, c.b.URL, path+"/events?access_token="+url.QueryEscape(lobby.CreatorToken))
	var seat0 string
	for i, name := range []string{"Ada", "Ben"} {
		resp := c.a.Post(path+"/players", map[string]string{"name": name})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("join = %d: %s", resp.StatusCode, resp.Body)
		}
		if i == 0 {
			var j struct {
				Seat seatToken `json:"seat"`
			}
			resp.JSON(t, &j)
			seat0 = j.Seat.Token
		}
	}
	select {
	case e := <-stream.events:
		if e.Comment == "" {
			t.Fatalf("event before the start: %+v", e)
		}
	case <-time.After(200 * time.Millisecond):
	}
	resp = c.a.Post(path+"/start", nil, bearer(seat0)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("start = %d: %s", resp.StatusCode, resp.Body)
	}
	var started gameBody
	resp.JSON(t, &started)
	a, en := stream.next(t, evWait).action(t)
	if en.Seq != 0 || a.Version != started.Version || a.Status != "active" {
		t.Errorf("start event: seq %d version %d status %s; the game is at version %d", en.Seq, a.Version, a.Status, started.Version)
	}
}

// The teacher's classroom stream on instance B sees every game of the class played through A,
// games created after it opened included, each game's entries in order and once, in full; a game's
// end does not close it; Last-Event-ID resumes without losing anything.
func TestClassroomEventStream(t *testing.T) {
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben", "Cy", "Di")
	students, tokenOf, roomPath := room.students, room.tokenOf, room.path("")
	newGame := room.newGame

	// Students are not teachers.
	if resp := c.b.Get(roomPath+"/events", bearer(tokenOf[students[0]])...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("classroom stream with a student token = %d", resp.StatusCode)
	}
	stream := openEvStream(t, c.b.URL, roomPath+"/events?access_token="+url.QueryEscape(room.teacher))
	type key struct {
		game string
		seq  int64
	}
	seen := map[key]int{}
	last := map[string]int64{}
	ends := map[string]int{}
	var lastID string
	// drain reads events until want returns true.
	drain := func(s *evStream, dupesOK bool, want func() bool) {
		t.Helper()
		for !want() {
			e := s.next(t, evWait)
			if e.Event == "end" {
				var end evEnd
				if err := json.Unmarshal([]byte(e.Data), &end); err != nil {
					t.Fatal(err)
				}
				ends[end.GameID]++
				continue
			}
			a, en := e.action(t)
			if e.ID != a.GameID+":"+strconv.FormatInt(en.Seq, 10) {
				t.Fatalf("event id %q for game %s entry %d", e.ID, a.GameID, en.Seq)
			}
			lastID = e.ID
			k := key{a.GameID, en.Seq}
			seen[k]++
			if seen[k] > 1 && !dupesOK {
				t.Fatalf("entry %v twice", k)
			}
			prev, ok := last[a.GameID]
			if !ok {
				prev = -1
			}
			if seen[k] == 1 && en.Seq != prev+1 {
				t.Fatalf("game %s: entry %d after %d", a.GameID, en.Seq, prev)
			}
			if en.Seq > prev {
				last[a.GameID] = en.Seq
			}
			if en.Random == nil {
				t.Errorf("entry %v: the teacher sees everything, random values included", k)
			}
			var out primedOutcome
			if err := json.Unmarshal(en.Outcome, &out); err != nil {
				t.Fatal(err)
			}
			if out.Drew != nil && out.Drew.Card == nil {
				t.Errorf("entry %v: the teacher should see the drawn card", k)
			}
		}
	}
	caught := func(gs ...*evGame) func() bool {
		return func() bool {
			for _, g := range gs {
				if l, ok := last[g.id]; !ok || l < g.seq {
					return false
				}
			}
			return true
		}
	}

	g1 := newGame(students[0], students[1]) // created after the stream opened
	for range 6 {
		g1.play()
	}
	g2 := newGame(students[2], students[3])
	for range 6 {
		g1.play()
		g2.play()
	}
	drain(stream, false, caught(g1, g2))
	if resp := c.a.Post(g1.path("/abort"), nil, bearer(room.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	drain(stream, false, func() bool { return ends[g1.id] == 1 })
	g2.play()
	drain(stream, false, caught(g2)) // the stream stays open after one game ends

	// Drop the connection, play on, resume with Last-Event-ID.
	stream.close()
	for range 3 {
		g2.play()
	}
	resumed := openEvStream(t, c.b.URL, roomPath+"/events", append(bearer(room.teacher), "Last-Event-ID", lastID)...)
	drain(resumed, true, caught(g2))
	for k, n := range seen {
		if k.game != g1.id && k.game != g2.id || n == 0 {
			t.Errorf("unexpected entry %v", k)
		}
	}
	if int64(len(seen)) != g1.seq+1+g2.seq+1 {
		t.Errorf("%d distinct entries, the games have %d", len(seen), g1.seq+1+g2.seq+1)
	}
	if resp := c.b.Get(roomPath+"/events", append(bearer(room.teacher), "Last-Event-ID", "nope")...); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad Last-Event-ID = %d", resp.StatusCode)
	}
	unknown := g1.id + ":" + strconv.FormatInt(g1.seq+1, 10)
	if resp := c.b.Get(roomPath+"/events", append(bearer(room.teacher), "Last-Event-ID", unknown)...); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "event_not_found" {
		t.Errorf("Last-Event-ID of no entry = %d: %s", resp.StatusCode, resp.Body)
	}
}

// evClassroom is a classroom made through one instance, and its students.
type evClassroom struct {
	t        *testing.T
	s        *apitest.Server
	id       string
	teacher  string
	students []string          // ids, in the order they joined
	tokenOf  map[string]string // student id -> token
}

func newEvClassroom(t *testing.T, s *apitest.Server, names ...string) *evClassroom {
	t.Helper()
	resp := s.Post("/v1/classrooms", map[string]string{"name": "Class 4B"})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create classroom = %d: %s", resp.StatusCode, resp.Body)
	}
	var created struct {
		Classroom struct {
			ID       string `json:"id"`
			JoinCode string `json:"join_code"`
		} `json:"classroom"`
		TeacherToken string `json:"teacher_token"`
	}
	resp.JSON(t, &created)
	room := &evClassroom{t: t, s: s, id: created.Classroom.ID, teacher: created.TeacherToken, tokenOf: map[string]string{}}
	for _, name := range names {
		resp := s.Post("/v1/classrooms/join", map[string]string{"join_code": created.Classroom.JoinCode, "name": name})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("join classroom = %d: %s", resp.StatusCode, resp.Body)
		}
		var j struct {
			Student struct {
				ID string `json:"id"`
			} `json:"student"`
			Token string `json:"token"`
		}
		resp.JSON(t, &j)
		room.tokenOf[j.Student.ID] = j.Token
		room.students = append(room.students, j.Student.ID)
	}
	return room
}

func (r *evClassroom) path(suffix string) string { return "/v1/classrooms/" + r.id + suffix }

// newGame starts a game of Primed for the students with ids.
func (r *evClassroom) newGame(ids ...string) *evGame {
	t := r.t
	t.Helper()
	resp := r.s.Post(r.path("/games"), map[string]any{"game": "primed", "group_size": len(ids), "student_ids": ids}, bearer(r.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("classroom games = %d: %s", resp.StatusCode, resp.Body)
	}
	var out struct {
		Games []struct {
			gameBody
			Seats []struct {
				Seat      int    `json:"seat"`
				StudentID string `json:"student_id"`
			} `json:"seats"`
		} `json:"games"`
	}
	resp.JSON(t, &out)
	if len(out.Games) != 1 {
		t.Fatalf("%d games", len(out.Games))
	}
	body := out.Games[0]
	g := &evGame{t: t, s: r.s, id: body.ID, creator: r.teacher, kind: "primed", rng: rand.New(rand.NewPCG(uint64(len(body.ID)), 3)),
		posted: map[int64]json.RawMessage{}, versions: map[int64]int64{0: body.Version}}
	for _, st := range body.Seats {
		g.tokens = append(g.tokens, r.tokenOf[st.StudentID])
	}
	g.update(body.gameBody)
	return g
}
