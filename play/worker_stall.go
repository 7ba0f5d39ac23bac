package play

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// DefaultWorkerPassTimeout bounds one pass of the worker (a claim and its move, a timed-out turn,
// an abort): a pass that waits longer on the database, as on a connection gone silent, is given
// up, its transaction rolled back, and the next pass starts on a fresh connection.
const DefaultWorkerPassTimeout = 10 * time.Second

// workerPassTimeout is how long one pass of the worker may take.
func (s *Service) workerPassTimeout() time.Duration {
	if s.passTimeout <= 0 {
		return DefaultWorkerPassTimeout
	}
	return s.passTimeout
}

// workerPass runs one pass of the worker within its time. stalled reports whether the pass ran out
// of it.
func (s *Service) workerPass(ctx context.Context, pass func(context.Context) (bool, error)) (acted, stalled bool, err error) {
	passCtx, cancel := context.WithTimeout(ctx, s.workerPassTimeout())
	defer cancel()
	acted, err = pass(passCtx)
	stalled = ctx.Err() == nil && errors.Is(passCtx.Err(), context.DeadlineExceeded)
	if stalled && err == nil {
		err = passCtx.Err()
	}
	return acted, stalled, err
}

// stallWatch logs a stall of the worker once, as an error saying what was stuck; the passes that
// run out of time after it only at debug level; and the first pass that succeeds again, with how
// long the stall lasted.
type stallWatch struct {
	logger  *slog.Logger
	timeout time.Duration
	since   time.Time // the stall's start, in real time; zero when the worker is not stalled
}

func (w *stallWatch) stalled(err error) {
	if w.since.IsZero() {
		w.since = time.Now()
		w.logger.Error("the worker is stalled: a pass waited on the database longer than it may",
			"pass_timeout", w.timeout.String(), "stuck", err.Error())
		return
	}
	w.logger.Debug("the worker is still stalled", "since", w.since, "stuck", err.Error())
}

func (w *stallWatch) passed() {
	if w.since.IsZero() {
		return
	}
	w.logger.Info("the worker moves again", "stalled_for", time.Since(w.since).Round(time.Millisecond).String())
	w.since = time.Time{}
}
