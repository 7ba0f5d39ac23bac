package client

// The fields of a Game, LegalActions, HistoryEntry or Scores that depend on the kind of game are a
// union told apart by `game`. Kind decodes that union once and returns the kind's own type, so that
// a type switch reaches the kind's state directly:
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
// Where one kind is expected, the accessors named after it (PrimeClimb, Primed) are shorter.

// UnknownKind is what Kind returns for a kind of game this client does not know (the server added
// it after the client was generated), or for fields that do not decode as their kind's.
type UnknownKind struct {
	Kind GameKind
	Err  error // why the fields did not decode; nil for a kind the client does not know
}

// byKind is a generated union of the kinds' fields (GameOfKind, LegalActionsOfKind, …).
type byKind interface {
	ValueByDiscriminator() (interface{}, error)
}

// ofKind decodes the kind's fields: the union that asUnion reads, then its member of that kind.
func ofKind[U byKind](kind GameKind, asUnion func() (U, error)) any {
	switch kind {
	case GameKindPrimeClimb, GameKindPrimed:
		union, err := asUnion()
		if err != nil {
			return UnknownKind{Kind: kind, Err: err}
		}
		v, err := union.ValueByDiscriminator()
		if err != nil {
			return UnknownKind{Kind: kind, Err: err}
		}
		return v
	}
	return UnknownKind{Kind: kind}
}

// as returns the kind's fields as T when they are of that type.
func as[T any](v any) (T, bool) {
	t, ok := v.(T)
	return t, ok
}

// Kind is g's kind-dependent fields: GameOfPrimeClimb, GameOfPrimed or UnknownKind.
func (g Game) Kind() any { return ofKind(g.Game, g.AsGameOfKind) }

// PrimeClimb is g's options and state when g is a game of Prime Climb.
func (g Game) PrimeClimb() (GameOfPrimeClimb, bool) { return as[GameOfPrimeClimb](g.Kind()) }

// Primed is g's options and state when g is a game of Primed.
func (g Game) Primed() (GameOfPrimed, bool) { return as[GameOfPrimed](g.Kind()) }

// Kind is l's kind-dependent fields: LegalActionsOfPrimeClimb, LegalActionsOfPrimed or UnknownKind.
func (l LegalActions) Kind() any { return ofKind(l.Game, l.AsLegalActionsOfKind) }

// PrimeClimb is l's actions when l lists a seat's actions in a game of Prime Climb.
func (l LegalActions) PrimeClimb() (LegalActionsOfPrimeClimb, bool) {
	return as[LegalActionsOfPrimeClimb](l.Kind())
}

// Primed is l's actions when l lists a seat's actions in a game of Primed.
func (l LegalActions) Primed() (LegalActionsOfPrimed, bool) {
	return as[LegalActionsOfPrimed](l.Kind())
}

// Kind is e's kind-dependent fields (action and outcome): HistoryEntryOfPrimeClimb,
// HistoryEntryOfPrimed or UnknownKind.
func (e HistoryEntry) Kind() any { return ofKind(e.Game, e.AsHistoryEntryOfKind) }

// PrimeClimb is e's action and outcome when e is an entry of a game of Prime Climb.
func (e HistoryEntry) PrimeClimb() (HistoryEntryOfPrimeClimb, bool) {
	return as[HistoryEntryOfPrimeClimb](e.Kind())
}

// Primed is e's action and outcome when e is an entry of a game of Primed.
func (e HistoryEntry) Primed() (HistoryEntryOfPrimed, bool) {
	return as[HistoryEntryOfPrimed](e.Kind())
}

// Kind is s's kind-dependent fields: ScoresOfPrimeClimb, ScoresOfPrimed or UnknownKind.
func (s Scores) Kind() any { return ofKind(s.Game, s.AsScoresOfKind) }

// PrimeClimb is s's scores when s scores a game of Prime Climb.
func (s Scores) PrimeClimb() (ScoresOfPrimeClimb, bool) { return as[ScoresOfPrimeClimb](s.Kind()) }

// Primed is s's scores when s scores a game of Primed.
func (s Scores) Primed() (ScoresOfPrimed, bool) { return as[ScoresOfPrimed](s.Kind()) }
