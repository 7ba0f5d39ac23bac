package api_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/play/playclock"
	"primegames/repo/repotest"
)

// A stream follows its token's authority: once the token is rotated or reissued, its student
// removed or erased, its seat left or its observer token revoked or expired, the stream sends not
// one more event but a last `revoked` one, which says why and nothing of any game, and ends; its
// token then opens no stream. Each test makes the game go on after the revocation, which a stream
// that kept its authority would carry.

// expectRevoked fails unless the next event of s is `revoked` for reason, carrying only that, and
// the stream then ends with nothing more.
func expectRevoked(t *testing.T, s *evStream, reason client.RevokedEventReason) {
	t.Helper()
	e := s.next(t, evWait)
	if e.Event != "revoked" {
		t.Fatalf("event %q (%s) after the revocation, want revoked", e.Event, e.Data)
	}
	if e.ID != "" {
		t.Errorf("the revoked event has id %q: it is no resume point", e.ID)
	}
	var body client.RevokedEvent
	dec := json.NewDecoder(strings.NewReader(e.Data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil || body.Reason != reason {
		t.Errorf("revoked %s (%v), want reason %s and nothing else", e.Data, err, reason)
	}
	s.ended(t, evWait)
}

// refusedStream fails unless GET path with token answers status before any stream starts.
func refusedStream(t *testing.T, s *apitest.Server, path, token string, status int) {
	t.Helper()
	if resp := s.Get(path, bearer(token)...); resp.StatusCode != status {
		t.Errorf("GET %s with the revoked token = %d, want %d: %s", path, resp.StatusCode, status, resp.Body)
	}
}

// playUntilNotToAct plays the game until seat is not the one to act, so that the other seat can
// still move once seat's token stops working.
func playUntilNotToAct(g *evGame, seat int) {
	for g.toAct == seat {
		g.play()
	}
}

// A teacher token rotated ends the classroom stream opened with it.
func TestRotatedTeacherTokenEndsItsClassroomStream(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	stream := openEvStream(t, c.a.URL, room.path("/events"), bearer(room.teacher)...)
	g := room.newGame(room.students...)
	g.play()
	followEvents(stream).upTo(t, g)

	resp := c.a.Post(room.path("/teacher-token"), nil, withKey(room.teacher, strongKey)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("rotate = %d: %s", resp.StatusCode, resp.Body)
	}
	g.play()
	g.play()
	expectRevoked(t, stream, client.RevokedEventReasonTokenRotated)
	refusedStream(t, c.a, room.path("/events"), room.teacher, http.StatusUnauthorized)
}

// A student token reissued ends the student's streams: their /v1/me/events and their game's.
func TestReissuedStudentTokenEndsItsStreams(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	g := room.newGame(room.students...)
	ada := g.tokens[0]
	playUntilNotToAct(g, 0)
	mine := openEvStream(t, c.a.URL, "/v1/me/events", bearer(ada)...)
	game := openEvStream(t, c.a.URL, g.path("/events"), bearer(ada)...)
	followEvents(game).upTo(t, g)

	studentID := room.students[0]
	resp := c.a.Post(room.path("/students/"+studentID+"/token"), nil, bearer(room.teacher)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("reissue = %d: %s", resp.StatusCode, resp.Body)
	}
	var issued client.StudentToken
	resp.JSON(t, &issued)
	g.tokens[0] = issued.Token
	g.play() // Ben's move: Ada's turn next
	g.play()
	expectRevoked(t, mine, client.RevokedEventReasonTokenRotated)
	expectRevoked(t, game, client.RevokedEventReasonTokenRotated)
	refusedStream(t, c.a, "/v1/me/events", ada, http.StatusUnauthorized)
}

// A student removed from the classroom: their streams end.
func TestRemovedStudentsStreamsEnd(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	g := room.newGame(room.students...)
	ada := g.tokens[0]
	playUntilNotToAct(g, 0)
	mine := openEvStream(t, c.a.URL, "/v1/me/events", bearer(ada)...)
	game := openEvStream(t, c.a.URL, g.path("/events"), bearer(ada)...)
	followEvents(game).upTo(t, g)

	removeStudent(t, c.a, room, room.students[0])
	g.play() // Ben's move: Ada's turn next, which her stream would announce
	expectRevoked(t, mine, client.RevokedEventReasonStudentRemoved)
	expectRevoked(t, game, client.RevokedEventReasonStudentRemoved)
	refusedStream(t, c.a, "/v1/me/events", ada, http.StatusUnauthorized)
}

func removeStudent(t *testing.T, s *apitest.Server, room *evClassroom, studentID string) {
	t.Helper()
	if resp := s.Do(s.Request("DELETE", room.path("/students/"+studentID), nil, bearer(room.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("remove = %d: %s", resp.StatusCode, resp.Body)
	}
}

// A student removed and erased at once: their game stream ends before any of it (the erasure
// renames their seat in the game) or of what follows reaches it.
func TestErasedStudentsStreamEnds(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	g := room.newGame(room.students...)
	ada := g.tokens[0]
	playUntilNotToAct(g, 0)
	game := openEvStream(t, c.a.URL, g.path("/events"), bearer(ada)...)
	followEvents(game).upTo(t, g)

	removeStudent(t, c.a, room, room.students[0])
	if resp := c.a.Post(room.path("/students/"+room.students[0]+"/erase"), nil, bearer(room.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("erase = %d: %s", resp.StatusCode, resp.Body)
	}
	g.play()
	expectRevoked(t, game, client.RevokedEventReasonStudentRemoved)
	refusedStream(t, c.a, g.path("/events"), ada, http.StatusNotFound)
}

// An observer token revoked ends its game stream, with no ERROR logged and the stream's end
// logged as any other's.
func TestRevokedObserverEndsItsGameStream(t *testing.T) {
	t.Parallel()
	logs := &authorityLogs{ended: make(chan struct{}, 10)}
	srv, err := newAPI(testConfig(), repotest.NewDB(t), slog.New(logs))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	s := apitest.Start(t, srv)
	g := newEvGame(t, s, "primed", nil, 2, 31)
	o := mintObserver(t, s, g.path("/observers"), g.tokens[0])
	stream := openEvStream(t, s.URL, g.path("/events?access_token="+o.Token))
	g.play()
	followEvents(stream).upTo(t, g)

	if resp := s.Do(s.Request("DELETE", g.path("/observers/"+o.Id.String()), nil, bearer(g.tokens[1])...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
	}
	g.play()
	expectRevoked(t, stream, client.RevokedEventReasonObserverRevoked)
	refusedStream(t, s, g.path("/events"), o.Token, http.StatusUnauthorized)
	logs.awaitEnded(t)
	if errs := logs.errors(); len(errs) > 0 {
		t.Errorf("ERROR lines: %v", errs)
	}
}

// A classroom's observer token revoked ends its classroom stream.
func TestRevokedClassroomObserverEndsItsStream(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	o := mintObserver(t, c.a, room.path("/observers"), room.teacher)
	stream := openEvStream(t, c.a.URL, room.path("/events?access_token="+o.Token))
	g := room.newGame(room.students...)
	g.play()
	followEvents(stream).upTo(t, g)

	if resp := c.a.Do(c.a.Request("DELETE", room.path("/observers/"+o.Id.String()), nil, bearer(room.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
	}
	g.play()
	expectRevoked(t, stream, client.RevokedEventReasonObserverRevoked)
}

// An observer token that expires, by the service's clock, ends its stream then.
func TestExpiredObserverEndsItsStream(t *testing.T) {
	t.Parallel()
	clock := playclock.New(time.Now())
	c := newEvClusterOn(t, testConfig(), clock)
	g := newEvGame(t, c.a, "primed", nil, 2, 33)
	o := mintObserver(t, c.a, g.path("/observers?expires_in=60"), g.tokens[0])
	stream := openEvStream(t, c.b.URL, g.path("/events?access_token="+o.Token))
	g.play()
	followEvents(stream).upTo(t, g)

	clock.Advance(61 * time.Second)
	g.play()
	expectRevoked(t, stream, client.RevokedEventReasonObserverExpired)
}

// A seat left in a lobby: its token's game stream ends, and what the seat's next holder sees never
// reaches it.
func TestLeftSeatsGameStreamEnds(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	created := createGame(t, c.a, map[string]any{"game": "primed", "public": true, "seats": 2})
	id := created.Game.Id.String()
	ada := join(t, c.a, id, "Ada")
	ben := join(t, c.a, id, "Ben")
	path := "/v1/games/" + id
	stream := openEvStream(t, c.a.URL, path+"/events", bearer(ada.Seat.Token)...)
	watching := openEvStream(t, c.a.URL, path+"/events", bearer(ben.Seat.Token)...)

	if resp := c.a.Post(path+"/leave", nil, bearer(ada.Seat.Token)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("leave = %d: %s", resp.StatusCode, resp.Body)
	}
	join(t, c.a, id, "Cy") // takes seat 1; Ben holds seat 0, Ada's
	if resp := c.a.Post(path+"/start", nil, bearer(created.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("start = %d: %s", resp.StatusCode, resp.Body)
	}
	if e := watching.next(t, evWait); e.Event != "action" {
		t.Fatalf("Ben's stream: %q, want the start", e.Event)
	}
	expectRevoked(t, stream, client.RevokedEventReasonSeatLeft)
}

// A seat token whose only seat was left: its /v1/me/events ends too.
func TestLeftSeatsPlayerStreamEnds(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	created := createGame(t, c.a, map[string]any{"game": "primed", "public": true, "seats": 2})
	id := created.Game.Id.String()
	ada := join(t, c.a, id, "Ada")
	mine := openEvStream(t, c.a.URL, "/v1/me/events", bearer(ada.Seat.Token)...)
	if resp := c.a.Post("/v1/games/"+id+"/leave", nil, bearer(ada.Seat.Token)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("leave = %d: %s", resp.StatusCode, resp.Body)
	}
	expectRevoked(t, mine, client.RevokedEventReasonSeatLeft)
	refusedStream(t, c.a, "/v1/me/events", ada.Seat.Token, http.StatusUnauthorized)
}

// A seat handed to the computer when its player resigns a game of three: the resigned token's stream
// ends, while the game goes on without it.
func TestResignedSeatsGameStreamEnds(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "primed", nil, 3, 35)
	seat := (g.toAct + 1) % 3 // not the seat to act: the game goes on at once
	stream := openEvStream(t, c.a.URL, g.path("/events"), bearer(g.tokens[seat])...)
	followEvents(stream).upTo(t, g)

	postResign(t, c.a, g.id, g.tokens[seat])
	expectRevoked(t, stream, client.RevokedEventReasonSeatLeft)
	refusedStream(t, c.a, g.path("/events"), g.tokens[seat], http.StatusUnauthorized)
}

// A revocation made through one instance ends the stream held by another: the teacher token
// rotated through A ends the classroom stream B holds, and a student removed through A ends the
// student's stream on B.
func TestRevocationOnOneInstanceEndsTheStreamOnAnother(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	g := room.newGame(room.students...)
	playUntilNotToAct(g, 0)
	taught := openEvStream(t, c.b.URL, room.path("/events"), bearer(room.teacher)...)
	game := openNDJSONStream(t, c.b.URL, g.path("/events"), bearer(g.tokens[0])...)
	followEvents(game).upTo(t, g)

	removeStudent(t, c.a, room, room.students[0])
	g.play()
	expectRevoked(t, game, client.RevokedEventReasonStudentRemoved)
	if e := taught.next(t, evWait); e.Event != "action" { // the teacher's stream goes on
		t.Fatalf("the teacher's stream: %q, want the move", e.Event)
	}
	if resp := c.a.Post(room.path("/teacher-token"), nil, withKey(room.teacher, strongKey)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("rotate = %d: %s", resp.StatusCode, resp.Body)
	}
	expectRevoked(t, taught, client.RevokedEventReasonTokenRotated)
}

// authorityLogs is a log handler that keeps the ERROR records and tells "stream ended" ones.
type authorityLogs struct {
	mu    sync.Mutex
	errs  []string
	ended chan struct{}
}

func (l *authorityLogs) Enabled(context.Context, slog.Level) bool { return true }

func (l *authorityLogs) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Level >= slog.LevelError {
		l.errs = append(l.errs, r.Message)
	}
	if r.Message == "stream ended" {
		select {
		case l.ended <- struct{}{}:
		default:
		}
	}
	return nil
}

func (l *authorityLogs) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *authorityLogs) WithGroup(string) slog.Handler      { return l }

func (l *authorityLogs) errors() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.errs...)
}

// awaitEnded waits for the revoked stream's "stream ended" line.
func (l *authorityLogs) awaitEnded(t *testing.T) {
	t.Helper()
	select {
	case <-l.ended:
	case <-time.After(evWait):
		t.Fatal("no \"stream ended\" line for the revoked stream")
	}
}

// A revocation made while an instance's listener was down, its notice lost, ends the stream all
// the same once the listener is back: every stream then asks again whose it is before it sends
// anything more (the heartbeat, the other backstop, is an hour away here).
func TestRevocationMissedByTheListenerEndsTheStreamOnReconnect(t *testing.T) {
	t.Parallel()
	cfgB := testConfig()
	cfgB.StreamHeartbeat = time.Hour
	c := startEvCluster(t, cfgB, true, nil)
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	g := room.newGame(room.students...)
	stream := openEvStream(t, c.b.URL, room.path("/events?since="+url.QueryEscape(time.Now().Add(-time.Minute).UTC().Format(time.RFC3339))), bearer(room.teacher)...)
	followEvents(stream).upTo(t, g)

	c.proxyB.Cut() // B's listener, among its connections, is cut: it hears nothing until Restore
	if resp := c.a.Post(room.path("/teacher-token"), nil, withKey(room.teacher, strongKey)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("rotate = %d: %s", resp.StatusCode, resp.Body)
	}
	g.play()
	c.proxyB.Restore()
	g.play()
	expectRevoked(t, stream, client.RevokedEventReasonTokenRevoked)
}

// So does it for a stream with nothing more to send, which no read of the history would stop: the
// instance checks, in one batch, every token its streams hold once its listener is back.
func TestRevocationMissedByTheListenerEndsAnIdleStream(t *testing.T) {
	t.Parallel()
	cfgB := testConfig()
	cfgB.StreamHeartbeat = time.Hour
	c := startEvCluster(t, cfgB, true, nil)
	room := newEvClassroom(t, c.a, "Ada", "Ben")
	g := room.newGame(room.students...)
	o := mintObserver(t, c.a, g.path("/observers"), room.teacher)
	stream := openEvStream(t, c.b.URL, g.path("/events"), bearer(o.Token)...)
	followEvents(stream).upTo(t, g)

	c.proxyB.Cut()
	if resp := c.a.Do(c.a.Request("DELETE", g.path("/observers/"+o.Id.String()), nil, bearer(room.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
	}
	c.proxyB.Restore()
	expectRevoked(t, stream, client.RevokedEventReasonTokenRevoked)
}

// BenchmarkRevocationEndsStream measures how long after a revocation through instance A returns
// (an observer token revoked) the stream instance B holds with it gets its `revoked` event: the
// notice's way through Postgres and B's listener. Its p50-ms and p99-ms are from the DELETE's
// response to the event's arrival.
func BenchmarkRevocationEndsStream(b *testing.B) {
	c := newEvCluster(b, testConfig())
	g := newEvGame(b, c.a, "primed", nil, 2, 41)
	var took []time.Duration
	for range b.N {
		resp := c.a.Post(g.path("/observers"), nil, bearer(g.tokens[0])...)
		if resp.StatusCode != http.StatusCreated {
			b.Fatalf("mint = %d: %s", resp.StatusCode, resp.Body)
		}
		var o client.ObserverToken
		resp.JSON(b, &o)
		stream := openEvStream(b, c.b.URL, g.path("/events?access_token="+o.Token))
		stream.next(b, evWait) // the start: the stream is open and held
		if resp := c.a.Do(c.a.Request("DELETE", g.path("/observers/"+o.Id.String()), nil, bearer(g.tokens[0])...)); resp.StatusCode != http.StatusNoContent {
			b.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
		}
		returned := time.Now()
		if e := stream.next(b, evWait); e.Event != "revoked" {
			b.Fatalf("%q after the revocation", e.Event)
		} else {
			took = append(took, max(0, e.At.Sub(returned)))
		}
		stream.close()
	}
	b.StopTimer()
	slices.Sort(took)
	pct := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.5), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
