package webhooks

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeQueue is an in-memory Queue with the store's claiming rules: every subscription's
// first delivery before any's second, healthy subscriptions before failing ones, at most
// PerSubscription in flight each and Failing of the claim for failing subscriptions.
type fakeQueue struct {
	mu       sync.Mutex
	pending  []Delivery
	leased   map[int64]bool
	inFlight map[string]int
	next     int64
}

func newFakeQueue() *fakeQueue {
	return &fakeQueue{leased: map[int64]bool{}, inFlight: map[string]int{}}
}

func (q *fakeQueue) add(subscription, url string, failing bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.next++
	q.pending = append(q.pending, Delivery{ID: q.next, WebhookID: fmt.Sprint("msg_", q.next), SubscriptionID: subscription,
		URL: url, Failing: failing, Payload: []byte("{}"), CreatedAt: time.Now()})
}

func (q *fakeQueue) ClaimDeliveries(_ context.Context, _ time.Time, _ time.Duration, c Claim) ([]Delivery, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var claimed []Delivery
	failing := 0
	for _, wantFailing := range []bool{false, true} {
		for round := 0; round < c.PerSubscription; round++ {
			took := map[string]bool{}
			for _, d := range q.pending {
				if len(claimed) == c.Limit || q.leased[d.ID] || d.Failing != wantFailing || took[d.SubscriptionID] ||
					q.inFlight[d.SubscriptionID] >= c.PerSubscription || (d.Failing && failing == c.Failing) {
					continue
				}
				took[d.SubscriptionID], q.leased[d.ID] = true, true
				q.inFlight[d.SubscriptionID]++
				if d.Failing {
					failing++
				}
				d.Attempts++
				claimed = append(claimed, d)
			}
		}
	}
	return claimed, nil
}

func (q *fakeQueue) DeliveryDone(_ context.Context, d *Delivery, _ time.Time, _ Outcome) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.inFlight[d.SubscriptionID]--
	delete(q.leased, d.ID)
	for i := range q.pending {
		if q.pending[i].ID == d.ID {
			q.pending = append(q.pending[:i], q.pending[i+1:]...)
			break
		}
	}
	return nil
}

func (q *fakeQueue) NextWebhookDue(context.Context) (*time.Time, error) { return nil, nil }

// fakeSender hangs on "hang" URLs until released, and answers 204 at once to the others, telling
// delivered.
type fakeSender struct {
	hanging   atomic.Int32
	hung      chan struct{} // hears of each send that starts to hang
	release   chan struct{}
	delivered chan string
}

func (s *fakeSender) CheckURL(string) error { return nil }

func (s *fakeSender) Send(ctx context.Context, url string, h Headers, _ []byte) (int, error) {
	if url == "hang" {
		s.hanging.Add(1)
		s.hung <- struct{}{}
		select {
		case <-s.release:
		case <-ctx.Done():
		}
		return 0, fmt.Errorf("no answer within the timeout")
	}
	s.delivered <- h.ID
	return 204, nil
}

// runLoop runs a sender's loop on q until the test ends (the hanging sends released first).
func runLoop(t *testing.T, q *fakeQueue, cfg Config) (*fakeSender, chan<- struct{}) {
	t.Helper()
	sender := &fakeSender{hung: make(chan struct{}, 100), release: make(chan struct{}), delivered: make(chan string, 100)}
	wake := make(chan struct{}, 1)
	l := &Loop{Queue: q, Sender: sender, Config: cfg, Clock: systemClock{}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		FanOut: func(context.Context) (bool, error) { return false, nil }, Wake: wake,
		MayDeliver: func(_ context.Context, d *Delivery) ([][]byte, bool, error) { return [][]byte{d.Secret}, true, nil }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); l.Run(ctx) }()
	t.Cleanup(func() { close(sender.release); cancel(); <-done })
	return sender, wake
}

// awaitHanging waits until n sends have started to hang.
func awaitHanging(t *testing.T, s *fakeSender, n int) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for i := range n {
		select {
		case <-s.hung:
		case <-timeout:
			t.Fatalf("waited in vain for %d hanging sends: %d", n, i)
		}
	}
}

// Receivers that failed before and hang again hold half of the slots at most: with 8 slots and 64
// of them, 4 hang and a healthy subscriber's delivery goes out while they do.
func TestFailingReceiversHoldHalfOfTheSendersSlotsAtMost(t *testing.T) {
	t.Parallel()
	q := newFakeQueue()
	for i := range 64 {
		q.add(fmt.Sprint("hanging", i), "hang", true)
	}
	q.add("honest", "https://honest.example/", false)
	cfg := DefaultConfig
	cfg.Concurrency, cfg.Poll = 8, time.Hour
	sender, _ := runLoop(t, q, cfg)
	select {
	case <-sender.delivered:
	case <-time.After(30 * time.Second):
		t.Fatal("the healthy delivery did not go out")
	}
	awaitHanging(t, sender, 4)
	if n := sender.hanging.Load(); n != 4 {
		t.Fatalf("%d hanging sends, want 4 (half of 8 slots)", n)
	}
}

// The sender does not wait for a batch: while the sends it started first hang, a delivery queued
// later (the wake says so) goes out; and one subscription never has more than
// PerSubscription in flight.
func TestTheSenderStartsEachDeliveryWithoutWaitingForOthers(t *testing.T) {
	t.Parallel()
	q := newFakeQueue()
	for range 10 {
		q.add("hanging", "hang", false)
	}
	for i := range 5 {
		q.add(fmt.Sprint("hanging", i), "hang", false)
	}
	cfg := DefaultConfig
	cfg.Concurrency, cfg.Poll = 16, time.Hour
	sender, wake := runLoop(t, q, cfg)
	awaitHanging(t, sender, PerSubscription+5)
	for i := range 3 {
		q.add("honest", "https://honest.example/", false)
		wake <- struct{}{}
		select {
		case <-sender.delivered:
		case <-time.After(30 * time.Second):
			t.Fatalf("delivery %d did not go out while others hang", i)
		}
	}
	if n := sender.hanging.Load(); n != PerSubscription+5 {
		t.Fatalf("%d hanging sends, want %d", n, PerSubscription+5)
	}
}

// systemClock is the real clock.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

func (systemClock) Timer(at time.Time) (<-chan time.Time, func()) {
	t := time.NewTimer(time.Until(at))
	return t.C, func() { t.Stop() }
}
