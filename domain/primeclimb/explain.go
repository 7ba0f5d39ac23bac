package primeclimb

import (
	"fmt"
	"strconv"
	"strings"
)

// explain says in one sentence what entry la does and why it is good, e.g. "pawn 0: 37 + 4 = 41 lands
// on a prime and draws a Prime Card" or "pawn 1: 24 × 4 = 96, + 2 = 98, then your +3 card: 101 — you win!".
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
	if res.wins {
		return text + " — you win!"
	}
	if len(la.Action.Steps) == 0 {
		text += ", which"
	}
	var why []string
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

// stepsText writes a move's steps in words a child reads, one pawn at a time: "pawn 1: 24 × 4 = 96,
// + 2 = 98, then your +3 card: 101", or "pawn 0: 37 + 4 = 41, then pawn 1: 20 × 2 = 40".
func stepsText(s *State, steps []Step) string {
	return string(appendStepsText(make([]byte, 0, 32*len(steps)), s, steps))
}

// appendStepsText appends stepsText(s, steps) to b.
func appendStepsText(b []byte, s *State, steps []Step) []byte {
	if len(steps) == 0 {
		return append(b, "no die can be used: end the move"...)
	}
	walk := s.mover().Pawns
	prev := -1
	for i, st := range steps {
		pawn := 0
		if st.Pawn != nil {
			pawn = *st.Pawn
		}
		n, plusMinus := plusMinusValue(st.Card)
		if st.isCard() && !plusMinus {
			if i > 0 {
				b = append(b, ", then "...)
			}
			b = append(append(append(b, "your "...), st.Card.Title()...), " card"...)
			prev = -1
			continue
		}
		op := st.Op
		if plusMinus {
			op = signOp(st.Sign)
		} else {
			n = st.Die
		}
		from := walk[pawn]
		to, _ := applyOp(from, op, n)
		walk[pawn] = to
		switch {
		case pawn != prev && i > 0:
			b = append(strconv.AppendInt(append(b, ", then pawn "...), int64(pawn), 10), ": "...)
		case pawn != prev:
			b = append(strconv.AppendInt(append(b, "pawn "...), int64(pawn), 10), ": "...)
		case plusMinus:
			b = append(b, ", then "...)
		default:
			b = append(b, ", "...)
		}
		switch {
		case plusMinus && pawn == prev:
			b = appendKeeperName(append(b, "your "...), st.Sign, n)
			b = strconv.AppendInt(append(b, " card: "...), int64(to), 10)
		case plusMinus:
			b = appendKeeperName(append(appendEquation(b, from, op, n, to), " with your "...), st.Sign, n)
			b = append(b, " card"...)
		case pawn == prev:
			b = appendEquation(b, -1, op, n, to)
		default:
			b = appendEquation(b, from, op, n, to)
		}
		prev = pawn
	}
	return b
}

// appendKeeperName appends a ± keeper as played: "+3", "−7".
func appendKeeperName(b []byte, sign string, n int) []byte {
	return strconv.AppendInt(append(b, signWord(sign)...), int64(n), 10)
}

// signWord is a keeper's sign as printed: "+" or "−".
func signWord(sign string) string {
	if sign == "-" {
		return opSymbol[OpSubtract]
	}
	return "+"
}
