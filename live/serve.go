package live

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"primegames/domain"
)

const (
	// readTimeout bounds one read of the history by a stream.
	readTimeout = 10 * time.Second
	// retryMin and retryMax bound the backoff of a stream whose database is unreachable.
	retryMin = time.Second
	retryMax = 15 * time.Second
)

// ErrClientGone marks a failed write to the client: it left, or reads too slowly. The stream ends.
var ErrClientGone = errors.New("writing to the client failed")

// Source is what one stream reads: Open finds what the stream is of and whether the caller may have
// it (and Holds the caller's authorities); Step sends what is new since the last step, and reports
// when the stream is over; Check, when set, finds out again whether the caller still may have it,
// returning a RevokedError when not.
type Source struct {
	Open  func(ctx context.Context) error
	Step  func(ctx context.Context) (over bool, err error)
	Check func(ctx context.Context) error
}

// Conn is the stream's connection to its client.
type Conn interface {
	// Begin answers the request with an open stream.
	Begin() error
	// Heartbeat tells the client the stream is alive.
	Heartbeat() error
	// Refuse sends a refusal found out once the stream is open; the stream then ends.
	Refuse(err error) error
	// ReadFailed reports a read that failed for another reason than a refusal; it will be retried.
	ReadFailed(err error)
	// Revoked sends the stream's last event, which says why its holder's authority ended.
	Revoked(reason string) error
}

// Serve runs a stream: it opens src and answers, then steps src at once and each time sub is woken,
// with a heartbeat when nothing happens, until a step reports the stream over, ctx is done or the
// server shuts down. Heartbeats do not touch the database.
//
// A refusal (a domain error: the game is missing, the token is wrong) found before the stream is
// open is returned, to be answered with its status. Any other failure to read, most often a
// database that cannot be reached, is waited out: the stream opens anyway (EventSource gives up on
// any other status than 200), and reads again when woken (the listener wakes every stream when it
// reconnects) or after a backoff. A stream resumes from the last event it sent, so nothing is lost or
// repeated. A refusal found out once the stream is open is sent with Refuse, and the stream ends:
// the client's reconnection then gets its status.
func (h *Hub) Serve(ctx context.Context, sub *Subscription, src Source, conn Conn) error {
	st, err := h.Begin(ctx, sub, src, conn)
	if st != nil {
		st.Run(ctx)
	}
	return err
}

// Stream is a stream that Begin opened, for Run to carry on.
type Stream struct {
	hub    *Hub
	sub    *Subscription
	src    Source
	conn   Conn
	opened bool
	retry  backoff
}

// Begin does the first part of Serve: it opens src, answers and sends what there is to send. It
// returns the stream to Run, or nil when the stream is over already (or the client gone); a refusal
// found before the stream is open is returned as Serve returns it. Begin and Run may run on
// different goroutines, one after the other.
func (h *Hub) Begin(ctx context.Context, sub *Subscription, src Source, conn Conn) (*Stream, error) {
	err := withReadTimeout(ctx, src.Open)
	if IsRefusal(err) {
		return nil, err
	}
	st := &Stream{hub: h, sub: sub, src: src, conn: conn, opened: err == nil}
	if err := conn.Begin(); err != nil {
		return nil, nil
	}
	if !st.opened {
		conn.ReadFailed(err)
		st.retry.schedule()
		return st, nil
	}
	if st.step(ctx) {
		return nil, nil
	}
	return st, nil
}

// Run carries the stream on until a step reports it over, ctx is done or the server shuts down.
func (st *Stream) Run(ctx context.Context) {
	defer st.retry.stop()
	heartbeat := time.NewTicker(st.hub.cfg.Heartbeat)
	defer heartbeat.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-st.hub.stopping:
			return
		case <-st.sub.wake:
		case <-st.retry.due():
		case <-heartbeat.C:
			if err := st.conn.Heartbeat(); err != nil {
				return
			}
			continue
		}
		if st.step(ctx) {
			return
		}
	}
}

