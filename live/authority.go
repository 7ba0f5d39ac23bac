package live

import (
	"encoding/hex"
	"errors"
	"sync"
)

// A stream follows its holder's authority: once the token is revoked or rotated, its student
// removed, its seat left or its observer token revoked or expired, the stream sends nothing more but
// a last `revoked` event saying why, and ends. The database announces every such change on commit,
// in commit order with the games' changes, to every instance's listener (Revocation); the hub finds
// the streams concerned through an index from the authority's key to its streams (Hold), marks them
// revoked and wakes them. A stream checks the mark after each read, right before it writes, so an
// entry committed after the revocation never reaches it. When notices may have been lost (the
// listener reconnected) or on the heartbeat, a stream asks again whose it is (Source.Check).

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

// Why a stream's authority ended, as its `revoked` event says.
const (
	TokenRevoked    = "token_revoked" // the token no longer works (found out by asking again)
	TokenRotated    = "token_rotated" // the token was replaced by a new one (teacher rotation, student reissue)
	StudentRemoved  = "student_removed"
	StudentErased   = "student_erased"
	SeatLeft        = "seat_left"
	ObserverRevoked = "observer_revoked"
	ObserverExpired = "observer_expired"
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
func (h *Hub) Heard(gameID string, version int64) bool {
	if h.deaf.Load() {
		return false
	}
	h.heard.mu.Lock()
	defer h.heard.mu.Unlock()
	heard, ok := h.heard.byGame[gameID]
	return ok && heard >= version
}
