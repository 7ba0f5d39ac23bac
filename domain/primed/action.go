package primed

import (
	"bytes"
	"encoding/json"

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
	if a, ok := parseCanonicalAction(raw); ok {
		return a, nil
	}
	var a Action
	if err := domain.DecodeStrict(raw, &a); err != nil {
		return Action{}, domain.Invalid("invalid_action", `an action is a JSON object such as {"type":"play","cards":[13]}, {"type":"draw"} or {"type":"pass"}: %v`, err)
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
		return Action{}, domain.Invalid("invalid_action", `an action needs a "type": "play", "draw" or "pass"`)
	default:
		return Action{}, domain.Invalid("unknown_action", `unknown action type %q: use "play", "draw" or "pass"`, a.Type)
	}
	return a, nil
}

// parseCanonicalAction reads the exact bytes Action.JSON writes for a well-formed action without the
// JSON decoder, which would otherwise dominate replaying a history. Anything else is left to the decoder.
func parseCanonicalAction(raw []byte) (Action, bool) {
	switch string(raw) {
	case `{"type":"draw"}`:
		return Action{Type: ActionDraw}, true
	case `{"type":"pass"}`:
		return Action{Type: ActionPass}, true
	}
	const prefix, suffix = `{"type":"play","cards":[`, `]}`
	if !bytes.HasPrefix(raw, []byte(prefix)) || !bytes.HasSuffix(raw, []byte(suffix)) {
		return Action{}, false
	}
	body := raw[len(prefix) : len(raw)-len(suffix)]
	cards := make([]int, 0, 1+bytes.Count(body, []byte(",")))
	n, digits := 0, 0
	for i := 0; i <= len(body); i++ {
		if i == len(body) || body[i] == ',' {
			if digits == 0 {
				return Action{}, false
			}
			cards = append(cards, n)
			n, digits = 0, 0
			continue
		}
		c := body[i]
		if c < '0' || c > '9' || (digits == 1 && n == 0) || digits >= 3 {
			return Action{}, false // not a digit, a leading zero, or a number no card has
		}
		n = 10*n + int(c-'0')
		digits++
	}
	return Action{Type: ActionPlay, Cards: cards}, true
}
