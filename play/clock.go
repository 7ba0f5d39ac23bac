package play

import "time"

// Clock is the time the service reasons about: the timestamps a game's changes record, a bot's due
// time, a turn's deadline (G-4), the age at which a game counts as abandoned or an Idempotency-Key
// expires, and the worker's waits for those times. Every such time is read from the service's
// clock and handed to the store, never taken from the database's now(), so that a test can put a
// clock of its own in (package playclock) and move it, instead of waiting for real deadlines.
//
// Timing that only keeps the machinery going (how often the worker looks for another instance's
// writes, how long it pauses before trying a game another worker holds) stays on the real clock.
type Clock interface {
	// Now is the clock's current time.
	Now() time.Time
	// Timer returns a channel that receives once the clock reads at or later (at once when it does
	// already), and stop, which releases the timer when its channel is no longer waited on.
	// Waiting for a time, rather than for a duration, loses nothing to a clock moved meanwhile.
	Timer(at time.Time) (c <-chan time.Time, stop func())
}

// SystemClock is the real clock, the default: deadlines and due times written by instances with
// the system clock agree as far as the instances' clocks do (keep them in sync, with NTP).
func SystemClock() Clock { return systemClock{} }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Timer(at time.Time) (<-chan time.Time, func()) {
	t := time.NewTimer(time.Until(at))
	return t.C, func() { t.Stop() }
}

// Clock is the clock the service reads.
func (s *Service) Clock() Clock { return s.clock }
