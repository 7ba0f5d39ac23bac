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

// Stamp is the record's stamp.
func (r *GameRecord) Stamp() RecordStamp {
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

// Equal reports whether two stamps of a game's records stand for the same content.
func (a RecordStamp) Equal(b RecordStamp) bool {
	return a.Version == b.Version && slices.Equal(a.names, b.names) && a.deadline.Equal(b.deadline)
}
