package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// The streams of one game on an instance read each new entry once between them, and each sees it
// redacted for its own view: a seat never sees what another seat drew, a spectator sees no hand,
// whichever stream read the entry and whichever framing it asked for. The players' own streams
// (/v1/me/events) share the reads too, and tell each seat its turns.
func TestStreamsOfAGameShareReadsButNotViews(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "primed", nil, 2, 5)
	path := g.path("/events")
	viewers := map[int][]*evStream{} // by seat; -1: a spectator
	for _, seat := range []int{0, 1, -1} {
		var auth []string
		if seat >= 0 {
			auth = bearer(g.tokens[seat])
		}
		viewers[seat] = []*evStream{
			openEvStream(t, c.b.URL, path, auth...),
			openNDJSONStream(t, c.b.URL, path, auth...),
			openEvStream(t, c.b.URL, path, auth...),
		}
	}
	// Each stream sends the history so far: the game's start.
	for _, streams := range viewers {
		for _, s := range streams {
			if _, en := s.next(t, evWait).action(t); en.Seq != 0 {
				t.Fatalf("first entry %d, want 0", en.Seq)
			}
		}
	}
	players := map[int][]*evStream{} // each seat's own streams, from now on
	for seat := range 2 {
		players[seat] = []*evStream{
			openEvStream(t, c.b.URL, "/v1/me/events", bearer(g.tokens[seat])...),
			openNDJSONStream(t, c.b.URL, "/v1/me/events", bearer(g.tokens[seat])...),
		}
	}
	scrape := acquiresOf(t, c.b) // a scrape reads the database itself: its cost is set aside
	start := acquiresOf(t, c.b)
	scrape = start - scrape
	// At least 12 moves, and on until somebody has drawn a card (the service deals at random),
	// within the game.
	const atLeast, atMost = 12, 120
	moves, draws := 0, 0
	for ; moves < atLeast || (draws == 0 && moves < atMost && g.status == "active"); moves++ {
		before := g.toAct
		seq, _, _ := g.play()
		if g.toAct != before { // the turn passed: the seat to act is told, on each of its streams
			for i, s := range players[g.toAct] {
				e := s.next(t, evWait)
				var ev client.PlayerEvent
				if err := json.Unmarshal([]byte(e.Data), &ev); err != nil || e.Event != "your_turn" || ev.Seat != g.toAct || ev.Seq != seq {
					t.Fatalf("seat %d's stream %d after entry %d: %s %s (%v), want your_turn", g.toAct, i, seq, e.Event, e.Data, err)
				}
			}
		}
		// Every stream has the entry before the next move: without sharing, each would read it.
		for seat, streams := range viewers {
			var first string
			for i, s := range streams {
				e := s.next(t, evWait)
				ev, en := e.action(t)
				if en.Seq != seq {
					t.Fatalf("seat %d, stream %d: entry %d, want %d", seat, i, en.Seq, seq)
				}
				drew := checkRedacted(t, seat, en)
				if seat == 0 && drew {
					draws++
				}
				data, _ := json.Marshal(ev)
				if i == 0 {
					first = string(data)
				} else if string(data) != first {
					t.Errorf("seat %d: streams of one view differ on entry %d:\n%s\n%s", seat, seq, first, data)
				}
			}
		}
	}
	if draws == 0 {
		t.Fatal("nobody drew a card: the test saw nothing hidden")
	}
	reads := acquiresOf(t, c.b) - start - scrape
	streams := 3*len(viewers) + 2*len(players)
	t.Logf("%d moves, %d streams: %d database connections acquired by instance B", moves, streams, reads)
	// A player's stream also reads the history up to its position once, for its first news, and
	// may list the player's games once more after opening.
	if reads > 2*moves+2*len(players)*2 {
		t.Errorf("%d streams read %d times for %d moves: the read of each new entry is not shared", streams, reads, moves)
	}
}

// checkRedacted fails unless en shows seat (-1: a spectator) only what it may see of a Primed
// entry; it reports whether a card was drawn in it.
func checkRedacted(t *testing.T, seat int, en client.HistoryEntry) (drew bool) {
	t.Helper()
	var out client.PrimedOutcome
	if err := json.Unmarshal(en.Outcome, &out); err != nil {
		t.Fatal(err)
	}
	if en.Random != nil {
		t.Errorf("seat %d, entry %d: random values shown during the game", seat, en.Seq)
	}
	if d := out.Drew; d != nil {
		if (d.Card != nil) != (d.Seat == seat) {
			t.Errorf("seat %d, entry %d: seat %d drew, card shown: %v", seat, en.Seq, d.Seat, d.Card != nil)
		}
		drew = true
	}
	if d := out.Dealt; d != nil {
		for s, h := range d.Hands {
			if (h != nil) != (s == seat) {
				t.Errorf("seat %d, entry %d: hand dealt to seat %d shown: %v", seat, en.Seq, s, h != nil)
			}
		}
	}
	return drew
}

