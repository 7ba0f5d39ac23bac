package primeclimb

import "sync"

// The expert's evaluation is in turns: how many turns sooner than its strongest opponent a seat is
// expected to bring both pawns home. A seat's distance is soloTurns of its pawns, less what its keepers
// are worth, plus a Curse waiting for it and the pawns its next opponent can bump on the coming roll.
// A won game is worth winValue, far beyond any race, so that missing a win is always a blunder.
const (
	winValue = 100.0
	// rollAgainValue is a whole extra turn (PC-13).
	rollAgainValue = 1.0
	// curseCost is a turn whose dice may only subtract or divide (PC-12): more than the Curse is
	// worth in hand, so the expert plays it.
	curseCost = 1.2
	// bumpThreatShare is how much of a bump the next opponent can make counts: they may prefer
	// another move.
	bumpThreatShare = 0.6
	// sendToStartThreatShare is the same for an opponent's Send to Start on the best pawn.
	sendToStartThreatShare = 0.7
)

// keeperValue is what holding a keeper is worth, in turns (PC-12). The expert plays a keeper when
// the play gains more than this. The figures, and bumpThreatShare, were tuned against greedy over
// 1,000-game runs from seed 5000 (not the seeds of the table in docs/scripts.md), once the expert
// could play ± keepers anywhere in a move and kept them until the dice were seen (issue 25): ±
// 0.7 → 1.4 and Curse 0.9 → 1.2 won 92.0 % → 94.9 %, and a bump threat of 0.6 instead of 0.8 96.1 %.
func keeperValue(c Card) float64 {
	switch c {
	case SendToStart:
		return 1.6
	case Curse:
		return 1.2
	}
	return 1.4
}

// score is the evaluation of s for seat me, after me's action and before the next seat rolls.
func score(s *State, me int) float64 {
	if s.Winner != nil {
		if *s.Winner == me {
			return winValue
		}
		return -winValue
	}
	next := (me + 1) % len(s.Players)
	if s.Turn.RollAgain && s.Turn.Seat == me {
		next = me
	}
	mine := distance(s, me, next)
	if len(s.Players) == 1 {
		return -mine
	}
	best := 1e9
	for seat := range s.Players {
		if seat != me {
			best = min(best, distance(s, seat, -1))
		}
	}
	v := best - mine
	if s.Turn.RollAgain && s.Turn.Seat == me {
		v += rollAgainValue
	}
	return v
}

// distance is a seat's expected turns to win, adjusted by its cards, a Curse waiting for it and the
// bumps the seat threat may make on it before it moves again (-1 for none).
func distance(s *State, seat, threat int) float64 {
	p := s.Players[seat]
	d := soloTurns(p.Pawns[0], p.Pawns[1])
	for _, h := range p.Keepers {
		d -= keeperValue(h.Card)
	}
	if p.CursedNext {
		d += curseCost
	}
	if threat >= 0 && threat != seat {
		d += bumpThreat(s, seat, threat)
	}
	return d
}

// bumpThreat is what seat stands to lose to seat by's next roll: for each of seat's pawns on 1..100,
// the share of the 100 rolls with which one of by's pawns can end on it (PC-9), times the turns a
// trip back to Start costs; and the best Send to Start by holds (PC-12).
func bumpThreat(s *State, seat, by int) float64 {
	pawns := s.Players[seat].Pawns
	var cost [2]float64
	worst := 0.0
	for i, x := range pawns {
		if x != Start && x != Home {
			cost[i] = soloTurns(Start, pawns[1-i]) - soloTurns(x, pawns[1-i])
			worst = max(worst, cost[i])
		}
	}
	if worst <= 0 {
		return 0
	}
	attacker := s.Players[by]
	threat := 0.0
	hits := rollsReaching(attacker.Pawns, attacker.CursedNext)
	for i, x := range pawns {
		threat += bumpThreatShare * float64(hits[x]) * cost[i] / 100
	}
	for _, h := range attacker.Keepers {
		if h.Card == SendToStart {
			threat += sendToStartThreatShare * worst
			break
		}
	}
	return threat
}

// hitCounts are, for each square, how many of the 100 rolls let a pair of pawns end on it.
type hitCounts [Home + 1]uint8

// rollsReachingCache keeps hitCounts by the attacking pawns and Curse: at most 102 × 102 × 2 entries.
var rollsReachingCache sync.Map

// rollsReaching counts, for each square from 1 to 100, the rolls of the 100 with which a pawn of from
// can end on it using one or more of the dice (the rest go to the other pawn, PC-6). Start and home
// count 0: nobody is bumped there (PC-7, PC-8).
func rollsReaching(from [2]int, cursed bool) *hitCounts {
	key := [3]int{min(from[0], from[1]), max(from[0], from[1]), 0}
	if cursed {
		key[2] = 1
	}
	if hits, ok := rollsReachingCache.Load(key); ok {
		return hits.(*hitCounts)
	}
	attack := &reachable().attack[key[2]]
	hits := new(hitCounts)
	for d1 := 1; d1 <= 10; d1++ {
		for d2 := 1; d2 <= 10; d2++ {
			var can squareSet
			for _, p := range from {
				if p != Home {
					can = can.union(attack[p][d1][d2])
				}
			}
			can.each(func(n int) {
				if n != Start && n != Home {
					hits[n]++
				}
			})
		}
	}
	rollsReachingCache.Store(key, hits)
	return hits
}
