package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"primegames.dev/client"
)

// A game's event stream as its players and watchers see it: every entry once and in order across
// instances, each entry redacted for its subscriber, a lobby's stream waiting for the start, and
// the delay from an accepted action to its delivery (logged, not asserted).

// A subscriber on instance B sees every action made through instance A, in order and exactly once,
// also across a forced disconnect resumed with Last-Event-ID, and then the end of the game.
func TestEventStreamAcrossInstancesInOrderExactlyOnce(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "prime-climb", map[string]any{"prime_cards": true}, 3, 11)
	path := g.path("/events")
	stream := openEvStream(t, c.b.URL, path, bearer(g.tokens[1])...)

	var got []int64
	check := func(e evEvent) {
		t.Helper()
		a, en := e.action(t)
		if a.GameId.String() != g.id {
			t.Errorf("event of game %s on the stream of %s", a.GameId.String(), g.id)
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
	var end client.GameEndEvent
	if err := json.Unmarshal([]byte(e.Data), &end); err != nil {
		t.Fatal(err)
	}
	if end.GameId.String() != g.id || end.Status != "finished" || end.Version != g.version || len(end.Winners) != 1 {
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
	t.Parallel()
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
			var out client.PrimedOutcome
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
		var end client.GameEndEvent
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
		var a client.GameEvent
		var out client.PrimedOutcome
		if json.Unmarshal([]byte(data), &a) != nil || json.Unmarshal(a.Entry.Outcome, &out) != nil {
			t.Fatalf("bad event %q", b)
		}
		en := a.Entry
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

// A stream opened on a lobby waits, then receives the start (entry 0) when the game starts on
// another instance.
func TestEventStreamFromLobbyThroughStart(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	resp := c.a.Post("/v1/games", map[string]any{"game": "primed", "public": true, "seats": 2})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create lobby = %d: %s", resp.StatusCode, resp.Body)
	}
	var lobby client.CreatedGame
	resp.JSON(t, &lobby)
	path := "/v1/games/" + lobby.Game.Id.String()
	stream := openEvStream(t, c.b.URL, path+"/events?access_token="+url.QueryEscape(lobby.CreatorToken))
	var seat0 string
	for i, name := range []string{"Ada", "Ben"} {
		resp := c.a.Post(path+"/players", map[string]string{"name": name})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("join = %d: %s", resp.StatusCode, resp.Body)
		}
		if i == 0 {
			var j client.JoinedGame
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
	var started client.Game
	resp.JSON(t, &started)
	a, en := stream.next(t, evWait).action(t)
	if en.Seq != 0 || a.Version != started.Version || a.Status != "active" {
		t.Errorf("start event: seq %d version %d status %s; the game is at version %d", en.Seq, a.Version, a.Status, started.Version)
	}
}

// BenchmarkEventStreamDelivery measures the delay from an accepted action (its POST has returned on
// instance A) to its delivery to a subscriber on instance B, one action per iteration; every action
// is still checked to arrive, in order. It reports the median and p99 in milliseconds:
//
//	go test ./api -run '^$' -bench EventStreamDelivery -benchtime 150x
func BenchmarkEventStreamDelivery(b *testing.B) {
	c := newEvCluster(b, testConfig())
	var sinceReturn, sinceSent []time.Duration
	early := 0
	b.ResetTimer()
	for game := 0; len(sinceReturn) < b.N; game++ {
		g := newEvGame(b, c.a, "prime-climb", map[string]any{"prime_cards": true}, 2, uint64(100+game))
		stream := openEvStream(b, c.b.URL, g.path("/events"))
		stream.next(b, evWait)
		for g.status == "active" && len(sinceReturn) < b.N {
			seq, sent, returned := g.play()
			e := stream.next(b, evWait)
			if _, en := e.action(b); en.Seq != seq {
				b.Fatalf("got entry %d, want %d", en.Seq, seq)
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
	b.StopTimer()
	pct := func(ds []time.Duration, p float64) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		return float64(s[min(len(s)-1, int(p*float64(len(s))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(sinceReturn, 0.5), "p50-ms")
	b.ReportMetric(pct(sinceReturn, 0.99), "p99-ms")
	b.ReportMetric(pct(sinceSent, 0.5), "p50-from-sent-ms")
	b.ReportMetric(float64(early), "early")
}
