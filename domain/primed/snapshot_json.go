package primed

import (
	"strconv"

	"primegames/domain"
)

// AppendSnapshot appends the full snapshot as json.Marshal encodes the table (MarshalJSON), written
// field by field: a game's snapshot is encoded on every action.
func (s *State) AppendSnapshot(dst []byte) []byte {
	t := &s.t
	dst = append(dst, `{"options":{"deck":`...)
	dst = domain.AppendJSONString(dst, t.Options.Deck)
	dst = append(dst, `,"target":`...)
	dst = domain.AppendJSONString(dst, t.Options.Target)
	dst = append(dst, `,"multi_card":`...)
	dst = strconv.AppendBool(dst, t.Options.MultiCard)
	dst = appendIntField(dst, `,"rounds":`, t.Options.Rounds)
	dst = appendIntField(dst, `},"seats":`, t.Seats)
	dst = appendIntField(dst, `,"round":`, t.Round)
	dst = appendIntField(dst, `,"dealer":`, t.Dealer)
	dst = appendIntField(dst, `,"starter":`, t.Starter)
	dst = appendIntField(dst, `,"turn":`, t.Turn)
	dst = append(dst, `,"phase":`...)
	dst = domain.AppendJSONString(dst, t.Phase)
	dst = appendIntField(dst, `,"drawn":`, t.Drawn)
	dst = appendIntField(dst, `,"passes":`, t.Passes)
	dst = appendHands(append(dst, `,"hands":`...), t.Hands)
	dst = domain.AppendJSONInts(append(dst, `,"draw_pile":`...), t.DrawPile)
	dst = domain.AppendJSONInts(append(dst, `,"primed_pile":`...), t.PrimedPile)
	dst = domain.AppendJSONArray(append(dst, `,"results":`...), t.Results, (*RoundResult).appendJSON)
	dst = domain.AppendJSONInts(append(dst, `,"totals":`...), t.Totals)
	dst = domain.AppendJSONInts(append(dst, `,"winners":`...), t.Winners)
	return append(dst, '}')
}

func (r *RoundResult) appendJSON(dst []byte) []byte {
	dst = appendIntField(dst, `{"round":`, r.Round)
	dst = appendIntField(dst, `,"dealer":`, r.Dealer)
	dst = appendIntField(dst, `,"starter":`, r.Starter)
	dst = append(dst, `,"ending":`...)
	dst = domain.AppendJSONString(dst, r.Ending)
	if r.WentOut != nil {
		dst = appendIntField(dst, `,"went_out":`, *r.WentOut)
	}
	dst = appendHands(append(dst, `,"hands":`...), r.Hands)
	dst = domain.AppendJSONInts(append(dst, `,"scores":`...), r.Scores)
	dst = domain.AppendJSONInts(append(dst, `,"totals":`...), r.Totals)
	return append(dst, '}')
}

func appendIntField(dst []byte, name string, n int) []byte {
	return strconv.AppendInt(append(dst, name...), int64(n), 10)
}

func appendHands(dst []byte, hands [][]int) []byte {
	return domain.AppendJSONArray(dst, hands, func(hand *[]int, dst []byte) []byte { return domain.AppendJSONInts(dst, *hand) })
}
