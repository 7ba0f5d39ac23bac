package api_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// Every event stream read as NDJSON (Accept: application/x-ndjson) by a line reader: one JSON
// object per line, the same events with the same ids as the server-sent events, resumable with
// last_event_id, heartbeats as {"event":"heartbeat"} lines.

// openNDJSONStream opens GET base+path as NDJSON and reads it line by line into evEvents: a
// heartbeat line becomes the comment "heartbeat".
func openNDJSONStream(t testing.TB, base, path string, headers ...string) *evStream {
	t.Helper()
	// Go's client asks for gzip; a live stream is never compressed (each event goes out as it is
	// sent, and a stream holds no deflate state).
	s := startStream(t, base, path, "application/x-ndjson", append([]string{"Accept", "application/x-ndjson"}, headers...)...)
	if s.resp.Uncompressed || s.resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("GET %s as NDJSON came compressed", path)
	}
	go s.readLines(t)
	return s
}

// readLines reads an NDJSON stream into evEvents, failing the test on a line of another form.
func (s *evStream) readLines(t testing.TB) {
	defer close(s.closed)
	lines := bufio.NewScanner(s.resp.Body)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		var msg struct {
			Event string          `json:"event"`
			ID    string          `json:"id"`
			Data  json.RawMessage `json:"data"`
		}
		dec := json.NewDecoder(strings.NewReader(lines.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&msg); err != nil || dec.More() || msg.Event == "" {
			t.Errorf("NDJSON line %q: %v", lines.Text(), err)
			return
		}
		if msg.Event == "heartbeat" {
			if msg.ID != "" || msg.Data != nil {
				t.Errorf("heartbeat line %q carries more than its event", lines.Text())
			}
			s.events <- evEvent{Comment: "heartbeat", At: time.Now()}
			continue
		}
		s.events <- evEvent{ID: msg.ID, Event: msg.Event, Data: string(msg.Data), At: time.Now()}
	}
}

// sameEvents reads n events from each stream and fails unless they are the same, id, name and
// data; it returns them. An entry's random values are left out of the comparison: a stream that
// delivers an entry once the game is over shows it in full, with them, and one that delivered it
// during the game did not, so they depend on how far behind each stream was.
func sameEvents(t *testing.T, sse, nd *evStream, n int) []evEvent {
	t.Helper()
	var got []evEvent
	for i := range n {
		a, b := sse.next(t, evWait), nd.next(t, evWait)
		if a.ID != b.ID || a.Event != b.Event || !jsonEqual(withoutRandom(t, a.Data), withoutRandom(t, b.Data)) {
			t.Fatalf("event %d: server-sent %q %q %s, NDJSON %q %q %s", i, a.ID, a.Event, a.Data, b.ID, b.Event, b.Data)
		}
		got = append(got, b)
	}
	return got
}

// heartbeatSeen waits for a heartbeat line on s.
func heartbeatSeen(t *testing.T, s *evStream) {
	t.Helper()
	deadline := time.After(evWait)
	for {
		select {
		case e := <-s.events:
			if e.Comment == "heartbeat" {
				return
			}
		case <-deadline:
			t.Fatal("no heartbeat line")
		}
	}
}

