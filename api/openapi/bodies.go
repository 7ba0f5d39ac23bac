package openapi

import "encoding/json"

// The objects whose fields depend on the kind of game, as the server writes them (overlay.yaml):
// the fields every kind has, and the kind's own encoded by the kind. The contract describes each as
// oneOf a schema per kind, told apart by `game`.

// GameBody is a Game of any kind.
type GameBody struct {
	GameBase
	Game    GameKind        `json:"game"`
	Options json.RawMessage `json:"options"`
	State   json.RawMessage `json:"state"` // nil, null, in a lobby
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
	Scores json.RawMessage `json:"scores"` // nil, null, in a lobby
}
