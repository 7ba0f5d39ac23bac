package primed

import (
	"bytes"
	"encoding/json"
	"io"

	"primegames/domain"
)

// Action types (PR-5).
const (
	ActionPlay = "play"
	ActionDraw = "draw"
	ActionPass = "pass"
)

// Action is what a player sends: {"type":"play","cards":[13]}, {"type":"draw"} or {"type":"pass"}.
type Action struct {
	Type  string `json:"type"`
	Cards []int  `json:"cards,omitempty"`
}

// PlayAction, DrawAction and PassAction build the JSON that Apply accepts.
func PlayAction(cards ...int) json.RawMessage { return Action{Type: ActionPlay, Cards: cards}.JSON() }

func DrawAction() json.RawMessage { return Action{Type: ActionDraw}.JSON() }

func PassAction() json.RawMessage { return Action{Type: ActionPass}.JSON() }

// JSON encodes the action as Apply accepts it.
func (a Action) JSON() json.RawMessage {
	b, _ := json.Marshal(a) // an Action always encodes
	return b
}

// parseAction decodes and checks the shape of an action; whether the rules allow it is decided later.
func parseAction(raw json.RawMessage) (Action, error) {
	var a Action
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return Action{}, domain.Invalid("bad_action", `an action is a JSON object such as {"type":"play","cards":[13]}, {"type":"draw"} or {"type":"pass"}: %v`, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Action{}, domain.Invalid("bad_action", "an action must be a single JSON object")
	}
	switch a.Type {
	case ActionPlay:
		if len(a.Cards) == 0 {
			return Action{}, domain.Invalid("no_cards", `a play names the cards to play, e.g. {"type":"play","cards":[13]}`)
		}
	case ActionDraw, ActionPass:
		if a.Cards != nil {
			return Action{}, domain.Invalid("unexpected_cards", "a %s takes no cards", a.Type)
		}
	case "":
		return Action{}, domain.Invalid("bad_action", `an action needs a "type": "play", "draw" or "pass"`)
	default:
		return Action{}, domain.Invalid("unknown_action", `unknown action type %q: use "play", "draw" or "pass"`, a.Type)
	}
	return a, nil
}
