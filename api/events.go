package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
	"primegames/repo"
)

// Live updates (GET /v1/games/{id}/events) work across server instances through Postgres: every
// transaction that appends a history entry (or aborts a game) sends a notification on
// repo.GameEventsChannel, delivered on commit. Each instance keeps one listening connection (the
// hub's, not one per stream), and on a notification wakes the streams of that game. A woken stream
// reads what it has not sent yet from the history, so a lost or coalesced notification delays an
// event but never loses or repeats one; after the listener reconnects, every stream is woken to
// catch up.

const (
	defaultStreamLimit        = 1000
	defaultStreamHeartbeat    = 15 * time.Second
	defaultStreamWriteTimeout = 10 * time.Second
	// streamBatch is how many history entries a stream reads at a time.
	streamBatch = 200
	// streamRetryAfter is the Retry-After, in seconds, of a refused stream.
	streamRetryAfter = 5
	// streamRetryMillis is the reconnection delay the stream suggests to EventSource.
	streamRetryMillis = 2000
	// streamReadTimeout bounds one read of the history by a stream.
	streamReadTimeout = 10 * time.Second
	// streamRetryMin and streamRetryMax bound the backoff of a stream whose database is unreachable.
	streamRetryMin = time.Second
	streamRetryMax = 15 * time.Second
)

// streams is the live-update machinery of one server instance.
type streams struct {
	db           *repo.DB
	logger       *slog.Logger
	limit        int64
	perClient    streamCap
	heartbeat    time.Duration
	writeTimeout time.Duration
	open         atomic.Int64
	gauge        prometheus.Gauge

	// stopping is closed when the server shuts down: every stream then ends at once.
	stopping chan struct{}
	stopOnce sync.Once

	mu      sync.Mutex
	subs    map[string]map[*subscriber]struct{} // by topic: gameTopic or classroomTopic
	running bool                                // the listener goroutine has been started
	closed  bool
	cancel  context.CancelFunc
	done    chan struct{} // closed when the listener goroutine has returned
}

// subscriber is one open stream. wake holds at most one pending wake-up: the stream reads the
// history when it wakes, so wake-ups coalesce and nothing is buffered per stream beyond, for a
// classroom's stream, the set of its games that have news.
type subscriber struct {
	topic string
	wake  chan struct{}

	mu    sync.Mutex
	games map[string]struct{} // classroom streams: the games named by notifications since the last look
	all   bool                // every game may have news (the listener reconnected)
}

func gameTopic(id string) string      { return "game:" + id }
func classroomTopic(id string) string { return "classroom:" + id }

func newStreams(cfg Config, db *repo.DB, logger *slog.Logger, registry *prometheus.Registry) *streams {
	st := &streams{
		db: db, logger: logger,
		limit:        int64(cfg.StreamLimit),
		perClient:    streamCap{perClient: cfg.StreamsPerClient, open: map[string]int{}},
		heartbeat:    cfg.StreamHeartbeat,
		writeTimeout: cfg.StreamWriteTimeout,
		gauge: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "event_streams_open",
			Help: "Live-update (server-sent events) streams open on this instance.",
		}),
		stopping: make(chan struct{}),
		subs:     map[string]map[*subscriber]struct{}{},
		done:     make(chan struct{}),
	}
	if st.limit <= 0 {
		st.limit = defaultStreamLimit
	}
	if st.heartbeat <= 0 {
		st.heartbeat = defaultStreamHeartbeat
	}
	if st.writeTimeout <= 0 {
		st.writeTimeout = defaultStreamWriteTimeout
	}
	registry.MustRegister(st.gauge)
	return st
}

// acquire takes one of the instance's stream slots.
func (st *streams) acquire() bool {
	if st.open.Add(1) > st.limit {
		st.open.Add(-1)
		return false
	}
	st.gauge.Inc()
	return true
}

func (st *streams) release() {
	st.open.Add(-1)
	st.gauge.Dec()
}

// stop ends every stream; new ones are refused.
func (st *streams) stop() {
	st.stopOnce.Do(func() { close(st.stopping) })
}

// close ends every stream and stops the listener, waiting for it to let go of its connection.
func (st *streams) close() {
	st.stop()
	st.mu.Lock()
	running := st.running
	st.closed = true
	if st.cancel != nil {
		st.cancel()
	}
	st.mu.Unlock()
	if running {
		<-st.done
	}
}

// subscribe registers a stream of topic, starting the listener with the first stream.
func (st *streams) subscribe(c echo.Context, topic string) (*subscriber, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed {
		return nil, shuttingDown(c)
	}
	if !st.running {
		ctx, cancel := context.WithCancel(context.Background())
		st.running, st.cancel = true, cancel
		go st.listen(ctx)
	}
	sub := &subscriber{topic: topic, wake: make(chan struct{}, 1), games: map[string]struct{}{}}
	if st.subs[topic] == nil {
		st.subs[topic] = map[*subscriber]struct{}{}
	}
	st.subs[topic][sub] = struct{}{}
	return sub, nil
}

