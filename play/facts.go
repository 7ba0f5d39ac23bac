package play

// The facts of the refusals the application layer makes, as openapi.yaml declares them
// (x-refusal-codes); the engines' own refusals carry theirs.

// VersionMismatchFacts are the facts of version_mismatch: the game's version and the If-Match sent.
type VersionMismatchFacts struct {
	Current int64 `json:"current"`
	Sent    int64 `json:"sent"`
}

// GameStatusFacts are the facts of game_not_active: the status of a game that takes no actions.
type GameStatusFacts struct {
	Status Status `json:"status"`
}

// SeatCountFacts are the facts of invalid_seat_count, not_enough_players and game_full: how many
// players the game takes, and how many were named, asked for or have joined.
type SeatCountFacts struct {
	Min   int `json:"min,omitempty"`
	Max   int `json:"max"`
	Seats int `json:"seats"`
}
