package play

import (
	"context"
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// ResignAction is the action of a resignation's history entry (G-3).
var ResignAction = json.RawMessage(`{"type":"resign"}`)

// ResignOutcome is what a resignation did: the game ended with Winners, or a computer player of
// level Bot took the seat.
type ResignOutcome struct {
	Resigned int `json:"resigned"`
	// Reason is ResignTimeouts when the server resigned the seat (G-4); empty when its player did.
	Reason  string       `json:"reason,omitempty"`
	Bot     domain.Level `json:"bot,omitempty"`
	Winners []int        `json:"winners,omitempty"`
}

// ResignTimeouts is the reason of a resignation the server made after TimeoutsToResign timed-out
// turns in a row (G-4).
const ResignTimeouts = "timeouts"

// replacementBot is the computer player that takes a resigned seat in a game of more than two.
const replacementBot = domain.LevelGreedy

// Resign takes the caller's seat out of an active game (G-3): with two seats the other wins, with
// more a computer player plays the seat on. The resignation is recorded as a service entry.
func (s *Service) Resign(ctx context.Context, gameID string, p Principal, idem *Idempotency) (*Game, Caller, error) {
	return s.changeAsCaller(ctx, gameID, p, idem, gameChange{name: "resign", retiresToken: true}, func(tx Tx, g *GameRecord, caller *Caller) error {
		if err := MayAct(g, *caller); err != nil {
			return err
		}
		if err := takesActions(g); err != nil {
			return err
		}
		return s.resign(ctx, tx, g, caller.Seat, "")
	})
}

// resign takes seat out of rec, for reason (empty when its player resigned).
func (s *Service) resign(ctx context.Context, tx Tx, rec *GameRecord, seat int, reason string) error {
	g, err := s.decodeGame(rec)
	if err != nil {
		return err
	}
	outcome := ResignOutcome{Resigned: seat, Reason: reason}
	toAct := g.State.Status().ToAct
	change := StateChange{Status: StatusActive, SeatCount: rec.SeatCount, Snapshot: rec.Snapshot, Winners: []int{}, ToAct: append([]int{}, toAct...)}
	if rec.SeatCount == 2 {
		outcome.Winners = []int{1 - seat}
		change.Status, change.Winners, change.ToAct = StatusFinished, outcome.Winners, []int{}
	} else {
		outcome.Bot = replacementBot
		if err := tx.HandSeatToBot(ctx, rec.ID, seat, string(replacementBot)); err != nil {
			return err
		}
		rec.Seats[seat].Bot, rec.Seats[seat].TokenHash = replacementBot, nil
		if botToAct(rec, g.State.Status()) >= 0 {
			change.BotDue = &rec.Settings.BotDelay
		} else {
			change.KeepDeadline = true // another person's clock runs on
		}
	}
	seq, err := tx.NextSeq(ctx, rec.ID)
	if err != nil {
		return err
	}
	entry := Entry{Seq: seq, Seat: &seat, Action: ResignAction, Service: true}
	if entry.Outcome, err = json.Marshal(outcome); err != nil {
		return fmt.Errorf("encoding outcome: %w", err)
	}
	if change.Tally, err = tallyAfter(rec, &entry, nil); err != nil {
		return err
	}
	before := rec.UpdatedAt
	if err := tx.SaveState(ctx, rec, change); err != nil {
		return err
	}
	entry.Version = rec.Version
	if err := tx.AppendEntry(ctx, rec.ID, &entry); err != nil {
		return err
	}
	return keepStepProgress(ctx, tx, rec, &entry, before)
}

// isResignation reports whether a service entry's action is a resignation.
func isResignation(action json.RawMessage) bool { return actionType(action) == "resign" }

// actionType is an action's "type", "" when it has none. Stored actions are compared by it, not
// byte for byte: Postgres keeps JSON normalised.
func actionType(action json.RawMessage) string {
	var typed struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(action, &typed) != nil {
		return ""
	}
	return typed.Type
}
