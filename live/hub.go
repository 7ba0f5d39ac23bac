// Package live is the live-update machinery of one server instance: the registry of open streams
// and their slots, the one listening connection that hears about committed changes, the wake-ups it
// sends to the streams concerned, and the loop each stream runs (heartbeats that do not touch the
// database, and waiting out a database that cannot be reached). It knows no HTTP: package api writes
// the events and reads what they carry through package play.
//
// Live updates work across server instances through the database: every transaction that appends a
// history entry (or aborts a game) sends a notice, delivered on commit. Each instance keeps one
// listening connection (the hub's, not one per stream) and on a notice wakes the streams of that
// game and of its classroom. A woken stream reads what it has not sent yet from the history, so a
// lost or coalesced notice delays an event but never loses or repeats one; after the listener
// reconnects, every stream is woken to catch up. The streams of a game woken by one notice share one
// read (ReadShared).
//
// A stream runs on its request's goroutine (Serve), or, once its handler has taken the connection
// from the HTTP server, on none while it idles (Detach): an idle stream then costs its subscription,
// its timer and what its source keeps.
package live

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"primegames/domain"
)

const (
	defaultLimit        = 1000
	defaultHeartbeat    = 15 * time.Second
	defaultWriteTimeout = 10 * time.Second
	// RetryAfter is the Retry-After, in seconds, of a refused stream.
	RetryAfter = 5
	// RetryMillis is the reconnection delay a stream suggests to EventSource.
	RetryMillis = 2000
)

// Config sets the hub's limits; zero values take the defaults.
type Config struct {
	Limit        int           // streams the instance holds at once (1000)
	PerClient    int           // streams one client may hold (0: no cap)
	PerAddress   int           // streams one address may hold, whatever its clients (with PerClient)
	Heartbeat    time.Duration // interval of the heartbeat (15s)
	WriteTimeout time.Duration // time allowed to write one event before the client is dropped (10s)
}

// Feed is where the hub hears of committed changes: it runs the listening connection, keeping it up,
// until ctx is done. Package repo implements it with LISTEN.
type Feed interface {
	Listen(ctx context.Context, l Listener)
}

// Listener receives what a Feed hears.
type Listener struct {
	// Connected is called each time the feed listens, the first time and after every reconnect:
	// notices sent while it did not were lost.
	Connected func()
	// Notice is called for each committed change, in commit order.
	Notice func(Notice)
	// Failed is called when the connection could not be made or broke, with the time until the next
	// attempt.
	Failed func(err error, retryIn time.Duration)
	// Revoked is called for each committed change that ends an authority, in commit order with the
	// notices.
	Revoked func(Revocation)
}

// Notice says that a game's history grew or the game ended.
type Notice struct {
	GameID      string
	ClassroomID string // "" for a game outside classrooms
	Version     int64  // the game's version after the change (0: unknown)
}

// Hub is the live-update machinery of one server instance.
type Hub struct {
	cfg    Config
	feed   Feed
	logger *slog.Logger
	open   atomic.Int64
	gauge  prometheus.Gauge
	caps   clientCaps

	// stopping is closed when the server shuts down: every stream then ends at once.
	stopping chan struct{}
	stopped  context.Context // done when stopping is closed
	stop     context.CancelFunc
	stopOnce sync.Once
	// detached counts the streams running on goroutines of their own (Detach); Close waits for them.
	detached sync.WaitGroup
	peers    peerWatch
	shared   sharedReads
	heard    heardVersions
	verifier verifier

	// deaf is set while the listener is not listening: notices may be lost, so nothing counts as
	// heard (Heard).
	deaf atomic.Bool

	mu          sync.Mutex
	subs        map[string]map[*Subscription]struct{} // by topic
	authorities map[AuthorityKey]map[*Subscription]struct{}
	revocations revocationLog
	running     bool // the listener goroutine has been started
	closed      bool
	cancel      context.CancelFunc
	done        chan struct{} // closed when the listener goroutine has returned
}

// NewHub makes the hub of an instance, counting its open streams in registry. The listener starts
// with the first stream.
func NewHub(cfg Config, feed Feed, logger *slog.Logger, registry prometheus.Registerer) *Hub {
	if cfg.Limit <= 0 {
		cfg.Limit = defaultLimit
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = defaultHeartbeat
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = defaultWriteTimeout
	}
	h := &Hub{
		cfg: cfg, feed: feed, logger: logger,
		caps: clientCaps{perClient: cfg.PerClient, perAddress: cfg.PerAddress, open: map[string]int{}},
		gauge: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "event_streams_open",
			Help: "Live-update (server-sent events) streams open on this instance.",
		}),
		stopping:    make(chan struct{}),
		subs:        map[string]map[*Subscription]struct{}{},
		authorities: map[AuthorityKey]map[*Subscription]struct{}{},
		done:        make(chan struct{}),
	}
	h.deaf.Store(true)
	h.stopped, h.stop = context.WithCancel(context.Background())
	registry.MustRegister(h.gauge)
	return h
}

// WriteTimeout is the time allowed to write one event.
func (h *Hub) WriteTimeout() time.Duration { return h.cfg.WriteTimeout }

