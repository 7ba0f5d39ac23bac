package live

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A stream follows its holder's authority: once the token is revoked or rotated, its student
// removed, its seat left or its observer token revoked or expired, the stream sends nothing more but
// a last `revoked` event saying why, and ends. The database announces every such change on commit,
// in commit order with the games' changes, to every instance's listener (Revocation); the hub finds
// the streams concerned through an index from the authority's key to its streams (Hold), marks them
// revoked and wakes them. A stream checks the mark after each read, right before it writes, so an
// entry committed after the revocation never reaches it. As a backstop, every heartbeat and after
// each reconnect of the listener (notices may have been lost), the hub asks in one batch which of
// the authorities its streams hold have ended (Verify).

// AuthorityKey names one authority a stream's holder has: a token, a student, a seat's token in one
// game.
type AuthorityKey string

// TokenAuthority is the key of a token, by its hash: rotating, reissuing or revoking it ends it.
func TokenAuthority(hash []byte) AuthorityKey {
	return AuthorityKey("token:" + hex.EncodeToString(hash))
}

// StudentAuthority is the key of a classroom's student: removing or erasing the student ends it.
func StudentAuthority(studentID string) AuthorityKey { return AuthorityKey("student:" + studentID) }

// SeatAuthority is the key of a seat token in one game: leaving the seat ends it there.
func SeatAuthority(gameID string, hash []byte) AuthorityKey {
	return AuthorityKey("seat:" + gameID + ":" + hex.EncodeToString(hash))
}

// TeachingAuthority is the key of an account's teaching of a classroom as a co-teacher: removing
// the co-teacher ends it.
func TeachingAuthority(classroomID, accountID string) AuthorityKey {
	return AuthorityKey("teaching:" + classroomID + ":" + accountID)
}

// Token is the hash a TokenAuthority names.
func (k AuthorityKey) Token() ([]byte, bool) {
	text, ok := strings.CutPrefix(string(k), "token:")
	if !ok {
		return nil, false
	}
	hash, err := hex.DecodeString(text)
	return hash, err == nil
}

// Teaching is the classroom and account a TeachingAuthority names.
func (k AuthorityKey) Teaching() (classroomID, accountID string, ok bool) {
	text, ok := strings.CutPrefix(string(k), "teaching:")
	if !ok {
		return "", "", false
	}
	return strings.Cut(text, ":")
}

// Student is the student a StudentAuthority names.
func (k AuthorityKey) Student() (string, bool) { return strings.CutPrefix(string(k), "student:") }

// Why a stream's authority ended, as its `revoked` event says.
const (
	TokenRevoked    = "token_revoked" // the token no longer works (found out by asking again)
	TokenRotated    = "token_rotated" // the token was replaced by a new one (teacher rotation, student reissue)
	StudentRemoved  = "student_removed"
	StudentErased   = "student_erased"
	SeatLeft        = "seat_left"
	ObserverRevoked = "observer_revoked"
	ObserverExpired = "observer_expired"
	TeacherRemoved  = "teacher_removed" // a co-teacher removed from the classroom
)

// Revocation is a committed change that ends an authority.
type Revocation struct {
	Key    AuthorityKey
	Reason string
}

// recentRevocationsMax bounds the revocations the hub keeps for the streams that learn their
// authority only after they subscribed (Hold).
const recentRevocationsMax = 256

// revocationLog is the hub's last revocations, so that a stream that subscribed before it knew its
// authority finds those heard meanwhile.
type revocationLog struct {
	heard  uint64 // revocations heard so far
	recent []Revocation
}

// kept reports whether every revocation heard after the first `after` is still kept.
func (l *revocationLog) kept(after uint64) bool { return l.heard-after <= uint64(len(l.recent)) }

func (l *revocationLog) add(r Revocation) {
	l.heard++
	if len(l.recent) == recentRevocationsMax {
		l.recent = append(l.recent[:0], l.recent[1:]...)
	}
	l.recent = append(l.recent, r)
}

// Hold records that sub's holder has the authorities keys, so that their revocation ends it. A
// revocation the hub still keeps ends it at once (an authority once ended never comes back), so
// one heard between the stream's finding out whose it is and its Hold is not missed; when more
// were heard since it subscribed than are kept, it asks again. Call Hold once the stream knows
// whose it is and before it sends anything.
func (h *Hub) Hold(sub *Subscription, keys ...AuthorityKey) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.revocations.kept(sub.heard) {
		sub.askAgain()
	}
	for _, key := range keys {
		if h.authorities[key] == nil {
			h.authorities[key] = map[*Subscription]struct{}{}
		}
		h.authorities[key][sub] = struct{}{}
		sub.keys = append(sub.keys, key)
		for _, r := range h.revocations.recent {
			if r.Key == key {
				sub.revoke(r.Reason)
			}
		}
	}
}

// Revoke ends sub's authority for reason: it sends nothing more but its `revoked` event.
func (h *Hub) Revoke(sub *Subscription, reason string) { sub.revoke(reason) }

// revoked ends the streams that hold the authority r names.
func (h *Hub) revoked(r Revocation) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.revocations.add(r)
	for sub := range h.authorities[r.Key] {
		sub.revoke(r.Reason)
	}
}

// unhold forgets sub's authorities; h.mu is held.
func (h *Hub) unhold(sub *Subscription) {
	for _, key := range sub.keys {
		delete(h.authorities[key], sub)
		if len(h.authorities[key]) == 0 {
			delete(h.authorities, key)
		}
	}
}