// A game's stream as NDJSON carries what its server-sent events carry, end included, then closes;
// last_event_id (and Last-Event-ID) resume it after any event; heartbeats are lines.
func TestNDJSONGameStream(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.StreamHeartbeat = 20 * time.Millisecond
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "primed", nil, 2, 5)
	path := g.path("/events")
	sse := openEvStream(t, c.b.URL, path, bearer(g.tokens[0])...)
	nd := openNDJSONStream(t, c.b.URL, path, bearer(g.tokens[0])...)
	for range 6 {
		g.play()
	}
	events := sameEvents(t, sse, nd, 7)
	heartbeatSeen(t, nd) // nothing else is on its way
	if events[3].ID != "3" || events[3].Event != "action" {
		t.Fatalf("4th event %+v, want action 3", events[3])
	}

	// Resumed after entry 3, by query parameter and by header: entries 4 on, nothing repeated.
	byQuery := openNDJSONStream(t, c.a.URL, path+"?last_event_id=3&access_token="+url.QueryEscape(g.tokens[0]))
	byHeader := openNDJSONStream(t, c.a.URL, path, append(bearer(g.tokens[0]), "Last-Event-ID", "3")...)
	for _, resumed := range []*evStream{byQuery, byHeader} {
		for _, want := range events[4:] {
			if e := resumed.next(t, evWait); e.ID != want.ID || !jsonEqual([]byte(e.Data), []byte(want.Data)) {
				t.Fatalf("resumed after 3: %q %s, want %q", e.ID, e.Data, want.ID)
			}
		}
	}

	// Ended by its creator: the same end line, then the stream closes. (Aborting ends the game at
	// once; playing it out over HTTP would test nothing more here.)
	if resp := g.s.Post(g.path("/abort"), nil, bearer(g.creator)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	if end := sameEvents(t, sse, nd, 1)[0]; end.Event != "end" || end.ID != "" {
		t.Fatalf("after the abort %+v, want end without id", end)
	}
	nd.ended(t, evWait)
}

// A player's stream as NDJSON carries the same events and ids as its server-sent form, and an id
// read from a line resumes it.
func TestNDJSONPlayerStream(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	ada, ben := room.students[0], room.students[1]
	token := room.tokenOf[ada]
	sse := openEvStream(t, c.b.URL, "/v1/me/events", bearer(token)...)
	nd := openNDJSONStream(t, c.b.URL, "/v1/me/events", bearer(token)...)
	events := newPlayerEvents(t, token)
	g := room.newGame(ada, ben)
	events.sit(g)
	playOn(g, 6, events)
	n := len(events.want)
	if n < 3 {
		t.Fatalf("only %d events: the test checks little", n)
	}
	events.read(nd)
	first := newPlayerEvents(t, token)
	first.want, first.seatOf = events.want, events.seatOf
	first.read(sse)
	for i := range first.log { // the ids of two streams differ in their floor (the time each opened)
		if first.log[i].key != events.log[i].key {
			t.Fatalf("event %d: server-sent %v, NDJSON %v", i, first.log[i].key, events.log[i].key)
		}
	}

	// Resumed from the first event's id, the rest comes again, each once.
	resumed := openNDJSONStream(t, c.a.URL, "/v1/me/events?last_event_id="+url.QueryEscape(events.log[0].id), bearer(token)...)
	again := newPlayerEvents(t, token)
	again.want, again.seatOf = events.want[1:], events.seatOf
	again.read(resumed)
	quiet(t, resumed, 200*time.Millisecond)
}

// A classroom's stream as NDJSON carries the same events and ids as its server-sent form.
func TestNDJSONClassroomStream(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	path := room.path("/events")
	sse := openEvStream(t, c.b.URL, path, bearer(room.teacher)...)
	nd := openNDJSONStream(t, c.b.URL, path, bearer(room.teacher)...)
	g := room.newGame(room.students[0], room.students[1])
	for range 3 {
		g.play()
	}
	events := sameEvents(t, sse, nd, 4)
	if want := g.id + ":3"; events[3].ID != want {
		t.Fatalf("4th event id %q, want %q", events[3].ID, want)
	}
}

// withoutRandom is an event's data without its entry's random values.
func withoutRandom(t *testing.T, data string) []byte {
	t.Helper()
	var event map[string]any
	if err := json.Unmarshal([]byte(data), &event); err != nil {
		t.Fatalf("event data %s: %v", data, err)
	}
	if entry, ok := event["entry"].(map[string]any); ok {
		delete(entry, "random")
	}
	out, err := json.Marshal(event)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
