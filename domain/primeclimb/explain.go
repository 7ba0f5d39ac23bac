package primeclimb

import (
	"fmt"
	"strings"
)

// explain says in one sentence what entry la does and why it is good, e.g. "pawn 0: 37 + 4 = 41 lands
// on a prime and draws a Prime Card" or "pawn 1: 95 + 6 = 101 brings both pawns home and wins".
func explain(s *State, la LegalAction, res result) string {
	switch la.Action.Type {
	case ActRoll:
		return "roll both dice"
	case ActChoose, ActKeeper:
		text := la.Description
		if text == "" {
			text = string(la.Action.Type)
		}
		if la.Action.Type == ActKeeper {
			text = "play " + text
		}
		if res.wins {
			text += " and win"
		}
		return text
	}
	text := stepsText(s, la.Action.Steps)
	var why []string
	if res.wins {
		why = append(why, "brings both pawns home and wins")
	}
	for _, b := range res.bumped {
		why = append(why, fmt.Sprintf("sends seat %d's pawn on %d back to Start", b.Seat, b.From))
	}
	if res.drawer >= 0 {
		why = append(why, fmt.Sprintf("lands pawn %d on %d, a prime, and draws a Prime Card", res.drawer, res.after.mover().Pawns[res.drawer]))
	}
	if len(why) == 0 {
		p := res.after.mover().Pawns
		why = append(why, fmt.Sprintf("leaves your pawns on %d and %d", p[0], p[1]))
	}
	return text + " " + strings.Join(why, " and ")
}

// stepsText writes a move's steps as equations: "pawn 0: 37 + 4 = 41, then pawn 1: 20 × 2 = 40".
func stepsText(s *State, steps []Step) string {
	if len(steps) == 0 {
		return "no die can be used: end the move, which"
	}
	walk := s.mover().Pawns
	parts := make([]string, len(steps))
	for i, st := range steps {
		pawn := 0
		if st.Pawn != nil {
			pawn = *st.Pawn
		}
		op, n := st.Op, st.Die
		if st.isCard() {
			v, ok := plusMinusValue(st.Card)
			if !ok {
				parts[i] = st.Card.Title()
				continue
			}
			op, n = signOp(st.Sign), v
		}
		to, _ := applyOp(walk[pawn], op, n)
		parts[i] = "pawn " + itoa(pawn) + ": " + equation(walk[pawn], op, n, to)
		walk[pawn] = to
	}
	return strings.Join(parts, ", then ")
}
