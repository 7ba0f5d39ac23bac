package domain

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Setup is how a game began: its canonical options, its number of seats and the random values the
// start drew.
type Setup struct {
	Options json.RawMessage
	Seats   int
	Random  []int
}

// Record is one accepted action as the history keeps it.
type Record struct {
	Seat   int
	Action json.RawMessage
	Random []int
}

// StartRecorded starts a game drawing from src and returns the values drawn, for the history.
func StartRecorded(rules Rules, options json.RawMessage, seats int, src Rand) (State, Outcome, []int, error) {
	rec := NewRecorder(src)
	state, outcome, err := rules.Start(options, seats, rec)
	return state, outcome, rec.Values, err
}

// ApplyRecorded applies an action drawing from src and returns the values drawn, for the history.
func ApplyRecorded(state State, seat int, action json.RawMessage, src Rand) (State, Outcome, []int, error) {
	rec := NewRecorder(src)
	next, outcome, err := state.Apply(seat, action, rec)
	return next, outcome, rec.Values, err
}

// Fold rebuilds a game from its setup and its recorded actions alone (G-2): the recorded random values
// stand in for the dice and shuffles.
func Fold(rules Rules, setup Setup, records []Record) (State, error) {
	return FoldVisiting(rules, setup, records, nil)
}

// FoldVisiting is Fold that shows visit, when it is not nil, the state before each record is
// applied, so that a review can judge every action where it was played.
func FoldVisiting(rules Rules, setup Setup, records []Record, visit func(i int, before State) error) (State, error) {
	state, err := replay(func(r Rand) (State, error) {
		s, _, err := rules.Start(setup.Options, setup.Seats, r)
		return s, err
	}, setup.Random)
	if err != nil {
		return nil, fmt.Errorf("replaying the start: %w", err)
	}
	for i, rec := range records {
		if visit != nil {
			if err := visit(i, state); err != nil {
				return nil, err
			}
		}
		if state, err = Replay(state, rec); err != nil {
			return nil, fmt.Errorf("replaying action %d: %w", i+1, err)
		}
	}
	return state, nil
}

// Replay applies one recorded action to state, its recorded random values standing in for chance,
// as Fold does for each record: a stream that follows a game keeps its state up to date with it.
func Replay(state State, rec Record) (State, error) {
	return replay(func(r Rand) (State, error) {
		s, _, err := state.Apply(rec.Seat, rec.Action, r)
		return s, err
	}, rec.Random)
}

func replay(step func(Rand) (State, error), values []int) (state State, err error) {
	tape := NewTape(values)
	defer func() {
		if p := recover(); p != nil {
			var te *TapeError
			if e, ok := p.(error); ok && errors.As(e, &te) {
				err = te
				return
			}
			panic(p)
		}
	}()
	state, err = step(tape)
	if err == nil && tape.Remaining() != 0 {
		err = &TapeError{Reason: fmt.Sprintf("%d recorded random values were not used", tape.Remaining())}
	}
	return state, err
}
