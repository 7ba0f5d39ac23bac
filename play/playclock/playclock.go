// Package playclock is a clock for tests of the game master (a play.Clock) that moves only when the
// test moves it: a turn's deadline, a bot's due time or a TTL passes at once, when the test says,
// instead of after real seconds. It is safe for concurrent use.
package playclock

import (
	"sync"
	"time"
)

// Clock is a clock that stands still until Advance or Set moves it.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	waiters map[*waiter]struct{}
}

type waiter struct {
	at time.Time
	c  chan time.Time
}

// New is a clock that reads start, cut to whole microseconds as Postgres keeps times (so that a time
// read back compares Equal to the clock's), until it is moved.
func New(start time.Time) *Clock {
	return &Clock{now: start.Truncate(time.Microsecond), waiters: map[*waiter]struct{}{}}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Timer returns a channel that receives once the clock reads at or later: at once when it does
// already, else when Advance or Set moves the clock there. stop releases the timer.
func (c *Clock) Timer(at time.Time) (<-chan time.Time, func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := &waiter{at: at, c: make(chan time.Time, 1)}
	if !at.After(c.now) {
		w.c <- c.now
		return w.c, func() {}
	}
	c.waiters[w] = struct{}{}
	return w.c, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.waiters, w)
	}
}

// Advance moves the clock on by d and fires the timers that are then due.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(c.now.Add(d))
	return c.now
}

// Set moves the clock to t, which must not be before its time, and fires the timers then due.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.set(t)
	}
}

// Waiting is how many timers wait for the clock to move.
func (c *Clock) Waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

func (c *Clock) set(t time.Time) {
	c.now = t
	for w := range c.waiters {
		if !w.at.After(t) {
			w.c <- t // buffered, and sent once
			delete(c.waiters, w)
		}
	}
}
