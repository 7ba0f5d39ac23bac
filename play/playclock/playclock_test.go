package playclock_test

import (
	"testing"
	"time"

	"primegames/play"
	"primegames/play/playclock"
)

var _ play.Clock = (*playclock.Clock)(nil)

func fired(c <-chan time.Time) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// A timer fires when the clock is moved to its time, not before; one for a time already passed
// fires at once; a stopped one never does.
func TestTimersFireWhenTheClockGetsThere(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 2, 3, 4, 5, 6789, time.UTC)
	clock := playclock.New(start)
	if !clock.Now().Equal(start.Truncate(time.Microsecond)) {
		t.Fatalf("Now = %s, want the start in whole microseconds", clock.Now())
	}
	at := clock.Now().Add(3 * time.Second)
	due, _ := clock.Timer(at)
	stopped, stop := clock.Timer(at)
	stop()
	if past, _ := clock.Timer(clock.Now()); !fired(past) {
		t.Error("a timer for now did not fire at once")
	}
	clock.Advance(3*time.Second - time.Nanosecond)
	if fired(due) || clock.Waiting() != 1 {
		t.Fatalf("fired before its time, or %d timers waiting, want 1", clock.Waiting())
	}
	clock.Advance(time.Nanosecond)
	if !fired(due) || fired(stopped) || clock.Waiting() != 0 {
		t.Fatalf("at its time: the timer did not fire, the stopped one did, or %d still wait", clock.Waiting())
	}
	clock.Set(start) // never backwards
	if !clock.Now().Equal(at) {
		t.Errorf("Set to an earlier time moved the clock to %s", clock.Now())
	}
}
