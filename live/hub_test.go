package live_test

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"primegames/domain"
	"primegames/live"
)

func newHub(t *testing.T, cfg live.Config) *live.Hub {
	t.Helper()
	h := live.NewHub(cfg, &fakeFeed{}, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	t.Cleanup(h.Close)
	return h
}

// One address holds at most PerAddress streams, whatever clients (tokens) they come from; a slot
// released is free again.
func TestStreamCapPerAddress(t *testing.T) {
	const perAddress = 10
	h := newHub(t, live.Config{PerClient: 1, PerAddress: perAddress})
	const address = "address:203.0.113.5"
	var releases []func()
	for i := range perAddress {
		release, err := h.Open("pgs_"+strconv.Itoa(i), address)
		if err != nil {
			t.Fatalf("stream %d, each with its own token: %v", i+1, err)
		}
		releases = append(releases, release)
	}
	if _, err := h.Open("pgs_another", address); domain.ErrorCode(err) != "rate_limited" {
		t.Fatalf("stream %d from one address: %v, want rate_limited", perAddress+1, err)
	}
	releases[0]()
	if _, err := h.Open("pgs_another", address); err != nil {
		t.Fatalf("after one stream closed: %v", err)
	}
	if _, err := h.Open("pgs_another", "address:198.51.100.7"); domain.ErrorCode(err) != "rate_limited" {
		t.Fatalf("the same client's second stream from elsewhere: %v, want rate_limited", err)
	}
}

// The instance holds Limit streams; past it, and once stopping, it refuses.
func TestStreamSlotsOfTheInstance(t *testing.T) {
	h := newHub(t, live.Config{Limit: 2})
	first, err := h.Open("a", "address:a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Open("b", "address:b"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Open("c", "address:c"); domain.ErrorCode(err) != "streams_full" {
		t.Fatalf("third stream: %v, want streams_full", err)
	}
	first()
	h.Stop()
	if _, err := h.Open("c", "address:c"); domain.ErrorCode(err) != "unavailable" {
		t.Fatalf("a stream while stopping: %v, want unavailable", err)
	}
}

// fakeFeed hands the hub's listener to the test, which sends notices through it. With connect, it
// connects once connect is closed.
type fakeFeed struct {
	listening chan live.Listener
	connect   chan struct{}
}

func (f *fakeFeed) Listen(ctx context.Context, l live.Listener) {
	if f.connect != nil {
		<-f.connect
	}
	l.Connected()
	if f.listening != nil {
		f.listening <- l
	}
	<-ctx.Done()
}

// A notice wakes the streams of its game and of its classroom; wake-ups coalesce, and a classroom's
// stream learns which games have news; a reconnect marks every game.
func TestNoticesWakeTheirStreams(t *testing.T) {
	feed := &fakeFeed{listening: make(chan live.Listener, 1), connect: make(chan struct{})}
	h := live.NewHub(live.Config{}, feed, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	t.Cleanup(h.Close)
	game, err := h.Subscribe(live.GameTopic("g1"))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := h.Subscribe(live.GameTopic("g2"))
	class, _ := h.Subscribe(live.ClassroomTopic("c1"))
	close(feed.connect) // the listener connects with the three streams subscribed
	l := <-feed.listening
	// Connected woke every stream once and marked every game of the classroom.
	for _, sub := range []*live.Subscription{game, other, class} {
		if !woken(sub) {
			t.Fatalf("%s was not woken when the listener connected", sub.Topic())
		}
	}
	if _, all := class.News(); !all {
		t.Error("after connecting, the classroom's stream is not told every game may have news")
	}

	l.Notice(live.Notice{GameID: "g1", ClassroomID: "c1"})
	l.Notice(live.Notice{GameID: "g1", ClassroomID: "c1"})
	l.Notice(live.Notice{GameID: "g3", ClassroomID: "c1"})
	if !woken(game) || woken(game) {
		t.Error("two notices of g1 did not wake its stream exactly once")
	}
	if woken(other) {
		t.Error("g2's stream was woken by notices of other games")
	}
	if !woken(class) {
		t.Error("the classroom's stream was not woken")
	}
	games, all := class.News()
	slices.Sort(games)
	if all || !slices.Equal(games, []string{"g1", "g3"}) {
		t.Errorf("classroom news = %v (all %v), want [g1 g3]", games, all)
	}
	if games, all := class.News(); len(games) != 0 || all {
		t.Errorf("news taken twice: %v (all %v)", games, all)
	}
}

// woken reports whether sub has a wake-up pending, taking it; Serve is what takes it otherwise.
func woken(sub *live.Subscription) bool {
	select {
	case <-sub.Wake():
		return true
	default:
		return false
	}
}

// A player's stream follows several topics: a notice of any of them wakes it once and names its
// game; after Unsubscribe none does.
func TestAStreamFollowsSeveralTopics(t *testing.T) {
	feed := &fakeFeed{listening: make(chan live.Listener, 1)}
	h := live.NewHub(live.Config{}, feed, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	t.Cleanup(h.Close)
	player, err := h.Subscribe(live.PlayerTopic("r1"))
	if err != nil {
		t.Fatal(err)
	}
	h.Follow(player, live.GameTopic("g1"))
	h.Follow(player, live.GameTopic("g2"))
	h.Follow(player, live.GameTopic("g2")) // twice: once
	l := <-feed.listening
	woken(player)
	player.News()

	l.Notice(live.Notice{GameID: "g2"})
	l.Notice(live.Notice{GameID: "g1", ClassroomID: "c1"})
	l.Notice(live.Notice{GameID: "g3"})
	if !woken(player) || woken(player) {
		t.Error("notices of two followed games did not wake the stream exactly once")
	}
	games, _ := player.News()
	slices.Sort(games)
	if !slices.Equal(games, []string{"g1", "g2"}) {
		t.Errorf("news = %v, want [g1 g2]", games)
	}
	h.Unsubscribe(player)
	l.Notice(live.Notice{GameID: "g1"})
	if woken(player) {
		t.Error("a notice woke a stream after Unsubscribe")
	}
}
