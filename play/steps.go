package play

import (
	"context"
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Every step of a game (its start, an action, the server's move for a seat) is recorded the same
// way, through the transaction's GameTx: its new state first, then its history entry.

// recordStep stores the state an entry leads to, which moves the game to its new status and
// version, then appends the entry with that version, and adds to the classroom's progress. tally counts the entry in the game's kept
// tally (nil for the start, which needs none).
func recordStep(ctx context.Context, tx stepTx, g *GameRecord, e *Entry, state domain.State, seats int, tally *tallying) error {
	kept, err := tallyAfter(g, e, tally)
	if err != nil {
		return err
	}
	before := g.UpdatedAt
	if err := saveState(ctx, tx, g, state, seats, kept); err != nil {
		return err
	}
	e.Version = g.Version
	if err := tx.AppendEntry(ctx, g.ID, e); err != nil {
		return err
	}
	return keepStepProgress(ctx, tx, g, e, before)
}

// stepTx is what a step is recorded through: the game's transaction and the classroom's progress
// kept in it.
type stepTx interface {
	GameTx
	ProgressTx
}

// saveState stores the new state and moves the game to its new status and version.
func saveState(ctx context.Context, tx GameTx, g *GameRecord, state domain.State, seats int, tally json.RawMessage) error {
	snapshot, err := domain.EncodeSnapshot(state)
	if err != nil {
		return fmt.Errorf("encoding snapshot: %w", err)
	}
	st := state.Status()
	change := StateChange{Status: StatusActive, SeatCount: seats, Snapshot: snapshot, Winners: []int{}, ToAct: append([]int{}, st.ToAct...),
		Tally: tally}
	if botToAct(g, st) >= 0 {
		change.BotDue = &g.Settings.BotDelay
	} else if firstToAct(g, st, false) >= 0 && g.Settings.TurnTime > 0 {
		change.TurnDue = &g.Settings.TurnTime
	}
	if st.Finished {
		change.Status = StatusFinished
		change.Winners = append(change.Winners, st.Winners...)
		change.ToAct = []int{}
	}
	return tx.SaveState(ctx, g, change)
}
