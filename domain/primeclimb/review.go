package primeclimb

import (
	"encoding/json"
	"fmt"
	"slices"

	"primegames/domain"
)

// Kinds of missed opportunity a review reports, each found by trying every legal entry:
const (
	// MissedWin: a move bringing the second pawn home was legal and not played (PC-14), with the dice
	// alone or with ± keepers anywhere in it (PC-5, PC-12).
	MissedWin = "win"
	// MissedWinningCard: a keeper played on its own would have won at once (before the roll), or
	// opened a win to the move after it (a Send to Start on the seat's own pawn) (PC-12, PC-14). A win
	// within one move, ± keepers in it or not, is a MissedWin.
	MissedWinningCard = "winning_card"
	// MissedBump: a move sending an opponent's pawn back to Start was legal; the move played bumped
	// nobody (PC-9).
	MissedBump = "bump"
	// MissedPrimeCard: a move landing on a new red prime, which draws a Prime Card, was legal; the move
	// played drew none (PC-10).
	MissedPrimeCard = "prime_card"
)

// missed lists the opportunities action a, whose result is played and value playedValue, left.
// values are the expert's values of the entries: an opportunity counts only when the best entry that
// takes it is worth more than what was played, so the expert's own choice misses nothing.
// A move with keepers the expert only estimated is judged exactly here when it takes the opportunity.
func missed(p position, values []float64, exact []bool, a Action, played result, playedValue float64) []domain.Missed {
	s, entries := &p.s, p.entries
	e := newExpert(s)
	out := []domain.Missed{}
	canWin := played.wins || (a.Type == ActKeeper && winReachable(&played.after))
	add := func(kind, detail string, action Action) {
		raw, _ := json.Marshal(action)
		out = append(out, domain.Missed{Kind: kind, Detail: detail, Action: raw})
	}
	bestOf := func(want func(res result) bool) (int, result) {
		pick, picked := -1, result{}
		for i, la := range entries {
			if la.Action.Type != ActMove {
				continue
			}
			res := simulateListed(s, la)
			if !want(res) {
				continue
			}
			if !exact[i] {
				values[i], exact[i] = e.valueOf(res), true
			}
			if values[i] <= playedValue+lossEpsilon || (pick >= 0 && values[i] <= values[pick]) {
				continue
			}
			pick, picked = i, res
		}
		if pick >= 0 {
			entries[pick] = p.entry(pick)
		}
		return pick, picked
	}
	if !canWin {
		if i, _ := bestOf(func(res result) bool { return res.wins }); i >= 0 {
			add(MissedWin, stepsText(s, entries[i].Action.Steps)+" would have brought both pawns home and won", entries[i].Action)
		} else if i, detail := winningKeeper(s, entries); i >= 0 {
			add(MissedWinningCard, detail, entries[i].Action)
		}
	}
	if a.Type != ActMove || played.wins {
		return out
	}
	if len(played.bumped) == 0 {
		if i, res := bestOf(func(res result) bool { return len(res.bumped) > 0 }); i >= 0 {
			b := res.bumped[0]
			add(MissedBump, fmt.Sprintf("%s would have sent seat %d's pawn on %d back to Start", stepsText(s, entries[i].Action.Steps), b.Seat, b.From), entries[i].Action)
		}
	}
	if played.drawer < 0 {
		if i, res := bestOf(func(res result) bool { return res.drawer >= 0 }); i >= 0 {
			add(MissedPrimeCard, fmt.Sprintf("%s would have landed pawn %d on %d, a prime, and drawn a Prime Card",
				stepsText(s, entries[i].Action.Steps), res.drawer, res.after.mover().Pawns[res.drawer]), entries[i].Action)
		}
	}
	return out
}

// winningKeeper finds a keeper entry that wins at once, or lets the dice win after it.
func winningKeeper(s *State, entries []LegalAction) (int, string) {
	for i, la := range entries {
		if la.Action.Type != ActKeeper || (s.Phase == PhaseMove && inMoves(s, la.Action.Card)) {
			continue // a ± keeper the moves play is part of a move: a MissedWin
		}
		res, err := simulate(s, la.Action)
		switch {
		case err != nil:
		case res.wins:
			return i, la.Description + " would have brought both pawns home and won"
		case winReachable(&res.after):
			return i, la.Description + " would have let the dice win this turn"
		}
	}
	return -1, ""
}

// winReachable reports whether a move open in s wins, with or without keepers.
func winReachable(s *State) bool {
	if s.Winner != nil {
		return *s.Winner == s.Turn.Seat
	}
	if s.Phase != PhaseMove {
		return false
	}
	_, plans := completeMoves(s, true)
	return slices.ContainsFunc(plans, func(p movePlan) bool { return p.win })
}