// acquiresOf is the database connections the instance has acquired so far, from its metrics.
func acquiresOf(t *testing.T, s *apitest.Server) int {
	t.Helper()
	for _, line := range strings.Split(string(s.Get("/metrics").Body), "\n") {
		if v, ok := strings.CutPrefix(line, "db_pool_acquires_total "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
	}
	t.Fatal("no db_pool_acquires_total in the metrics")
	return 0
}

// A client that drops its connection gives back its stream's slots at once, heard without a read
// of the connection and long before a heartbeat would have failed: with one stream allowed per
// client, the client's next stream opens.
func TestACutStreamIsReleasedAtOnce(t *testing.T) {
	t.Parallel()
	s, ends := streamEndsServer(t)
	g := newEvGame(t, s, "prime-climb", nil, 2, 3)
	path := g.path("/events")
	for round := range 3 {
		stream := openEvStream(t, s.URL, path, bearer(g.tokens[0])...)
		stream.next(t, evWait)
		if n := streamsOpen(t, s); n != "1" {
			t.Fatalf("round %d: event_streams_open = %s with one stream open", round, n)
		}
		if resp := s.Get(path, bearer(g.tokens[0])...); resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("round %d: a second stream of the client = %d, want 429", round, resp.StatusCode)
		}
		stream.close()
		awaitStreamsReleased(t, s, ends, fmt.Sprintf("round %d: the stream's end after its client left", round))
	}
}

// A stream that ends before it could be handed to the hub (its game is over: it sends the history
// and the end, and stops) is logged as ended too, once its slot is given back, as a detached one
// is: a client that leaves while its history is still being sent is such a stream.
func TestAStreamThatEndsAtOnceIsLoggedAsEnded(t *testing.T) {
	t.Parallel()
	s, ends := streamEndsServer(t)
	g := newEvGame(t, s, "prime-climb", nil, 2, 3)
	if resp := s.Post(g.path("/abort"), nil, bearer(g.creator)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	stream := openEvStream(t, s.URL, g.path("/events"), bearer(g.tokens[0])...)
	defer stream.close()
	for e := stream.next(t, evWait); e.Event != "end"; e = stream.next(t, evWait) {
	}
	awaitStreamsReleased(t, s, ends, "the \"stream ended\" of a stream that ended with its game's end")
}

// streamEndsServer is a server allowing one stream per client, writing nothing to a stream after
// its history, whose log tells each stream's end (streamEnds).
func streamEndsServer(t *testing.T) (*apitest.Server, streamEnds) {
	t.Helper()
	cfg := testConfig()
	cfg.StreamHeartbeat = time.Hour
	cfg.StreamsPerClient = 1
	ends := make(streamEnds, 3)
	srv, err := newAPI(cfg, repotest.NewDB(t), slog.New(ends))
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	t.Cleanup(srv.Close)
	return s, ends
}

// awaitStreamsReleased waits for ended, a stream's end, then checks that the server holds no stream
// any more; what names the wait.
func awaitStreamsReleased(t *testing.T, s *apitest.Server, ended <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(evWait):
		t.Fatalf("%s: not within %s", what, evWait)
	}
	if n := streamsOpen(t, s); n != "0" {
		t.Fatalf("%s: event_streams_open = %s after it, want 0", what, n)
	}
}

// streamEnds is a log handler that tells each "stream ended" record, which the server writes once
// a stream has given back its slots, and drops every other record.
type streamEnds chan struct{}

func (e streamEnds) Enabled(context.Context, slog.Level) bool { return true }
func (e streamEnds) WithAttrs([]slog.Attr) slog.Handler       { return e }
func (e streamEnds) WithGroup(string) slog.Handler            { return e }
func (e streamEnds) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "stream ended" {
		e <- struct{}{}
	}
	return nil
}

// A HEAD of a live stream, server-sent events or NDJSON, answers the stream's headers and ends
// there: nothing follows on the connection but the answer to the next request (a stream that went
// on, or one taken from net/http to write its events, would leave bytes the next answer's reader
// cannot parse, or no next answer).
func TestHeadOfAStreamEndsWithItsHeaders(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.StreamHeartbeat = 20 * time.Millisecond
	srv, err := newAPI(cfg, repotest.NewDB(t), quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	t.Cleanup(srv.Close)
	g := newEvGame(t, s, "prime-climb", nil, 2, 3)
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(evWait)); err != nil {
		t.Fatal(err)
	}
	answers := bufio.NewReader(conn)
	for _, mediaType := range []string{"text/event-stream", "application/x-ndjson"} {
		req, _ := http.NewRequest(http.MethodHead, s.URL+g.path("/events"), nil)
		req.Header.Set("Accept", mediaType)
		if err := req.Write(conn); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(answers, req)
		if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaType {
			t.Fatalf("HEAD as %s: %v, %v", mediaType, resp, err)
		}
		resp.Body.Close()
		next, _ := http.NewRequest(http.MethodGet, s.URL+"/healthz", nil)
		if err := next.Write(conn); err != nil {
			t.Fatal(err)
		}
		if resp, err = http.ReadResponse(answers, next); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /healthz after a HEAD of the stream as %s on the same connection: %v, %v", mediaType, resp, err)
		}
		resp.Body.Close()
	}
}
