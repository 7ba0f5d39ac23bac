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
	dst = domain.AppendJSONArray(append(dst, `,"players":`...), s.Players, (*Player).appendJSON)
	dst = s.Turn.appendJSON(append(dst, `,"turn":`...))
	dst = strconv.AppendInt(append(dst, `,"turn_number":`...), int64(s.TurnNumber), 10)
	dst = appendCards(append(dst, `,"deck":`...), s.Deck)
	dst = appendCards(append(dst, `,"discard":`...), s.Discard)
	dst = domain.AppendJSONIntPtr(append(dst, `,"winner":`...), s.Winner)
	return append(dst, '}')
}

func (p *Player) appendJSON(dst []byte) []byte {
	dst = appendPair(append(dst, `{"pawns":`...), p.Pawns)
	dst = domain.AppendJSONArray(append(dst, `,"keepers":`...), p.Keepers, (*HeldCard).appendJSON)
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
	dst = domain.AppendJSONArray(append(dst, `,"candidates":`...), p.Candidates, (*Choice).appendJSON)
	return append(dst, '}')
}

func (h *HeldCard) appendJSON(dst []byte) []byte {
	dst = domain.AppendJSONString(append(dst, `{"card":`...), string(h.Card))
	return append(strconv.AppendBool(append(dst, `,"new":`...), h.New), '}')
}

func (c *Choice) appendJSON(dst []byte) []byte {
	dst = strconv.AppendInt(append(dst, `{"target_seat":`...), int64(c.TargetSeat), 10)
	if c.Pawn != nil {
		dst = strconv.AppendInt(append(dst, `,"pawn":`...), int64(*c.Pawn), 10)
	}
	if c.Card != "" {
		dst = domain.AppendJSONString(append(dst, `,"card":`...), string(c.Card))
	}
	return append(dst, '}')
}

func appendPair(dst []byte, p [2]int) []byte {
	dst = strconv.AppendInt(append(dst, '['), int64(p[0]), 10)
	return append(strconv.AppendInt(append(dst, ','), int64(p[1]), 10), ']')
}

func appendCards(dst []byte, cards []Card) []byte {
	return domain.AppendJSONArray(dst, cards, func(c *Card, dst []byte) []byte { return domain.AppendJSONString(dst, string(*c)) })
}
