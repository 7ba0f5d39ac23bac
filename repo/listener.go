package repo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"primegames/live"
)

// ListenerApplicationName is the application_name of the listening connection, so that it can be
// told apart in pg_stat_activity.
const ListenerApplicationName = "primegames-listener"

// GameListener receives GameEventsChannel notifications on one dedicated connection (not one of
// the pool's, and straight to Postgres when DirectURL is set), and keeps that connection up: when it breaks (the database restarted, the backend
// was terminated, the network failed) it reconnects with exponential backoff.
type GameListener struct {
	// Connected is called each time LISTEN is in place, the first time and after every reconnect.
	// Notifications sent while there was no connection are lost, so this is when subscribers should
	// catch up from the history.
	Connected func()
	// Notice is called for each notification, in commit order, on the listener's goroutine.
	Notice func(GameNotice)
	// Failed is called when the connection could not be made or broke, with the time until the next
	// attempt.
	Failed func(err error, retryIn time.Duration)
	// Revoked, when set, is called for each AuthorityChannel notification, in commit order with
	// the others.
	Revoked func(live.Revocation)
	// SyncChannel, when set, is listened on too, and Synced called with each payload heard on it.
	SyncChannel string
	Synced      func(payload string)
	// WebhookQueued, when set, is called for each notification on WebhookChannel, and on connecting.
	WebhookQueued func()
	// pings, when set, are the barrier's pings for this connection to send (pingline.go).
	pings *pingLine

	// MinBackoff and MaxBackoff bound the wait between attempts (defaults 100ms and 5s).
	MinBackoff, MaxBackoff time.Duration
	// CheckEvery is how long the connection may stay silent before it is pinged (default 10s), so a
	// connection that died without a word, or went silent, is noticed within it and the ping's 5 s.
	CheckEvery time.Duration
}

