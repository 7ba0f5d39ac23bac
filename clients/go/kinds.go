package client

import (
	"encoding/json"
	"fmt"
)

// The fields of a Game, LegalActions, HistoryEntry or Scores that depend on the kind of game are
// told apart by `game`. Kind decodes the object as its kind's own type (GameOfPrimeClimb, with
// every field of the game and its kind's options and state, and so on), so that a type switch
// reaches the kind's state directly:
//
//	switch g := game.Kind().(type) {
//	case GameOfPrimeClimb:
//		_ = g.State // *PrimeClimbView
//	case GameOfPrimed:
//		_ = g.State // *PrimedView
//	case UnknownKind:
//		// a kind this client was generated before
//	}
//
// Where one kind is expected, the accessors named after it (PrimeClimb, Primed) are shorter. Each
// call decodes the kind's fields again: keep what it returns.

// UnknownKind is what Kind returns for a kind of game this client does not know (the server added
// it after the client was generated), or for an object that does not decode as its kind's type.
type UnknownKind struct {
	Kind GameKind
	Err  error // why the object did not decode; nil for a kind the client does not know
}

// decoders decode the JSON of an object of some kind as that kind's type.
type decoders map[GameKind]func(raw []byte) (any, error)

// ofKind decodes body as its kind's type among kinds, or returns UnknownKind.
func ofKind(kind GameKind, body any, kinds decoders) any {
	decode, known := kinds[kind]
	if !known {
		return UnknownKind{Kind: kind}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return UnknownKind{Kind: kind, Err: err}
	}
	v, err := decode(raw)
	if err != nil {
		return UnknownKind{Kind: kind, Err: fmt.Errorf("not a %T of %s: %w", v, kind, err)}
	}
	return v
}

func decode[T any](raw []byte) (any, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

// as returns the kind's type as T when it is that type.
func as[T any](v any) (T, bool) {
	t, ok := v.(T)
	return t, ok
}

var gameKinds = decoders{GameKindPrimeClimb: decode[GameOfPrimeClimb], GameKindPrimed: decode[GameOfPrimed]}

// Kind is g as its kind's type: GameOfPrimeClimb, GameOfPrimed or UnknownKind.
func (g GameBody) Kind() any { return ofKind(g.Game, g, gameKinds) }

// PrimeClimb is g when g is a game of Prime Climb.
func (g GameBody) PrimeClimb() (GameOfPrimeClimb, bool) { return as[GameOfPrimeClimb](g.Kind()) }

// Primed is g when g is a game of Primed.
func (g GameBody) Primed() (GameOfPrimed, bool) { return as[GameOfPrimed](g.Kind()) }

var legalActionsKinds = decoders{GameKindPrimeClimb: decode[LegalActionsOfPrimeClimb], GameKindPrimed: decode[LegalActionsOfPrimed]}

// Kind is l as its kind's type: LegalActionsOfPrimeClimb, LegalActionsOfPrimed or UnknownKind.
func (l LegalActionsBody) Kind() any { return ofKind(l.Game, l, legalActionsKinds) }

// PrimeClimb is l when l lists a seat's actions in a game of Prime Climb.
func (l LegalActionsBody) PrimeClimb() (LegalActionsOfPrimeClimb, bool) {
	return as[LegalActionsOfPrimeClimb](l.Kind())
}

// Primed is l when l lists a seat's actions in a game of Primed.
func (l LegalActionsBody) Primed() (LegalActionsOfPrimed, bool) {
	return as[LegalActionsOfPrimed](l.Kind())
}

var historyEntryKinds = decoders{GameKindPrimeClimb: decode[HistoryEntryOfPrimeClimb], GameKindPrimed: decode[HistoryEntryOfPrimed]}

// Kind is e as its kind's type: HistoryEntryOfPrimeClimb, HistoryEntryOfPrimed or UnknownKind.
func (e HistoryEntryBody) Kind() any { return ofKind(e.Game, e, historyEntryKinds) }

// PrimeClimb is e when e is an entry of a game of Prime Climb.
func (e HistoryEntryBody) PrimeClimb() (HistoryEntryOfPrimeClimb, bool) {
	return as[HistoryEntryOfPrimeClimb](e.Kind())
}

// Primed is e when e is an entry of a game of Primed.
func (e HistoryEntryBody) Primed() (HistoryEntryOfPrimed, bool) {
	return as[HistoryEntryOfPrimed](e.Kind())
}

var scoresKinds = decoders{GameKindPrimeClimb: decode[ScoresOfPrimeClimb], GameKindPrimed: decode[ScoresOfPrimed]}

// Kind is s as its kind's type: ScoresOfPrimeClimb, ScoresOfPrimed or UnknownKind.
func (s ScoresBody) Kind() any { return ofKind(s.Game, s, scoresKinds) }

// PrimeClimb is s when s scores a game of Prime Climb.
func (s ScoresBody) PrimeClimb() (ScoresOfPrimeClimb, bool) { return as[ScoresOfPrimeClimb](s.Kind()) }

// Primed is s when s scores a game of Primed.
func (s ScoresBody) Primed() (ScoresOfPrimed, bool) { return as[ScoresOfPrimed](s.Kind()) }
