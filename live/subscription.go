package live

import "sync"

// Topic is what a stream follows: one game, or every game of a classroom. A player's stream
// follows several (Follow).
type Topic string

// GameTopic is the topic of a game's stream.
func GameTopic(id string) Topic { return Topic("game:" + id) }

// ClassroomTopic is the topic of a classroom's stream.
func ClassroomTopic(id string) Topic { return Topic("classroom:" + id) }

// PlayerTopic is the first topic of a player's stream, named by the request, which nothing is
// announced on: once the stream knows whose it is, it follows the topics of the player's games.
func PlayerTopic(requestID string) Topic { return Topic("player:" + requestID) }

// everyGame, poked into a classroom's stream, means that any of its games may have news.
const everyGame = "*"

// Subscription is one open stream. Its wake channel holds at most one pending wake-up: the stream
// reads the history when it wakes, so wake-ups coalesce and nothing is buffered per stream beyond,
// for a classroom's stream, the set of its games that have news.
type Subscription struct {
	topic  string
	topics []string // every topic it follows, topic first
	wake   chan struct{}

	mu    sync.Mutex
	games map[string]struct{} // the games named by notices since the last look
	all   bool                // every game may have news (the listener reconnected)
	// notify, when set, is called after each wake-up, for a stream that waits on no channel
	// (Detach). It must not block: the hub calls it holding its lock.
	notify func()

	// keys are the authorities the stream's holder has (Hub.Hold); heard is how many revocations
	// the hub had heard when the stream subscribed. Both are the hub's, under its lock.
	keys  []AuthorityKey
	heard uint64
	// revokedFor, once set, is why the stream's authority ended: it sends nothing more but that.
	revokedFor string
	// recheck asks the stream to find out again whose it is before it sends anything more.
	recheck bool
	// ended is closed when the stream unsubscribes.
	ended chan struct{}
}

// Topic is what the stream follows (the first topic, for a stream that follows several).
func (sub *Subscription) Topic() Topic { return Topic(sub.topic) }

// Wake delivers the stream's pending wake-up.
func (sub *Subscription) Wake() <-chan struct{} { return sub.wake }

// poke wakes the stream; gameID, when not "", names the game with news, and everyGame means any.
func (sub *Subscription) poke(gameID string) {
	if gameID != "" {
		sub.mu.Lock()
		if gameID == everyGame {
			sub.all = true
		} else if !sub.all {
			sub.games[gameID] = struct{}{}
		}
		sub.mu.Unlock()
	}
	select {
	case sub.wake <- struct{}{}:
	default: // a wake-up is pending already
	}
	sub.mu.Lock()
	notify := sub.notify
	sub.mu.Unlock()
	if notify != nil {
		notify()
	}
}

// revoke marks the stream's authority ended for reason (the first reason stands) and wakes it.
func (sub *Subscription) revoke(reason string) {
	sub.mu.Lock()
	first := sub.revokedFor == ""
	if first {
		sub.revokedFor = reason
	}
	sub.mu.Unlock()
	if first {
		sub.poke("")
	}
}

// Revoked is why the stream's authority ended, or "" while it holds.
func (sub *Subscription) Revoked() string {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.revokedFor
}

// askAgain makes the stream find out again whose it is before it sends anything more.
func (sub *Subscription) askAgain() {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	sub.recheck = true
}

// takeRecheck reports, once, whether the stream was asked to find out again whose it is.
func (sub *Subscription) takeRecheck() bool {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	recheck := sub.recheck
	sub.recheck = false
	return recheck
}

// onWake sets what poke calls after each wake-up.
func (sub *Subscription) onWake(notify func()) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	sub.notify = notify
}

// News takes the games with news since the last call; all reports that every game may have some.
func (sub *Subscription) News() (games []string, all bool) {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	for g := range sub.games {
		games = append(games, g)
	}
	all, sub.all, sub.games = sub.all, false, map[string]struct{}{}
	return games, all
}
