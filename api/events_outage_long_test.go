//go:build long

package api_test

import (
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"primegames/api"
	"primegames/api/apitest"
)

// outage is how long the database stays away from instance B.
const outage = 2 * time.Second

// Instance B reaches the database through a proxy that the test cuts, while instance A keeps
// recording moves directly. B's open streams stay open through the outage (heartbeats go on) and,
// once the database is back, deliver every entry recorded meanwhile and after, each once and in
// order. Streams opened during the outage answer 200 and wait: they then deliver, or, for a game
// that does not exist, send one `error` event and end.
func TestLongEventStreamsSurviveDatabaseOutage(t *testing.T) {
	t.Parallel()
	cfgB := testConfig()
	cfgB.StreamHeartbeat = 50 * time.Millisecond
	c := newEvClusterWithProxy(t, cfgB)
	a, b, proxy := c.a, c.b, c.proxyB

	g := newEvGame(t, a, "prime-climb", nil, 2, 17)
	room := newEvClassroom(t, a, "Ada", "Ben")
	cg := room.newGame(room.students...)
	// Both classroom streams replay the game from its start.
	since := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	roomEvents := room.path("/events?since=" + url.QueryEscape(since) + "&access_token=" + url.QueryEscape(room.teacher))
	gameStream := followEvents(openEvStream(t, b.URL, g.path("/events")))
	roomStream := followEvents(openEvStream(t, b.URL, roomEvents))
	for range 2 {
		g.play()
		cg.play()
	}
	gameStream.upTo(t, g)
	roomStream.upTo(t, cg)

	proxy.Cut()
	for range 3 {
		g.play()
		cg.play()
	}
	gameStream.heartbeats(t, 20)
	roomStream.heartbeats(t, 20)
	lateGame := followEvents(openEvStream(t, b.URL, g.path("/events")))
	lateRoom := followEvents(openEvStream(t, b.URL, roomEvents))
	missing := openEvStream(t, b.URL, "/v1/games/00000000-0000-4000-8000-000000000000/events")
	lateGame.heartbeats(t, 3)
	lateRoom.heartbeats(t, 3)
	time.Sleep(outage)
	gameStream.heartbeats(t, 3)
	roomStream.heartbeats(t, 3)
	proxy.Restore()
	for range 3 {
		g.play()
		cg.play()
	}

	for _, s := range []*evFollower{gameStream, lateGame} {
		s.upTo(t, g)
	}
	for _, s := range []*evFollower{roomStream, lateRoom} {
		s.upTo(t, cg)
	}
	e := missing.next(t, evWait)
	var problem apitest.Problem
	if e.Event != "error" || json.Unmarshal([]byte(e.Data), &problem) != nil || problem.Status != 404 || problem.Code != "game_not_found" {
		t.Fatalf("the stream of a game that does not exist, opened during the outage: %+v", e)
	}
	missing.ended(t, evWait)
}

// newEvClusterWithProxy is newEvCluster with instance B reaching the database through a proxy
// that the test can cut.
func newEvClusterWithProxy(t testing.TB, cfgB api.Config) *evCluster {
	t.Helper()
	return startEvCluster(t, cfgB, true, nil)
}
