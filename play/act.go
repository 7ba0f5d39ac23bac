package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"primegames/domain"
)

// Action is one action sent by a player.
type Action struct {
	GameID string
	Action json.RawMessage
	// IfMatch, when set, is the version the client based the action on (If-Match).
	IfMatch *int64
	// Timeout marks the action the server takes for a person whose time ran out (G-4).
	Timeout bool
	// key is the Idempotency-Key the action came with, as its history entry keeps it.
	key *EntryKey
}

// Acted is an accepted action with the game after it.
type Acted struct {
	Game   *Game
	Caller Caller
	Entry  Entry
	// Outcome is the entry's outcome as the rules gave it, nil when only its JSON is at hand (an
	// answer rebuilt for a retry), so that the answer need not decode what the action encoded.
	Outcome domain.Outcome
}

type actedRecord struct {
	Game    *GameRecord
	Caller  Caller
	Entry   Entry
	outcome domain.Outcome
	// next is the state the action led to, so that the answer need not decode the snapshot just
	// written; tally is the tally it keeps, decoded.
	next  domain.State
	tally *GameTally
}

// keptAction is what an Idempotency-Key keeps of an accepted action: the seq of the history entry it
// appended, from which a retry rebuilds the answer. Keys are kept with the entry itself (two hashes
// on its row); an earlier release sealed this struct in the key's own row, which is still read.
type keptAction struct {
	Seq int64 `json:"seq"`
}

// keptActionOf is the action a key answered, unless the key answered a different request.
func (s *resultSlot) keptActionOf(kept *KeptResult) (*keptAction, error) {
	if kept.EntrySeq == nil {
		var k keptAction
		return &k, s.openKept(kept, &k)
	}
	if err := s.sameRequest(kept.RequestHash); err != nil {
		return nil, err
	}
	return &keptAction{Seq: *kept.EntrySeq}, nil
}

// Act applies one action in one transaction: lock the game, check the caller and the version, apply
// the rules, append to the history, store the new snapshot, commit. A refused action changes nothing
// but is recorded as an attempt.
func (s *Service) Act(ctx context.Context, in Action, p Principal, idem *Idempotency) (*Acted, error) {
	// The key is bound to the game and the caller's credential, which acts for one seat of it, so
	// the entry it was kept with is found while the game is locked, in the same round trip.
	// (Keys kept by the oldest releases, whole answers under a lookup bound to the seat, are not
	// found: a retry of an action answered before that upgrade acts afresh, as after an expiry.)
	slot, err := idem.byPrincipal(p, "action:"+in.GameID)
	if err != nil {
		return nil, err
	}
	in.key = slot.entryKey()
	var rec actedRecord
	var refusal error
	var replay *keptAction
	act := func(tx Tx) error {
		refusal, replay = nil, nil // a transaction run again after a lost connection starts afresh
		g, kept, err := lockGameWithResult(ctx, tx.GameTx, in.GameID, slot.lookupOf())
		if err != nil {
			return err
		}
		caller, err := RequireCaller(g, p)
		if err != nil {
			return err
		}
		if err := MayAct(g, caller); err != nil {
			return err
		}
		if kept != nil {
			rec = actedRecord{Game: g, Caller: caller}
			replay, err = slot.keptActionOf(kept)
			return err
		}
		rec, err = s.act(ctx, tx, g, caller, in)
		if refused := (*refusedAction)(nil); errors.As(err, &refused) {
			// The attempt is recorded: commit it, then answer with the refusal.
			refusal = refused.err
			return nil
		}
		return err
	}
	err = s.actOnKeptRecord(ctx, in.GameID, slot.lookupOf(), func(tx Tx) error {
		if err := act(tx); err != nil {
			return err
		}
		if refusal != nil || replay != nil {
			return errNotOnKeptRecord
		}
		return nil
	})
	if errors.Is(err, errNotOnKeptRecord) {
		err = s.update(ctx, act)
	}
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	if replay != nil {
		return s.replayAction(ctx, rec.Game, rec.Caller, replay.Seq, in.Action)
	}
	s.wakeBotsFor(rec.Game)
	s.states.keep(rec.Game, rec.next)
	s.tallies.keep(rec.Game.ID, rec.Game.Status == StatusActive, rec.Game.Tally, rec.tally)
	g, err := s.gameWith(rec.Game, rec.next)
	return &Acted{Game: g, Caller: rec.Caller, Entry: rec.Entry, Outcome: rec.outcome}, err
}

// replayAction rebuilds the answer to the action that appended entry seq: the game as that entry
// left it, folded from its history (G-2), whatever happened since. The entry's action is the one
// the retry sends, byte for byte the first request's (their hashes match), rather than the stored
// one, which Postgres keeps normalised.
func (s *Service) replayAction(ctx context.Context, rec *GameRecord, caller Caller, seq int64, action json.RawMessage) (*Acted, error) {
	entries, err := s.store.EntriesThrough(ctx, rec.ID, seq)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 || entries[len(entries)-1].Seq != seq {
		return nil, fmt.Errorf("game %s: the entry %d an Idempotency-Key kept is not in its history", rec.ID, seq)
	}
	kind, ok := s.kinds.Lookup(rec.Kind)
	if !ok {
		return nil, fmt.Errorf("game %s has unknown kind %q", rec.ID, rec.Kind)
	}
	g := &Game{GameRecord: *rec, Rules: kind.Rules}
	if g.State, err = Fold(g, entries); err != nil {
		return nil, err
	}
	// What SaveState and AppendEntry stored in the action's transaction, whose now (the clock's) is the entry's time.
	entry := entries[len(entries)-1]
	entry.Action = action
	g.Version, g.UpdatedAt, g.Snapshot = entry.Version, entry.CreatedAt, nil
	g.Status, g.Winners, g.FinishedAt = StatusActive, nil, nil
	if st := g.State.Status(); st.Finished {
		at := entry.CreatedAt
		g.Status, g.FinishedAt = StatusFinished, &at
		if len(st.Winners) > 0 {
			g.Winners = append([]int{}, st.Winners...)
		}
	}
	return &Acted{Game: g, Caller: caller, Entry: entry}, nil
}

