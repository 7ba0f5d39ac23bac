package primeclimb

// The expert's evaluation is in turns: how many turns sooner than its strongest opponent a seat is
// expected to bring both pawns home. A seat's distance is soloTurns of its pawns, less what its keepers
// are worth, plus a Curse waiting for it and the pawns its next opponent can bump on the coming roll.
// A won game is worth winValue, far beyond any race, so that missing a win is always a blunder.
const (
	winValue = 100.0
	// rollAgainValue is a whole extra turn (PC-13).
	rollAgainValue = 1.0
	// curseCost is a turn whose dice may only subtract or divide (PC-12).
	curseCost = 0.6
	// bumpThreatShare is how much of a bump the next opponent can make counts: they may prefer
	// another move.
	bumpThreatShare = 0.8
	// sendToStartThreatShare is the same for an opponent's Send to Start on the best pawn.
	sendToStartThreatShare = 0.7
)

// keeperValue is what holding a keeper is worth, in turns (PC-12).
func keeperValue(c Card) float64 {
	switch c {
	case SendToStart:
		return 0.8
	case Curse:
		return 0.5
	}
	return 0.3
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
	if hits := rollsReaching(attacker.Pawns, attacker.CursedNext, pawns); hits != [2]int{} {
		threat = bumpThreatShare * (float64(hits[0])*cost[0] + float64(hits[1])*cost[1]) / 100
	}
	for _, h := range attacker.Keepers {
		if h.Card == SendToStart {
			threat += sendToStartThreatShare * worst
			break
		}
	}
	return threat
}

// rollsReaching counts, for each target square, the rolls of the 100 with which a pawn of from can end
// on it using one or more of the dice (the rest go to the other pawn, PC-6).
func rollsReaching(from [2]int, cursed bool, targets [2]int) [2]int {
	r := reachable()
	var hits [2]int
	for d1 := 1; d1 <= 10; d1++ {
		for d2 := 1; d2 <= 10; d2++ {
			var can squareSet
			for _, p := range from {
				if p == Home {
					continue
				}
				switch {
				case cursed:
					can = can.union(r.cursed[p][d1]).union(r.cursed[p][d2])
				case d1 == d2:
					for k := 1; k <= 4; k++ {
						can = can.union(r.uses[k][p][d1])
					}
				default:
					can = can.union(r.uses[1][p][d1]).union(r.uses[1][p][d2]).union(r.pair[p][d1][d2])
				}
			}
			for i, x := range targets {
				if x != Start && x != Home && can.has(x) {
					hits[i]++
				}
			}
		}
	}
	return hits
}
