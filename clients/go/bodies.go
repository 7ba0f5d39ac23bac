package client

import "encoding/json"

// A Game, HistoryEntry, LegalActions or Scores is one Go type whatever its kind of game: the
// fields every kind has, its `game`, and the fields that depend on the kind as JSON, which Kind
// (kinds.go) decodes as the kind's own type. (The contract describes each as oneOf a schema per
// kind; api/openapi/overlay.yaml makes these types for it.)

// GameBody is a Game of any kind.
type GameBody struct {
	GameBase
	Game    GameKind        `json:"game"`
	Options json.RawMessage `json:"options"`
	State   json.RawMessage `json:"state"` // null in a lobby
}

// HistoryEntryBody is a HistoryEntry of any kind.
type HistoryEntryBody struct {
	HistoryEntryBase
	Game    GameKind        `json:"game"`
	Action  json.RawMessage `json:"action"`
	Outcome json.RawMessage `json:"outcome"`
}

// LegalActionsBody is a LegalActions of any kind.
type LegalActionsBody struct {
	LegalActionsBase
	Game    GameKind        `json:"game"`
	Actions json.RawMessage `json:"actions"`
}

// ScoresBody is a Scores of any kind.
type ScoresBody struct {
	ScoresBase
	Game   GameKind        `json:"game"`
	Scores json.RawMessage `json:"scores"` // null in a lobby
}