// AttemptsKeptPerPosition bounds the refused actions kept of one seat at one position (version) of
// a game: enough to show a teacher where a child struggles (a child tries a few things, then asks
// for a hint), while a client that sends refused actions for ever, which the rate limits slow but
// do not stop, cannot grow the game's attempts, its review or its class's statistics without end.
// Beyond it, actions are refused as before but not kept.
const AttemptsKeptPerPosition = 10

// refusedAction is an action the rules refused, recorded as an attempt that must be committed.
type refusedAction struct{ err error }

func (r *refusedAction) Error() string { return r.err.Error() }

func (s *Service) act(ctx context.Context, tx Tx, rec *GameRecord, caller Caller, in Action) (actedRecord, error) {
	if in.IfMatch != nil && *in.IfMatch != rec.Version {
		return actedRecord{}, domain.Errorf(domain.KindPrecondition, "version_mismatch",
			"The game is at version %d, not %d: someone has moved since you looked. Reload the game and try again.", rec.Version, *in.IfMatch).
			WithFacts(VersionMismatchFacts{Current: rec.Version, Sent: *in.IfMatch})
	}
	if err := takesActions(rec); err != nil {
		return actedRecord{}, err
	}
	g, err := s.decodeGame(rec)
	if err != nil {
		return actedRecord{}, err
	}
	seq, err := tx.NextSeq(ctx, rec.ID)
	if err != nil {
		return actedRecord{}, err
	}
	next, outcome, random, err := domain.ApplyRecorded(g.State, caller.Seat, in.Action, domain.SeededRand(uint64(rec.Seed), seq))
	if err != nil {
		if kind := domain.ErrorKind(err); kind == domain.KindIllegal || kind == domain.KindNotYourTurn {
			if rerr := tx.RecordAttempt(ctx, rec.ID, attemptOf(rec, caller.Seat, in.Action, err), AttemptsKeptPerPosition); rerr != nil {
				return actedRecord{}, rerr
			}
			return actedRecord{}, &refusedAction{err: err}
		}
		return actedRecord{}, err
	}
	seat := caller.Seat
	entry := Entry{Seq: seq, Seat: &seat, Action: in.Action, Random: random, Bot: seatBot(rec, seat), Timeout: in.Timeout, Key: in.key}
	if entry.Outcome, err = json.Marshal(outcome); err != nil {
		return actedRecord{}, fmt.Errorf("encoding outcome: %w", err)
	}
	kind, _ := s.kinds.Lookup(rec.Kind)
	counting := &tallying{count: kind.Tally, countOutcome: kind.TallyOutcome, outcome: outcome, known: s.tallies.find(rec.ID, rec.Tally)}
	if err := recordStep(ctx, tx, rec, &entry, next, rec.SeatCount, counting); err != nil {
		return actedRecord{}, err
	}
	if !in.Timeout && seat < len(rec.Seats) && rec.Seats[seat].Timeouts > 0 { // the player is back (G-4)
		if err := tx.SetTimeouts(ctx, rec.ID, seat, 0); err != nil {
			return actedRecord{}, err
		}
		rec.Seats[seat].Timeouts = 0
	}
	return actedRecord{Game: rec, Caller: caller, Entry: entry, outcome: outcome, next: next, tally: counting.after}, nil
}

// takesActions refuses a game that takes no action in its state: a lobby, an aborted game, and a
// finished one, which conflicts with any action whatever the action says: 409, as for the other
// states that take none, and not a rule broken by the action (PC-14, PR-7).
func takesActions(rec *GameRecord) error {
	switch rec.Status {
	case StatusLobby, StatusAborted:
		return domain.Errorf(domain.KindConflict, "game_not_active", "Game %s is %s; it takes no actions.", rec.ID, rec.Status).
			WithFacts(GameStatusFacts{Status: rec.Status})
	case StatusFinished:
		return domain.Errorf(domain.KindConflict, "game_over", "Game %s is finished; it takes no more actions.", rec.ID).
			WithFacts(domain.GameOverFacts{Winners: append([]int{}, rec.Winners...)})
	}
	return nil
}

func attemptOf(g *GameRecord, seat int, action json.RawMessage, refusal error) Attempt {
	a := Attempt{Seat: seat, Version: g.Version, Action: action, Code: domain.ErrorCode(refusal), Detail: refusal.Error()}
	var de *domain.Error
	if errors.As(refusal, &de) {
		a.Detail = de.Message
		if de.Facts != nil {
			a.Facts, _ = json.Marshal(de.Facts) // the engines' facts are plain structs of numbers and words
		}
	}
	return a
}