// RevokedError ends a stream whose holder's authority has ended; a Step or Check returns it when
// it finds that out itself.
type RevokedError struct{ Reason string }

func (e *RevokedError) Error() string { return "the stream's authority has ended: " + e.Reason }

// Revoked is the error that ends a stream for reason.
func Revoked(reason string) error { return &RevokedError{Reason: reason} }

// revokedReason is the reason err carries, if it is a RevokedError.
func revokedReason(err error) (string, bool) {
	var re *RevokedError
	if errors.As(err, &re) {
		return re.Reason, true
	}
	return "", false
}

// heardVersionsMax bounds the games whose last heard version the hub keeps; beyond it they are all
// forgotten, which costs the streams of those games one check each.
const heardVersionsMax = 10_000

// heardVersions keeps, per game, the last version whose notice the hub has passed on, while the
// listener listens.
type heardVersions struct {
	mu     sync.Mutex
	byGame map[string]int64
}

func (hv *heardVersions) record(gameID string, version int64) {
	hv.mu.Lock()
	defer hv.mu.Unlock()
	if hv.byGame == nil || len(hv.byGame) >= heardVersionsMax {
		hv.byGame = map[string]int64{}
	}
	if version > hv.byGame[gameID] {
		hv.byGame[gameID] = version
	}
}

// reset forgets every game: the listener connected or broke, and notices may have been lost.
func (hv *heardVersions) reset() {
	hv.mu.Lock()
	defer hv.mu.Unlock()
	hv.byGame = nil
}

// Heard reports whether the hub has passed on the notices of game gameID up to its version
// `version`, and so every revocation committed before it: a stream that writes what a read of
// that version shows may then trust its revoked flag, and must otherwise check (Source.Check).
// Nothing is heard while the listener is down, nor after it reconnects until the authorities held
// have been checked again.
func (h *Hub) Heard(gameID string, version int64) bool {
	if h.deaf.Load() || !h.verifier.verified.Load() {
		return false
	}
	h.heard.mu.Lock()
	defer h.heard.mu.Unlock()
	heard, ok := h.heard.byGame[gameID]
	return ok && heard >= version
}

// verifyBatch bounds the authorities one question of Verify names.
const verifyBatch = 1000

// EndedAuthorities finds, among authorities, those that have ended, with why.
type EndedAuthorities func(ctx context.Context, authorities []AuthorityKey) ([]Revocation, error)

// verifier asks, every heartbeat and after each reconnect of the listener, which of the
// authorities the hub's streams hold have ended: one question per batch of authorities for the
// whole instance, not one per stream.
type verifier struct {
	ended EndedAuthorities
	// verified is set once the authorities have been checked since the listener last connected:
	// revocations it may have missed are then found.
	verified atomic.Bool
	// connects counts the listener's connections, so that a check that began before the last one
	// does not count for it.
	connects atomic.Uint64
	now      chan struct{} // a check is wanted at once
	loops    sync.WaitGroup
	failing  bool // only the loop's goroutine reads or sets it
}

// Verify makes the hub check the authorities its streams hold with ended, every heartbeat and
// after each reconnect of the listener. Call it before the listener starts. Without it, a hub
// trusts its notices alone.
func (h *Hub) Verify(ended EndedAuthorities) {
	h.verifier.ended = ended
	h.verifier.now = make(chan struct{}, 1)
}

func (v *verifier) reconnected() {
	v.connects.Add(1)
	if v.ended == nil {
		v.verified.Store(true)
		return
	}
	v.verified.Store(false)
	select {
	case v.now <- struct{}{}:
	default:
	}
}

// startVerifying starts the checks' loop, with the listener; h.mu is held.
func (h *Hub) startVerifying(ctx context.Context) {
	if h.verifier.ended == nil {
		return
	}
	h.verifier.loops.Add(1)
	go func() {
		defer h.verifier.loops.Done()
		tick := time.NewTicker(h.cfg.Heartbeat)
		defer tick.Stop()
		var retry <-chan time.Time // a failed check is tried again sooner than the next heartbeat
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			case <-retry:
			case <-h.verifier.now:
			}
			retry = nil
			if !h.verifyAll(ctx) {
				retry = time.After(min(retryMin, h.cfg.Heartbeat))
			}
		}
	}()
}

// verifyAll checks every authority the hub's streams hold, revoking those that have ended; it
// reports whether it could.
func (h *Hub) verifyAll(ctx context.Context) bool {
	v := &h.verifier
	connects := v.connects.Load()
	h.mu.Lock()
	keys := make([]AuthorityKey, 0, len(h.authorities))
	for key := range h.authorities {
		keys = append(keys, key)
	}
	h.mu.Unlock()
	for len(keys) > 0 {
		batch := keys[:min(len(keys), verifyBatch)]
		keys = keys[len(batch):]
		var ended []Revocation
		err := withReadTimeout(ctx, func(ctx context.Context) (err error) {
			ended, err = v.ended(ctx, batch)
			return err
		})
		if err != nil {
			if !v.failing && ctx.Err() == nil {
				h.logger.Warn("live updates: checking the streams' tokens failed; each stream checks its own before it writes", "error", err.Error())
			}
			v.failing = true
			return false
		}
		for _, r := range ended {
			h.revoked(r)
		}
	}
	v.failing = false
	if v.connects.Load() == connects && !h.deaf.Load() {
		v.verified.Store(true)
	}
	return true
}
