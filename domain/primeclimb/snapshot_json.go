package primeclimb

import (
	"strconv"

	"primegames/domain"
)

// AppendSnapshot appends the full snapshot as json.Marshal encodes the State, written field by
// field: a game's snapshot is encoded on every action.
func (s State) AppendSnapshot(dst []byte) []byte {
	dst = append(dst, `{"options":{"prime_cards":`...)
	dst = strconv.AppendBool(dst, s.Options.PrimeCards)
	dst = append(dst, `},"phase":`...)
	dst = domain.AppendJSONString(dst, string(s.Phase))
	dst = append(dst, `,"players":`...)
	if s.Players == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range s.Players {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = s.Players[i].appendJSON(dst)
		}
		dst = append(dst, ']')
	}
	dst = s.Turn.appendJSON(append(dst, `,"turn":`...))
	dst = strconv.AppendInt(append(dst, `,"turn_number":`...), int64(s.TurnNumber), 10)
	dst = appendCards(append(dst, `,"deck":`...), s.Deck)
	dst = appendCards(append(dst, `,"discard":`...), s.Discard)
	dst = domain.AppendJSONIntPtr(append(dst, `,"winner":`...), s.Winner)
	return append(dst, '}')
}

func (p *Player) appendJSON(dst []byte) []byte {
	dst = appendPair(append(dst, `{"pawns":`...), p.Pawns)
	dst = append(dst, `,"keepers":`...)
	if p.Keepers == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, h := range p.Keepers {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = domain.AppendJSONString(append(dst, `{"card":`...), string(h.Card))
			dst = append(strconv.AppendBool(append(dst, `,"new":`...), h.New), '}')
		}
		dst = append(dst, ']')
	}
	dst = strconv.AppendBool(append(dst, `,"cursed_next":`...), p.CursedNext)
	return append(dst, '}')
}

func (t *Turn) appendJSON(dst []byte) []byte {
	dst = strconv.AppendInt(append(dst, `{"seat":`...), int64(t.Seat), 10)
	dst = domain.AppendJSONInts(append(dst, `,"dice":`...), t.Dice)
	dst = domain.AppendJSONInts(append(dst, `,"uses":`...), t.Uses)
	dst = strconv.AppendBool(append(dst, `,"cursed":`...), t.Cursed)
	dst = appendPair(append(dst, `,"start_pawns":`...), t.StartPawns)
	dst = strconv.AppendBool(append(dst, `,"moved":[`...), t.Moved[0])
	dst = append(strconv.AppendBool(append(dst, ','), t.Moved[1]), ']')
	dst = strconv.AppendInt(append(dst, `,"last_moved":`...), int64(t.LastMoved), 10)
	dst = strconv.AppendBool(append(dst, `,"roll_again":`...), t.RollAgain)
	dst = append(dst, `,"pending":`...)
	if t.Pending == nil {
		dst = append(dst, "null"...)
	} else {
		dst = t.Pending.appendJSON(dst)
	}
	return append(dst, '}')
}

func (p *Pending) appendJSON(dst []byte) []byte {
	dst = domain.AppendJSONString(append(dst, `{"card":`...), string(p.Card))
	dst = strconv.AppendInt(append(dst, `,"pawn":`...), int64(p.Pawn), 10)
	dst = append(dst, `,"candidates":`...)
	if p.Candidates == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, c := range p.Candidates {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(append(dst, `{"target_seat":`...), int64(c.TargetSeat), 10)
			if c.Pawn != nil {
				dst = strconv.AppendInt(append(dst, `,"pawn":`...), int64(*c.Pawn), 10)
			}
			if c.Card != "" {
				dst = domain.AppendJSONString(append(dst, `,"card":`...), string(c.Card))
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func appendPair(dst []byte, p [2]int) []byte {
	dst = strconv.AppendInt(append(dst, '['), int64(p[0]), 10)
	return append(strconv.AppendInt(append(dst, ','), int64(p[1]), 10), ']')
}

func appendCards(dst []byte, cards []Card) []byte {
	if cards == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, c := range cards {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = domain.AppendJSONString(dst, string(c))
	}
	return append(dst, ']')
}
