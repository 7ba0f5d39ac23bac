package play

import (
	"context"
	"errors"
	"time"
)

// KeptRecords is the port of a store that keeps game records between requests and can apply a
// change worked out on one in a single round trip, after checking that the game is still as the
// record has it (repo's records and migration 00027). It is optional (Stores.Kept): without it,
// every action reads the game in its transaction.
//
// UpdateUnchanged runs fn in a WriteOnlyTx. fn may then run twice: on the kept record first and,
// when that is not applied, again in an Update's transaction on the game as it is; so fn keeps no
// effect of its first run but through the transaction.
type KeptRecords interface {
	// KeptGame is a copy of the record kept of the game, nil when none is; it may be older than
	// the game.
	KeptGame(id string) *GameRecord
	// UpdateUnchanged runs fn as Update does, but in a WriteOnlyTx on expect, and applies its
	// writes only if the game is still as expect has it and no entry is kept under lookup; ErrStale
	// when nothing was applied for that reason or because fn read (ErrNeedsReads).
	UpdateUnchanged(ctx context.Context, now time.Time, expect *GameRecord, lookup []byte, fn func(Tx) error) error
}

// TxMode is how a store's transaction reaches the games it changes.
type TxMode int

const (
	// ReadingTx is Updater.Update's: it reads and locks what it changes, and sends its writes with
	// its reads and its commit.
	ReadingTx TxMode = iota
	// WriteOnlyTx is KeptRecords.UpdateUnchanged's: it reads nothing. Locking the expected game
	// answers a copy of the kept record (and no kept result), at once; every other read answers
	// ErrNeedsReads. Its writes are queued and sent in one round trip, after the store's check
	// that the game is still as the record has it.
	WriteOnlyTx
)

// ErrNeedsReads is what a read answers in a WriteOnlyTx: the change is to be done in a ReadingTx.
var ErrNeedsReads = errors.New("a change in one round trip reads nothing")

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
	store := s.store.Kept
	if store == nil {
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
