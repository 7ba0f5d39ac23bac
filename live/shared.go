package live

import (
	"context"
	"errors"
	"sync"
)

// sharedReadsMax bounds the reads kept for sharing: each holds what one read of a game's history
// returned, at most a batch of entries and the game.
const sharedReadsMax = 64

// sharedReads lets the streams woken by one notice read the game once: the first stream to ask
// for what follows a given entry of a game reads it, the others who ask for the same get what it
// read, until the next notice of that game makes it stale. What is shared is always at least as
// new as the last notice of its game that the hub has passed on: a read is registered before it
// starts, and a notice forgets the game's reads before it wakes the streams, so a stream that gets
// a read made before a change it does not show is woken by that change's notice and reads again.
// While the listener is down (notices may be lost), nothing is shared.
type sharedReads struct {
	mu        sync.Mutex
	listening bool
	byGame    map[string]map[int64]*sharedRead
	count     int
}

type sharedRead struct {
	done  chan struct{}
	value any
	err   error
}

// ReadShared returns what read returns for the entries of gameID after seq `after`, reading it
// once for every stream that asks for the same between two notices of the game (see sharedReads).
// read runs on the goroutine of the first to ask, under the read timeout of a stream and a context
// that its caller's end does not cancel (the others wait for it); its value must not be changed by
// anyone once returned.
func (h *Hub) ReadShared(ctx context.Context, gameID string, after int64, read func(context.Context) (any, error)) (any, error) {
	sr := &h.shared
	sr.mu.Lock()
	if !sr.listening {
		sr.mu.Unlock()
		return read(ctx)
	}
	if r := sr.byGame[gameID][after]; r != nil {
		sr.mu.Unlock()
		select {
		case <-r.done:
			return r.value, r.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	r := &sharedRead{done: make(chan struct{}), err: errSharedReadPanicked}
	sr.add(gameID, after, r)
	sr.mu.Unlock()
	defer func() { // also when read panics: those waiting for it must not wait forever
		close(r.done)
		if r.err != nil {
			sr.mu.Lock()
			if sr.byGame[gameID][after] == r {
				delete(sr.byGame[gameID], after)
				sr.count--
			}
			sr.mu.Unlock()
		}
	}()
	r.err = withReadTimeout(context.WithoutCancel(ctx), func(ctx context.Context) (err error) {
		r.value, err = read(ctx)
		return err
	})
	return r.value, r.err
}

var errSharedReadPanicked = errors.New("the read shared with this stream panicked")

func (sr *sharedReads) add(gameID string, after int64, r *sharedRead) {
	if sr.count >= sharedReadsMax {
		for g := range sr.byGame { // any game's reads make room
			sr.forgetLocked(g)
			break
		}
	}
	if sr.byGame[gameID] == nil {
		sr.byGame[gameID] = map[int64]*sharedRead{}
	}
	sr.byGame[gameID][after] = r
	sr.count++
}

// forget drops the reads of a game that has news.
func (sr *sharedReads) forget(gameID string) {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	sr.forgetLocked(gameID)
}

func (sr *sharedReads) forgetLocked(gameID string) {
	sr.count -= len(sr.byGame[gameID])
	delete(sr.byGame, gameID)
}

// listen drops every read and shares from now on (the listener connected: every stream reads
// again), or, with false, stops sharing (notices may be lost).
func (sr *sharedReads) listen(on bool) {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	sr.byGame, sr.count, sr.listening = map[string]map[int64]*sharedRead{}, 0, on
}
