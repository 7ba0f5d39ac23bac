package play

import (
	"slices"
	"time"
)

// RecordStamp is what identifies the content of a game record, which anything kept of a record
// (a rendered body, a decoded value) is keyed by: its version, and the two things that change
// without a new version, the seat names (renaming a student renames their seats) and the turn
// deadline (the worker puts off a turn it could not play, or clears a stale deadline).
type RecordStamp struct {
	Version  int64
	names    []string
	deadline time.Time // zero when no clock runs
}

// Stamp is the record's stamp: the one the store gave with the record (Stamped) while the record
// still has that content, else worked out afresh.
func (r *GameRecord) Stamp() RecordStamp {
	if r.stamp != nil && r.stamp.of(r) {
		return *r.stamp
	}
	return r.freshStamp()
}

// Stamped gives the record its stamp, which the copies made of it from now on carry, so that
// those who read them need not work it out again (the store's record cache stamps what it keeps).
// The record must not be shared with another goroutine yet.
func (r *GameRecord) Stamped() *GameRecord {
	stamp := r.freshStamp()
	r.stamp = &stamp
	return r
}

func (r *GameRecord) freshStamp() RecordStamp {
	names := make([]string, len(r.Seats))
	for i, s := range r.Seats {
		names[i] = s.Name
	}
	stamp := RecordStamp{Version: r.Version, names: names}
	if r.TurnDeadline != nil {
		stamp.deadline = *r.TurnDeadline
	}
	return stamp
}

// of reports whether the stamp is the record's as it is now: a record changed since it was
// stamped (a transaction's SaveState moves its version on, a put-off turn its deadline) is not.
func (a *RecordStamp) of(r *GameRecord) bool {
	if a.Version != r.Version || len(a.names) != len(r.Seats) {
		return false
	}
	if r.TurnDeadline == nil {
		if !a.deadline.IsZero() {
			return false
		}
	} else if !a.deadline.Equal(*r.TurnDeadline) {
		return false
	}
	for i, s := range r.Seats {
		if a.names[i] != s.Name {
			return false
		}
	}
	return true
}

// Equal reports whether two stamps of a game's records stand for the same content.
func (a RecordStamp) Equal(b RecordStamp) bool {
	return a.Version == b.Version && slices.Equal(a.names, b.names) && a.deadline.Equal(b.deadline)
}
