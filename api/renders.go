package api

import (
	"context"
	"runtime"

	"primegames/domain"
)

// defaultRenderQueue is how many expensive requests may wait for a render slot by default.
const defaultRenderQueue = 32

// renderGate bounds the requests whose work grows with a game's or a classroom's size (pictures,
// replays, states rebuilt from the history, reviews, class statistics): at most limit run at once,
// at most queue more wait for one of them to finish, and any beyond are refused at once with 503
// renders_busy and Retry-After. A waiting request costs a goroutine and its connection, nothing
// more; the running ones hold the CPU and memory, so these never take more than limit of the
// instance's cores from the cheap requests of people playing.
type renderGate struct {
	limit, queue int
	running      chan struct{}
	waiting      chan struct{}
	// waited, when set (by tests), is called when a request starts to wait for a slot.
	waited func()
}

// newRenderGate makes the gate; limit 0 takes half the cores (at least one), queue 0 the default
// and a negative queue none.
func newRenderGate(limit, queue int) *renderGate {
	if limit <= 0 {
		limit = max(1, runtime.GOMAXPROCS(0)/2)
	}
	switch {
	case queue == 0:
		queue = defaultRenderQueue
	case queue < 0:
		queue = 0
	}
	return &renderGate{limit: limit, queue: queue, running: make(chan struct{}, limit), waiting: make(chan struct{}, max(queue, 1))}
}

// RenderBusyFacts are the facts of a renders_busy refusal.
type RenderBusyFacts struct {
	Limit int `json:"limit"`
	Queue int `json:"queue"`
}

// enter takes a render slot, waiting in the queue while there is room in it; release gives the slot
// back. It fails with renders_busy when the queue is full, and with ctx's error when the client
// leaves while waiting.
func (g *renderGate) enter(ctx context.Context) (release func(), err error) {
	release = func() { <-g.running }
	select {
	case g.running <- struct{}{}:
		return release, nil
	default:
	}
	if g.queue == 0 {
		return nil, g.busy()
	}
	select {
	case g.waiting <- struct{}{}:
	default:
		return nil, g.busy()
	}
	defer func() { <-g.waiting }()
	if g.waited != nil {
		g.waited()
	}
	select {
	case g.running <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *renderGate) busy() error {
	err := domain.Errorf(domain.KindUnavailable, "renders_busy",
		"This server is drawing or rebuilding as many games as it may at once (%d, and %d waiting); try again after the Retry-After seconds.", g.limit, g.queue)
	err.Facts = RenderBusyFacts{Limit: g.limit, Queue: g.queue}
	return err
}