// Open takes one of the client's stream slots, one of its address's and one of the instance's, or
// refuses the stream (429 rate_limited, 503 streams_full, 503 unavailable while shutting down); a
// refusal should be answered with Retry-After: RetryAfter.
func (h *Hub) Open(client, address string) (release func(), err error) {
	releaseClient, err := h.caps.acquire(client, address)
	if err != nil {
		return nil, err
	}
	if h.open.Add(1) > int64(h.cfg.Limit) {
		h.open.Add(-1)
		releaseClient()
		return nil, domain.Errorf(domain.KindUnavailable, "streams_full",
			"This server holds as many live streams as it may; connect again in %d seconds.", RetryAfter)
	}
	h.gauge.Inc()
	release = func() {
		h.open.Add(-1)
		h.gauge.Dec()
		releaseClient()
	}
	select {
	case <-h.stopping:
		release()
		return nil, shuttingDown()
	default:
	}
	return release, nil
}

// shuttingDown refuses a stream because the instance is going away: the client should connect
// again (to another instance, or to this one restarted).
func shuttingDown() error {
	return domain.Errorf(domain.KindUnavailable, "unavailable", "This server is shutting down; connect again.")
}

// Stop ends every stream; new ones are refused.
func (h *Hub) Stop() {
	h.stopOnce.Do(func() {
		close(h.stopping)
		h.stop()
	})
}

// Close ends every stream and stops the listener, waiting for it to let go of its connection and
// for the detached streams to end.
func (h *Hub) Close() {
	h.Stop()
	h.mu.Lock()
	running := h.running
	h.closed = true
	if h.cancel != nil {
		h.cancel()
	}
	h.mu.Unlock()
	if running {
		<-h.done
	}
	h.verifier.loops.Wait()
	h.detached.Wait()
	h.peers.close()
}

// Listen starts the listener now rather than with the first stream: the feed may have other uses
// for what it hears (the store's cache of game records, which is trusted only while it listens).
func (h *Hub) Listen() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.startListening()
	}
}

// startListening starts the listener unless it runs; h.mu is held.
func (h *Hub) startListening() {
	if !h.running {
		ctx, cancel := context.WithCancel(context.Background())
		h.running, h.cancel = true, cancel
		go h.listen(ctx)
		h.startVerifying(ctx)
	}
}

// Subscribe registers a stream of topic, starting the listener with the first stream. Subscribe
// before the first read, so that nothing recorded after it goes unnoticed.
func (h *Hub) Subscribe(topic Topic) (*Subscription, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, shuttingDown()
	}
	h.startListening()
	sub := &Subscription{topic: string(topic), wake: make(chan struct{}, 1), games: map[string]struct{}{},
		heard: h.revocations.heard, ended: make(chan struct{})}
	h.follow(sub, topic)
	return sub, nil
}

// Follow makes sub follow one more topic as well (a player's stream follows each of the player's
// games). Follow it before reading it, as with Subscribe.
func (h *Hub) Follow(sub *Subscription, topic Topic) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, following := h.subs[string(topic)][sub]; !following && !h.closed {
		h.follow(sub, topic)
	}
}

func (h *Hub) follow(sub *Subscription, topic Topic) {
	if h.subs[string(topic)] == nil {
		h.subs[string(topic)] = map[*Subscription]struct{}{}
	}
	h.subs[string(topic)][sub] = struct{}{}
	sub.topics = append(sub.topics, string(topic))
}

// Unsubscribe removes a stream.
func (h *Hub) Unsubscribe(sub *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, topic := range sub.topics {
		delete(h.subs[topic], sub)
		if len(h.subs[topic]) == 0 {
			delete(h.subs, topic)
		}
	}
	sub.topics = nil
	h.unhold(sub)
	sub.keys = nil
	select {
	case <-sub.ended:
	default:
		close(sub.ended)
	}
}

func (h *Hub) notice(n Notice) {
	h.heard.record(n.GameID, n.Version)
	h.shared.forget(n.GameID) // before any stream wakes to read
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.subs[string(GameTopic(n.GameID))] {
		sub.poke(n.GameID)
	}
	if n.ClassroomID != "" {
		for sub := range h.subs[string(ClassroomTopic(n.ClassroomID))] {
			sub.poke(n.GameID)
		}
	}
}

func (h *Hub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, subs := range h.subs {
		for sub := range subs {
			sub.poke(everyGame)
		}
	}
}

// listen runs the instance's one listening connection until Close.
func (h *Hub) listen(ctx context.Context) {
	defer close(h.done)
	connects := 0
	h.feed.Listen(ctx, Listener{
		Connected: func() {
			connects++
			if connects > 1 {
				h.logger.Info("live updates: listener reconnected", "connects", connects)
			}
			// Whatever was committed while nobody listened is in the history: every stream catches up.
			// Revocations may have been lost too: until the streams' authorities have been checked
			// again (verifyAll), a stream checks its own before it writes (Heard).
			h.shared.listen(true)
			h.heard.reset()
			h.verifier.reconnected()
			h.deaf.Store(false)
			h.wakeAll()
		},
		Notice:  h.notice,
		Revoked: h.revoked,
		Failed: func(err error, retryIn time.Duration) {
			h.deaf.Store(true)
			h.heard.reset()
			h.shared.listen(false)
			h.logger.Warn("live updates: listener connection lost", "error", err.Error(), "retry_in", retryIn.String())
		},
	})
}