// step reads and sends what is new; it reports whether the stream is over. A stream whose
// authority has ended, or may have (Hold could not tell), sends nothing before it has found out.
func (st *Stream) step(ctx context.Context) (over bool) {
	if st.opened && st.sub.takeRecheck() {
		if over, checked := st.check(ctx); over || !checked {
			return over
		}
	}
	if st.endIfRevoked() {
		return true
	}
	over, err := advance(ctx, st.src, &st.opened)
	if reason, ok := revokedReason(err); ok {
		st.sub.revoke(reason)
	}
	if st.endIfRevoked() {
		return true
	}
	switch {
	case over || ctx.Err() != nil || errors.Is(err, ErrClientGone):
		st.retry.stop()
		return true
	case err == nil:
		st.retry.stop()
	case IsRefusal(err):
		st.retry.stop()
		_ = st.conn.Refuse(err)
		return true
	default:
		st.conn.ReadFailed(err)
		st.retry.schedule()
	}
	return false
}

// check runs the source's Check: it reports whether the stream is over (its authority ended, or
// it was refused) and whether the check could be made. One that could not is made again before the
// next step.
func (st *Stream) check(ctx context.Context) (over, checked bool) {
	if st.src.Check == nil {
		return st.endIfRevoked(), true
	}
	err := withReadTimeout(ctx, st.src.Check)
	if reason, ok := revokedReason(err); ok {
		st.sub.revoke(reason)
	}
	switch {
	case st.endIfRevoked():
		return true, true
	case err == nil:
		return false, true
	case ctx.Err() != nil:
		return true, false
	case IsRefusal(err):
		st.retry.stop()
		_ = st.conn.Refuse(err)
		return true, true
	default:
		st.sub.askAgain()
		st.conn.ReadFailed(err)
		st.retry.schedule()
		return false, false
	}
}

// endIfRevoked sends the last event of a stream whose authority has ended; it reports whether it
// has.
func (st *Stream) endIfRevoked() bool {
	reason := st.sub.Revoked()
	if reason == "" {
		return false
	}
	st.retry.stop()
	_ = st.conn.Revoked(reason)
	return true
}

// RevokeAt ends sub's authority for reason once at fires (an observer token that expires), unless
// the stream ends first; stop releases the timer.
func (h *Hub) RevokeAt(sub *Subscription, reason string, at <-chan time.Time, stop func()) {
	go func() {
		defer stop()
		select {
		case <-at:
			sub.revoke(reason)
		case <-sub.ended:
		case <-h.stopping:
		}
	}()
}

// IsRefusal reports whether err is an answer about the request (a domain error), as opposed to a
// failure to find one out.
func IsRefusal(err error) bool {
	var de *domain.Error
	return errors.As(err, &de)
}

// advance opens src unless it is open, then steps it.
func advance(ctx context.Context, src Source, opened *bool) (over bool, err error) {
	if !*opened {
		if err := withReadTimeout(ctx, src.Open); err != nil {
			return false, err
		}
		*opened = true
	}
	err = withReadTimeout(ctx, func(ctx context.Context) error {
		over, err = src.Step(ctx)
		return err
	})
	return over, err
}

// withReadTimeout bounds the reads of read by readTimeout, so that a database that stopped
// answering without closing the connection holds up a stream's heartbeats for that long at most.
func withReadTimeout(ctx context.Context, read func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	return read(ctx)
}

// backoff times the next read of a stream whose last read failed: after 1 s, then twice as long
// each time up to 15 s, with jitter so that the streams of an instance do not all retry at once.
type backoff struct {
	delay time.Duration
	timer *time.Timer
	// fire, when set, is called when the retry is due, instead of due firing.
	fire func()
}

func (b *backoff) schedule() {
	if b.timer != nil {
		b.timer.Stop()
	}
	b.delay = min(max(2*b.delay, retryMin), retryMax)
	b.start(b.delay/2 + rand.N(b.delay/2+1))
}

func (b *backoff) start(d time.Duration) {
	if b.fire != nil {
		b.timer = time.AfterFunc(d, b.fire)
	} else {
		b.timer = time.NewTimer(d)
	}
}

// callback makes the retries call fire when due, the pending one included (timed afresh).
func (b *backoff) callback(fire func()) {
	b.fire = fire
	if b.timer != nil {
		b.timer.Stop()
		b.start(b.delay / 2)
	}
}

// stop cancels the pending retry, if any, and starts the backoff over.
func (b *backoff) stop() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.delay = 0
}

// due fires when the pending retry is due; without one, never.
func (b *backoff) due() <-chan time.Time {
	if b.timer == nil || b.fire != nil {
		return nil
	}
	return b.timer.C
}