func (st *streams) unsubscribe(sub *subscriber) {
	st.mu.Lock()
	defer st.mu.Unlock()
	delete(st.subs[sub.topic], sub)
	if len(st.subs[sub.topic]) == 0 {
		delete(st.subs, sub.topic)
	}
}

// poke wakes the stream; gameID, when not "", names the game with news, and "*" means every game.
func (sub *subscriber) poke(gameID string) {
	if gameID != "" {
		sub.mu.Lock()
		if gameID == "*" {
			sub.all = true
		} else if !sub.all {
			sub.games[gameID] = struct{}{}
		}
		sub.mu.Unlock()
	}
	select {
	case sub.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
}

// news takes the games with news since the last call; all reports that every game may have some.
func (sub *subscriber) news() (games []string, all bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	for g := range sub.games {
		games = append(games, g)
	}
	all, sub.all, sub.games = sub.all, false, map[string]struct{}{}
	return games, all
}

func (st *streams) notice(n repo.GameNotice) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for sub := range st.subs[gameTopic(n.GameID)] {
		sub.poke("")
	}
	if n.ClassroomID != "" {
		for sub := range st.subs[classroomTopic(n.ClassroomID)] {
			sub.poke(n.GameID)
		}
	}
}

func (st *streams) wakeAll() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, subs := range st.subs {
		for sub := range subs {
			sub.poke("*")
		}
	}
}

// listen runs the instance's one listening connection until close.
func (st *streams) listen(ctx context.Context) {
	defer close(st.done)
	connects := 0
	st.db.ListenGameEvents(ctx, repo.GameListener{
		Connected: func() {
			connects++
			if connects > 1 {
				st.logger.Info("live updates: listener reconnected", "connects", connects)
			}
			// Whatever was committed while nobody listened is in the history: every stream catches up.
			st.wakeAll()
		},
		Notice: st.notice,
		Failed: func(err error, retryIn time.Duration) {
			st.logger.Warn("live updates: listener connection lost", "error", err.Error(), "retry_in", retryIn.String())
		},
	})
}

// StreamGameEvents sends the game's history, then its new entries as they are recorded, as
// server-sent events, until the game ends, the client leaves or the server shuts down.
func (s *Server) StreamGameEvents(c echo.Context, id openapi.GameID, params openapi.StreamGameEventsParams) error {
	release, err := s.streams.openSlot(c)
	if err != nil {
		return err
	}
	defer release()
	after, err := resumeAfter(params)
	if err != nil {
		return err
	}
	gameID := id.String()
	// Subscribe before the first read of the history, so that nothing recorded after it goes unnoticed.
	sub, err := s.streams.subscribe(c, gameTopic(gameID))
	if err != nil {
		return err
	}
	defer s.streams.unsubscribe(sub)
	var caller play.Caller
	return s.serveStream(c, sub, streamSource{
		open: func(ctx context.Context) error {
			principal, err := s.streamPrincipal(ctx, c)
			if err != nil {
				return err
			}
			_, caller, err = s.play.Get(ctx, gameID, principal)
			return err
		},
		step: func(ctx context.Context, out *eventWriter) (over bool, err error) {
			after, over, err = s.sendNewEvents(ctx, out, gameID, caller, after)
			return over, err
		},
	})
}

// openSlot takes one of the client's stream slots and one of the instance's, or refuses the stream.
func (st *streams) openSlot(c echo.Context) (release func(), err error) {
	releaseClient, err := st.perClient.acquire(c)
	if err != nil {
		return nil, err
	}
	if !st.acquire() {
		releaseClient()
		c.Response().Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
		return nil, domain.Errorf(domain.KindUnavailable, "streams_full",
			"This server holds as many live streams as it may; connect again in %d seconds.", streamRetryAfter)
	}
	select {
	case <-st.stopping:
		st.release()
		releaseClient()
		return nil, shuttingDown(c)
	default:
	}
	return func() {
		st.release()
		releaseClient()
	}, nil
}

// shuttingDown refuses a stream because the instance is going away: the client should connect
// again (to another instance, or to this one restarted).
func shuttingDown(c echo.Context) error {
	c.Response().Header().Set("Retry-After", strconv.Itoa(streamRetryAfter))
	return domain.Errorf(domain.KindUnavailable, "unavailable", "This server is shutting down; connect again.")
}