// ListenGameEvents runs l until ctx is done or the DB is closed.
func (db *DB) ListenGameEvents(ctx context.Context, l GameListener) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(db.closed, cancel)()
	if l.MinBackoff <= 0 {
		l.MinBackoff = 100 * time.Millisecond
	}
	if l.MaxBackoff < l.MinBackoff {
		l.MaxBackoff = max(5*time.Second, l.MinBackoff)
	}
	if l.CheckEvery <= 0 {
		l.CheckEvery = 10 * time.Second
	}
	backoff := l.MinBackoff
	for ctx.Err() == nil {
		connected, err := db.listenOnce(ctx, l)
		if ctx.Err() != nil {
			return
		}
		if connected {
			backoff = l.MinBackoff
		}
		// Full jitter keeps the instances from reconnecting in step after a database restart.
		wait := backoff/2 + rand.N(backoff/2+1)
		if l.Failed != nil {
			l.Failed(err, wait)
		}
		backoff = min(2*backoff, l.MaxBackoff)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// listenOnce connects, listens and delivers notifications until the connection fails; connected
// reports whether LISTEN was in place at some point.
//
// Once LISTEN is in place the connection is taken over from pgx (Hijack): one goroutine reads
// every message Postgres sends, and the barrier's pings are written to it by whoever sends them
// (pingLine), each a NOTIFY in the simple protocol, without waiting for the answer. A ping thus
// costs a write and its share of the reads, with nothing to wake.
func (db *DB) listenOnce(ctx context.Context, l GameListener) (connected bool, err error) {
	cfg := db.directConfig()
	cfg.RuntimeParams["application_name"] = ListenerApplicationName
	connectCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgx.ConnectConfig(connectCtx, cfg)
	cancel()
	if err != nil {
		return false, fmt.Errorf("connecting: %w", err)
	}
	// The session writes nothing but pings: not worth a flush of the WAL each, and a flush held
	// under Postgres's notification lock would delay every notifying commit. Their place in the
	// commit order is the same.
	statements := []string{"SET synchronous_commit = off", "LISTEN " + pgx.Identifier{GameEventsChannel}.Sanitize()}
	if l.Revoked != nil {
		statements = append(statements, "LISTEN "+pgx.Identifier{AuthorityChannel}.Sanitize())
	}
	if l.SyncChannel != "" {
		statements = append(statements, "LISTEN "+pgx.Identifier{l.SyncChannel}.Sanitize())
	}
	if l.WebhookQueued != nil {
		statements = append(statements, "LISTEN "+pgx.Identifier{WebhookChannel}.Sanitize())
	}
	for _, statement := range statements {
		if _, err := conn.Exec(ctx, statement); err != nil {
			closeConn(conn)
			return false, fmt.Errorf("%s: %w", statement, err)
		}
	}
	// Notifications pgx read with the answers to LISTEN are kept by it: delivered first.
	var early []*pgconn.Notification
	expired, cancel := context.WithCancel(ctx)
	cancel() // pgx hands over what it keeps, then reads nothing more
	for {
		n, err := conn.WaitForNotification(expired)
		if err != nil || n == nil {
			break
		}
		early = append(early, n)
	}
	hijacked, err := conn.PgConn().Hijack()
	if err != nil {
		closeConn(conn)
		return false, fmt.Errorf("taking over the listening connection: %w", err)
	}
	netConn := hijacked.Conn
	w := &listenWriter{conn: netConn}
	defer w.close()
	// Ending ctx closes the connection, which ends the reads below.
	defer context.AfterFunc(ctx, w.close)()

	// Pings may go as soon as Connected lets readers use the records: the connection takes them
	// from now on, and they are read with the rest below.
	if l.pings != nil {
		l.pings.attach(w)
		defer l.pings.detach(w)
	}
	if l.Connected != nil {
		l.Connected()
	}
	if l.WebhookQueued != nil {
		l.WebhookQueued() // what was queued while not listening
	}
	for _, n := range early {
		l.deliver(n.Channel, n.Payload)
	}
	var heard atomic.Int64 // when a message last arrived, in Unix nanoseconds
	heard.Store(time.Now().UnixNano())
	watching := make(chan struct{})
	defer close(watching)
	go watchSilence(w, &heard, l.CheckEvery, watching)

	for {
		msg, err := hijacked.Frontend.Receive()
		if err != nil {
			if ctx.Err() != nil {
				return true, ctx.Err()
			}
			return true, fmt.Errorf("reading: %w", err)
		}
		heard.Store(time.Now().UnixNano())
		switch m := msg.(type) {
		case *pgproto3.NotificationResponse:
			l.deliver(m.Channel, m.Payload)
		case *pgproto3.ErrorResponse:
			// A ping refused (such as by a full notification queue) does not come back: the
			// barrier's round fails on its own, and the session goes on. A fatal error ends it.
			if m.Severity == "FATAL" || m.Severity == "PANIC" {
				return true, fmt.Errorf("the listening session ended: %s", m.Message)
			}
		}
	}
}

// watchSilence checks the listening connection when it has heard nothing for checkEvery: it sends
// an empty query, and closes the connection (so that the listener reconnects) when nothing has
// come back 5 s later. A connection that died without a word, or went silent, is so noticed.
func watchSilence(w *listenWriter, heard *atomic.Int64, checkEvery time.Duration, done <-chan struct{}) {
	timer := time.NewTimer(checkEvery)
	defer timer.Stop()
	var probed time.Time // when the outstanding check was sent; zero when none
	for {
		select {
		case <-done:
			return
		case <-timer.C:
		}
		last := time.Unix(0, heard.Load())
		switch {
		case !probed.IsZero() && !last.After(probed):
			_ = w.conn.Close() // no goodbye: the connection is silent
			return
		case time.Since(last) >= checkEvery:
			probed = time.Now()
			if err := w.write(emptyQuery); err != nil {
				_ = w.conn.Close()
				return
			}
			timer.Reset(5 * time.Second)
		default:
			probed = time.Time{}
			timer.Reset(checkEvery - time.Since(last))
		}
	}
}

// emptyQuery is the simple protocol's Query message of an empty string: Postgres answers it
// (EmptyQueryResponse, ReadyForQuery) and does nothing.
var emptyQuery = mustEncode(&pgproto3.Query{String: ""})

func mustEncode(m pgproto3.FrontendMessage) []byte {
	b, err := m.Encode(nil)
	if err != nil {
		panic(err)
	}
	return b
}

// listenWriter writes whole messages to the listening connection, one at a time.
type listenWriter struct {
	mu     sync.Mutex
	conn   net.Conn
	closed bool
}

func (w *listenWriter) write(msg []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.conn.Write(msg)
	return err
}

// close says goodbye to Postgres (as pgx would) and closes the connection; a second call does
// nothing but close it again. A write under way (a ping stuck on a dead connection) is not waited
// for: the connection is closed without a goodbye, which ends the write.
func (w *listenWriter) close() {
	if w.mu.TryLock() {
		if !w.closed {
			w.closed = true
			_ = w.conn.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = w.conn.Write(terminate)
		}
		w.mu.Unlock()
	}
	_ = w.conn.Close()
}

var terminate = mustEncode(&pgproto3.Terminate{})

func closeConn(conn *pgx.Conn) {
	closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Close(closeCtx)
}

// deliver hands one notification to the callback of its channel.
func (l *GameListener) deliver(channel, payload string) {
	switch {
	case channel == GameEventsChannel:
		if notice, ok := ParseGameNotice(payload); ok && l.Notice != nil {
			l.Notice(notice)
		}
	case channel == AuthorityChannel:
		if r, ok := ParseRevocation(payload); ok && l.Revoked != nil {
			l.Revoked(r)
		}
	case channel == l.SyncChannel && l.Synced != nil:
		l.Synced(payload)
	case channel == WebhookChannel && l.WebhookQueued != nil:
		l.WebhookQueued()
	}
}

// Listen runs the listening connection for a live.Hub until ctx is done. The same connection hears
// the changes of games' records and the barrier's pings for the record cache, which is trusted
// only while it is up.
func (db *DB) Listen(ctx context.Context, l live.Listener) {
	r := db.records
	gl := GameListener{
		Connected: l.Connected,
		Notice: func(n GameNotice) {
			if r != nil {
				r.changed(n.GameID, n.Version)
			}
			l.Notice(live.Notice{GameID: n.GameID, ClassroomID: n.ClassroomID, Version: n.Version})
		},
		Failed:        l.Failed,
		Revoked:       l.Revoked,
		WebhookQueued: db.webhookQueued,
	}
	if r != nil {
		gl.Connected = func() {
			r.listening(true)
			if l.Connected != nil {
				l.Connected()
			}
		}
		gl.Failed = func(err error, retryIn time.Duration) {
			r.listening(false)
			if l.Failed != nil {
				l.Failed(err, retryIn)
			}
		}
		gl.SyncChannel, gl.Synced, gl.pings = r.sync.channel, r.sync.arrived, db.pings
		defer r.listening(false)
	}
	db.ListenGameEvents(ctx, gl)
}
