package play

import (
	"context"
	"errors"
	"time"
)

// keptRecordStore is a Store that keeps game records between requests and can apply a change worked
// out on one in a single round trip, after checking that the game is still as the record has it
// (repo's records and migration 00027).
type keptRecordStore interface {
	// KeptGame is a copy of the record kept of the game, nil when none is; it may be older than
	// the game.
	KeptGame(id string) *GameRecord
	// UpdateUnchanged runs fn as Update does, on expect and without reading, and applies its writes
	// only if the game is still as expect has it and no entry is kept under lookup; ErrStale when
	// nothing was applied for that reason.
	UpdateUnchanged(ctx context.Context, now time.Time, expect *GameRecord, lookup []byte, fn func(Tx) error) error
}

// errNotOnKeptRecord is actOnKeptRecord's answer when the action must be done as before, in a
// transaction that reads the game: no record was kept, the game was not as the record had it, or
// the action, worked out on the record, was not one to apply (refused, answered before, or an
// error that the game as it is now may not give).
var errNotOnKeptRecord = errors.New("not acted on a kept record")

// actOnKeptRecord applies an accepted action in one round trip when the store keeps the game's
// record: fn works it out on the record, which a change the instance has not heard of yet may have
// left behind; the store applies it only if the game is still as the record has it. Whatever
// fn answers other than success is not trusted, as the record may be old: the action is then done
// again on the game as it is (errNotOnKeptRecord).
func (s *Service) actOnKeptRecord(ctx context.Context, id string, lookup []byte, fn func(Tx) error) error {
	store, ok := s.store.(keptRecordStore)
	if !ok {
		return errNotOnKeptRecord
	}
	kept := store.KeptGame(id)
	if kept == nil || kept.Status != StatusActive {
		return errNotOnKeptRecord
	}
	var worked error // fn's own answer: fn sends nothing, so its failure left nothing applied
	err := store.UpdateUnchanged(ctx, s.now(), kept, lookup, func(tx Tx) error {
		worked = fn(tx)
		return worked
	})
	if err != nil && (worked != nil || errors.Is(err, ErrStale)) {
		return errNotOnKeptRecord
	}
	return err // nil, or a failure to reach the database or of a commit in doubt, as Update's
}