// streamPrincipal is the request's principal for a stream. When the database could not be asked as
// the request came in, it asks again: a stream waits an outage out rather than refuse.
func (s *Server) streamPrincipal(ctx context.Context, c echo.Context) (play.Principal, error) {
	id, ok := c.Get(principalKey).(identified)
	if !ok {
		return play.Nobody, nil
	}
	if id.err != nil && !isRefusal(id.err) {
		return s.play.Resolve(ctx, id.unresolved)
	}
	return id.principal, id.err
}

// streamSource is what one event stream reads from the database: open finds what the stream is of
// and whether the caller may have it; step sends what is new since the last step.
type streamSource struct {
	open func(ctx context.Context) error
	step func(ctx context.Context, out *eventWriter) (over bool, err error)
}

// serveStream answers with an event stream and steps it at once and each time sub is woken,
// sending a heartbeat comment when nothing happens, until a step reports the stream over, the
// client leaves or the server shuts down. Heartbeats do not touch the database.
//
// A refusal (the game is missing, the token is wrong) is answered with its status. Any other
// failure to read, most often a database that cannot be reached, is waited out: the stream stays
// open, or is answered 200 if it was not yet (EventSource gives up on any other status), and reads
// again when woken (the listener wakes every stream when it reconnects) or after a backoff. A
// stream resumes from the last event it sent, so nothing is lost or repeated. A refusal found out
// once the stream is open is sent as one `error` event, and the stream ends: the client's
// reconnection then gets its status.
func (s *Server) serveStream(c echo.Context, sub *subscriber, src streamSource) error {
	ctx := c.Request().Context()
	err := withReadTimeout(ctx, src.open)
	if isRefusal(err) {
		return err
	}
	opened := err == nil
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/event-stream")
	w.Header().Set(echo.HeaderCacheControl, "no-store")
	w.Header().Set("X-Accel-Buffering", "no") // nginx and friends: do not hold events back
	w.WriteHeader(http.StatusOK)
	out := &eventWriter{w: w, rc: http.NewResponseController(w), timeout: s.streams.writeTimeout}
	if err := out.send(fmt.Sprintf("retry: %d\n\n", streamRetryMillis)); err != nil {
		return nil
	}
	heartbeat := time.NewTicker(s.streams.heartbeat)
	defer heartbeat.Stop()
	var retry readRetry
	defer retry.stop()
	read := opened
	if !opened {
		s.waitOut(c, sub, &retry, err)
	}
	for {
		if read {
			over, err := s.advance(ctx, out, src, &opened)
			switch {
			case over || ctx.Err() != nil || errors.Is(err, errClientWrite):
				return nil
			case err == nil:
				retry.stop()
			case isRefusal(err):
				_ = s.sendError(c, out, err)
				return nil
			default:
				s.waitOut(c, sub, &retry, err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.streams.stopping:
			return nil
		case <-sub.wake:
			read = true
		case <-retry.due():
			read = true
		case <-heartbeat.C:
			read = false
			if err := out.send(": heartbeat\n\n"); err != nil {
				return nil
			}
		}
	}
}

// isRefusal reports whether err is an answer about the request (a domain error), as opposed to a
// failure to find one out.
func isRefusal(err error) bool {
	var de *domain.Error
	return errors.As(err, &de)
}

// waitOut schedules the next read of a stream whose read failed, logging the failure unless it is
// the database being out of reach (the listener reports that once for all streams).
func (s *Server) waitOut(c echo.Context, sub *subscriber, retry *readRetry, err error) {
	if !repo.IsUnavailable(err) {
		s.logger.Warn("live updates: reading for a stream failed; it will try again", "request_id", requestIDOf(c), "stream", sub.topic, "error", err.Error())
	}
	retry.schedule()
}

// advance opens src unless it is open, then steps it.
func (s *Server) advance(ctx context.Context, out *eventWriter, src streamSource, opened *bool) (over bool, err error) {
	if !*opened {
		if err := withReadTimeout(ctx, src.open); err != nil {
			return false, err
		}
		*opened = true
	}
	err = withReadTimeout(ctx, func(ctx context.Context) error {
		over, err = src.step(ctx, out)
		return err
	})
	return over, err
}

// withReadTimeout bounds the reads of read by streamReadTimeout, so that a database that stopped
// answering without closing the connection holds up a stream's heartbeats for that long at most.
func withReadTimeout(ctx context.Context, read func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, streamReadTimeout)
	defer cancel()
	return read(ctx)
}

// sendError sends err as the stream's `error` event, a problem document.
func (s *Server) sendError(c echo.Context, out *eventWriter, err error) error {
	p := s.problemFor(err)
	p.Instance, p.RequestId = ptr(c.Request().URL.Path), ptr(requestIDOf(c))
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return out.send(fmt.Sprintf("event: error\ndata: %s\n\n", data))
}

// readRetry times the next read of a stream whose last read found the database unreachable:
// after 1 s, then twice as long each time up to 15 s, with jitter so that the streams of an
// instance do not all retry at once.
type readRetry struct {
	delay time.Duration
	timer *time.Timer
}

func (r *readRetry) schedule() {
	if r.timer != nil {
		r.timer.Stop()
	}
	r.delay = min(max(2*r.delay, streamRetryMin), streamRetryMax)
	r.timer = time.NewTimer(r.delay/2 + rand.N(r.delay/2+1))
}

// stop cancels the pending retry, if any, and starts the backoff over.
func (r *readRetry) stop() {
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
	r.delay = 0
}

// due fires when the pending retry is due; without one, never.
func (r *readRetry) due() <-chan time.Time {
	if r.timer == nil {
		return nil
	}
	return r.timer.C
}

// resumeAfter is the seq after which the stream starts: Last-Event-ID, else since, else -1 (the
// whole history).
func resumeAfter(params openapi.StreamGameEventsParams) (int64, error) {
	if params.LastEventID != nil && strings.TrimSpace(*params.LastEventID) != "" {
		n, err := strconv.ParseInt(strings.TrimSpace(*params.LastEventID), 10, 64)
		if err != nil || n < -1 {
			return 0, domain.Invalid("invalid_last_event_id", "Last-Event-ID must be the id of an event of this stream (a seq); got %q.", *params.LastEventID)
		}
		return n, nil
	}
	if params.Since != nil {
		return *params.Since, nil
	}
	return -1, nil
}

// sendNewEvents sends every entry after seq `after`, then `end` when the game is over. It returns
// the last seq sent and whether the stream is over.
func (s *Server) sendNewEvents(ctx context.Context, out *eventWriter, gameID string, caller play.Caller, after int64) (int64, bool, error) {
	after, g, err := s.sendEntries(ctx, out, gameID, caller, after, func(seq int64) string { return strconv.FormatInt(seq, 10) })
	if err != nil || !g.Status.Over() {
		return after, false, err
	}
	return after, true, sendEnd(out, g)
}

// sendEntries sends every entry of the game after seq `after` as `action` events with the ids idOf
// gives. It returns the last seq sent and the game as it was when the last entry had been sent.
func (s *Server) sendEntries(ctx context.Context, out *eventWriter, gameID string, caller play.Caller, after int64, idOf func(int64) string) (int64, *play.Game, error) {
	for {
		p, err := s.play.Progress(ctx, gameID, after, streamBatch)
		if err != nil {
			return after, nil, err
		}
		viewer := play.ViewerFor(p.Game.Status, caller)
		for _, e := range p.Entries {
			entry, err := entryBody(p.Game, e, viewer)
			if err != nil {
				return after, nil, err
			}
			data, err := json.Marshal(openapi.GameEvent{
				GameId: mustUUID(gameID), Entry: entry,
				Version: e.Version, Status: openapi.GameStatus(p.Game.StatusAfter(e)),
			})
			if err != nil {
				return after, nil, err
			}
			if err := out.send(fmt.Sprintf("id: %s\nevent: action\ndata: %s\n\n", idOf(e.Seq), data)); err != nil {
				return after, nil, err
			}
			after = e.Seq
		}
		if p.Caught(after) {
			return after, p.Game, nil
		}
	}
}

// sendEnd sends the `end` event of a game that is over.
func sendEnd(out *eventWriter, g *play.Game) error {
	data, err := json.Marshal(openapi.GameEndEvent{
		GameId: mustUUID(g.ID), Status: openapi.GameStatus(g.Status),
		Version: g.Version, Winners: orEmpty(g.Winners),
	})
	if err != nil {
		return err
	}
	return out.send(fmt.Sprintf("event: end\ndata: %s\n\n", data))
}

// errClientWrite marks a failed write to the client: it left, or reads too slowly.
var errClientWrite = errors.New("writing to the client failed")

// eventWriter writes and flushes each event under its own deadline, so a client that does not read
// is disconnected rather than buffered for: it resumes with Last-Event-ID. The deadline also
// replaces the server's WRITE_TIMEOUT, which would otherwise cut every stream short.
type eventWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (ew *eventWriter) send(event string) error {
	if err := ew.rc.SetWriteDeadline(time.Now().Add(ew.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return fmt.Errorf("%w: %v", errClientWrite, err)
	}
	if _, err := ew.w.Write([]byte(event)); err != nil {
		return fmt.Errorf("%w: %v", errClientWrite, err)
	}
	if err := ew.rc.Flush(); err != nil {
		return fmt.Errorf("%w: %v", errClientWrite, err)
	}
	return nil
}

// Close ends every live stream and stops the listener. Serve calls it on shutdown; a server used
// only as an http.Handler (in tests) should call it when done.
func (s *Server) Close() { s.streams.close() }
