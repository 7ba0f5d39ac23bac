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
}

// Acted is an accepted action with the game after it.
type Acted struct {
	Game   *Game
	Caller Caller
	Entry  Entry
}

type actedRecord struct {
	Game   *GameRecord
	Caller Caller
	Entry  Entry
	// next is the state the action led to, so that the answer need not decode the snapshot just
	// written; a replayed result (kept as JSON) has none, and is decoded.
	next domain.State
}

// Act applies one action in one transaction: lock the game, check the caller and the version, apply
// the rules, append to the history, store the new snapshot, commit. A refused action changes nothing
// but is recorded as an attempt.
func (s *Service) Act(ctx context.Context, in Action, p Principal, idem *Idempotency) (*Acted, error) {
	var rec actedRecord
	var refusal error
	err := s.store.Update(ctx, func(tx Tx) error {
		refusal = nil // a transaction run again after a lost connection starts afresh
		g, err := lockGame(ctx, tx, in.GameID)
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
		slot, err := idem.byPrincipal(p, fmt.Sprintf("action:%s:seat:%d", g.ID, caller.Seat))
		if err != nil {
			return err
		}
		rec, err = idempotent(ctx, tx, slot, func() (actedRecord, error) { return s.act(ctx, tx, g, caller, in) })
		if refused := (*refusedAction)(nil); errors.As(err, &refused) {
			// The attempt is recorded: commit it, then answer with the refusal.
			refusal = refused.err
			return nil
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	g, err := s.gameWith(rec.Game, rec.next)
	return &Acted{Game: g, Caller: rec.Caller, Entry: rec.Entry}, err
}

// refusedAction is an action the rules refused, recorded as an attempt that must be committed.
type refusedAction struct{ err error }

func (r *refusedAction) Error() string { return r.err.Error() }

func (s *Service) act(ctx context.Context, tx Tx, rec *GameRecord, caller Caller, in Action) (actedRecord, error) {
	if in.IfMatch != nil && *in.IfMatch != rec.Version {
		return actedRecord{}, domain.Errorf(domain.KindPrecondition, "version_mismatch",
			"The game is at version %d, not %d: someone has moved since you looked. Reload the game and try again.", rec.Version, *in.IfMatch)
	}
	if rec.Status == StatusLobby || rec.Status == StatusAborted {
		return actedRecord{}, domain.Errorf(domain.KindConflict, "game_not_active", "Game %s is %s; it takes no actions.", rec.ID, rec.Status)
	}
	// A finished game conflicts with any action, whatever the action says: 409, as for the other states
	// that take none, and not a rule broken by the action (PC-14, PR-7).
	if rec.Status == StatusFinished {
		return actedRecord{}, domain.Errorf(domain.KindConflict, "game_over", "Game %s is finished; it takes no more actions.", rec.ID)
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
			if rerr := tx.RecordAttempt(ctx, rec.ID, attemptOf(rec, caller.Seat, in.Action, err)); rerr != nil {
				return actedRecord{}, rerr
			}
			return actedRecord{}, &refusedAction{err: err}
		}
		return actedRecord{}, err
	}
	seat := caller.Seat
	entry := Entry{Seq: seq, Seat: &seat, Action: in.Action, Random: random}
	if entry.Outcome, err = json.Marshal(outcome); err != nil {
		return actedRecord{}, fmt.Errorf("encoding outcome: %w", err)
	}
	if err := recordStep(ctx, tx, rec, &entry, next, rec.SeatCount); err != nil {
		return actedRecord{}, err
	}
	return actedRecord{Game: rec, Caller: caller, Entry: entry, next: next}, nil
}

func attemptOf(g *GameRecord, seat int, action json.RawMessage, refusal error) Attempt {
	a := Attempt{Seat: seat, Version: g.Version, Action: action, Code: domain.ErrorCode(refusal), Detail: refusal.Error()}
	var de *domain.Error
	if errors.As(refusal, &de) {
		a.Detail = de.Message
	}
	return a
}
