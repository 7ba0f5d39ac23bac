package repo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

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
	// SyncChannel, when set, is listened on too, and Synced called with each payload heard on it.
	SyncChannel string
	Synced      func(payload string)
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
func (db *DB) listenOnce(ctx context.Context, l GameListener) (connected bool, err error) {
	cfg := db.directConfig()
	cfg.RuntimeParams["application_name"] = ListenerApplicationName
	connectCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	conn, err := pgx.ConnectConfig(connectCtx, cfg)
	cancel()
	if err != nil {
		return false, fmt.Errorf("connecting: %w", err)
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = conn.Close(closeCtx)
	}()
	channels := []string{GameEventsChannel}
	if l.SyncChannel != "" {
		channels = append(channels, l.SyncChannel)
	}
	for _, channel := range channels {
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
			return false, fmt.Errorf("LISTEN %s: %w", channel, err)
		}
	}
	if l.Connected != nil {
		l.Connected()
	}
	line := l.pings
	if line == nil {
		line = &pingLine{}
	}
	defer context.AfterFunc(ctx, line.wake)()
	netConn := conn.PgConn().Conn()
	for {
		if channel, payload, ok := line.take(); ok {
			if err := sendPing(ctx, conn, channel, payload); err != nil {
				return true, err
			}
			continue
		}
		n, err := waitForNotification(ctx, conn, line, l.CheckEvery)
		switch {
		case err == nil && n != nil:
			l.deliver(n.Channel, n.Payload)
		case err == nil: // woken early: a ping to send, perhaps
		case ctx.Err() != nil:
			return true, ctx.Err()
		case isTimeout(err) && !conn.IsClosed():
			_ = netConn.SetDeadline(time.Time{})
			pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
			err = conn.Ping(pingCtx)
			cancel()
			if err != nil {
				return true, fmt.Errorf("ping: %w", err)
			}
		default:
			return true, err
		}
	}
}

// waitForNotification returns the next notification conn hears within silence; or nil and no
// error when the read was woken early (line's ping to send, or another listener's wake); or the
// read's error: a timeout when the connection stayed silent, or ctx ended.
func waitForNotification(ctx context.Context, conn *pgx.Conn, line *pingLine, silence time.Duration) (*pgconn.Notification, error) {
	netConn := conn.PgConn().Conn()
	// The deadline is set before the read is marked blocking, so a wake (which moves it to the
	// past once marked) is never overwritten; ctx is checked after, so its end is never missed.
	deadline := time.Now().Add(silence)
	if err := netConn.SetReadDeadline(deadline); err != nil {
		return nil, err
	}
	if !line.block(netConn) {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		line.unblock(netConn)
		return nil, err
	}
	n, err := conn.WaitForNotification(context.Background())
	line.unblock(netConn)
	if err != nil && isTimeout(err) && ctx.Err() == nil && time.Now().Before(deadline) {
		return nil, nil
	}
	return n, err
}

// sendPing sends one of the barrier's pings on the listening connection; notifications heard
// meanwhile (the ping itself among them, usually) are kept by conn for the next wait.
func sendPing(ctx context.Context, conn *pgx.Conn, channel, payload string) error {
	if err := conn.PgConn().Conn().SetDeadline(time.Now().Add(pingTimeout)); err != nil {
		return err
	}
	if _, err := conn.Exec(ctx, pingSQL, channel, payload); err != nil {
		return fmt.Errorf("sending the barrier's ping: %w", err)
	}
	return nil
}

func isTimeout(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) && netErr.Timeout()
}

// deliver hands one notification to the callback of its channel.
func (l *GameListener) deliver(channel, payload string) {
	switch {
	case channel == GameEventsChannel:
		if notice, ok := ParseGameNotice(payload); ok && l.Notice != nil {
			l.Notice(notice)
		}
	case channel == l.SyncChannel && l.Synced != nil:
		l.Synced(payload)
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
			l.Notice(live.Notice{GameID: n.GameID, ClassroomID: n.ClassroomID})
		},
		Failed: l.Failed,
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
