package primeclimb

// bump sends to Start every pawn that shares a square other than 0 and 101 with one of the mover's
// pawns that moved this turn (PC-9). When the mover's own pawns share a square, the one that moved last
// stays. It runs once, after the whole move, so passing through an occupied square never bumps.
func (s *State) bump(out *Outcome) {
	seat := s.Turn.Seat
	own := &s.mover().Pawns
	if own[0] == own[1] && own[0] != Start && own[0] != Home && s.Turn.LastMoved >= 0 {
		loser := 1 - s.Turn.LastMoved
		out.Bumps = append(out.Bumps, Bump{Seat: seat, Pawn: loser, From: own[loser]})
		own[loser] = Start
	}
	for i, at := range own {
		if !s.Turn.Moved[i] || at == Start || at == Home {
			continue
		}
		for _, ref := range s.pawnsAt(at) {
			if ref.Seat != seat {
				out.Bumps = append(out.Bumps, Bump{Seat: ref.Seat, Pawn: ref.Pawn, From: at})
				s.Players[ref.Seat].Pawns[ref.Pawn] = Start
			}
		}
	}
}

// bumpAllAt bumps every pawn on square n except keep, for a pawn moved there by an action card (PC-13).
func (s *State) bumpAllAt(n int, keep PawnRef, d *Draw) {
	if n == Start || n == Home {
		return
	}
	for _, ref := range s.pawnsAt(n) {
		if ref != keep {
			d.Bumps = append(d.Bumps, Bump{Seat: ref.Seat, Pawn: ref.Pawn, From: n})
			s.Players[ref.Seat].Pawns[ref.Pawn] = Start
		}
	}
}
