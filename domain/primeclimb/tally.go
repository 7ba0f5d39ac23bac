package primeclimb

import (
	"slices"

	"primegames/domain"
)

// Counter names of Prime Climb's Tally, per seat. They are a stable API: teachers' statistics sum them
// over games, so a name is never renamed or given another meaning.
//
//	turns            move actions the seat sent (a turn won by a keeper before the move has none)
//	op_add           dice steps with + in the seat's moves
//	op_subtract      dice steps with − in the seat's moves
//	op_multiply      dice steps with × in the seat's moves
//	op_divide        dice steps with ÷ in the seat's moves
//	primes_landed    pawns of the seat that ended a move on a red prime 11..97 they had not started the
//	                 turn on (PC-10), 0 to 2 per move, as the move outcome's primes_landed lists them
//	bumps_given      pawns of other seats sent to Start by the seat: the bump after its move (PC-9), a
//	                 pawn its action card moved onto (PC-13), its Send to Start (PC-12); one per pawn
//	bumps_taken      pawns of the seat sent to Start so by another seat; one per pawn
//	own_bumps        pawns of the seat sent to Start by its own move or card: the other own pawn after
//	                 both ended on one square (PC-9), an own pawn its action card moved onto, a Send to
//	                 Start it played on its own pawn
//	cards_drawn      Prime Cards the seat drew after a move (PC-10); not a Steal, not a draw from an
//	                 empty deck and discard pile
//	keepers_played   keepers the seat played, on their own or as steps of a move (PC-12)
//	curses_received  Curses played on the seat by an opponent, a second one before its turn included
const (
	CountTurns          = "turns"
	CountOpAdd          = "op_add"
	CountOpSubtract     = "op_subtract"
	CountOpMultiply     = "op_multiply"
	CountOpDivide       = "op_divide"
	CountPrimesLanded   = "primes_landed"
	CountBumpsGiven     = "bumps_given"
	CountBumpsTaken     = "bumps_taken"
	CountOwnBumps       = "own_bumps"
	CountCardsDrawn     = "cards_drawn"
	CountKeepersPlayed  = "keepers_played"
	CountCursesReceived = "curses_received"
)

// maxSeats is the most seats a game has (PC-1); a tallied outcome naming a higher seat is refused.
const maxSeats = 4

var opCounter = map[string]string{OpAdd: CountOpAdd, OpSubtract: CountOpSubtract, OpMultiply: CountOpMultiply, OpDivide: CountOpDivide}

// Tally adds what one stored outcome (json.Marshal of *Outcome) tells about each seat to counts; see
// the Count constants. Outcomes are read one at a time, in history order; the start and roll outcomes
// count nothing. JSON that is not a Prime Climb outcome is refused with an error and adds nothing;
// TallyOutcome counts an outcome as Apply gave it.
var Tally, TallyOutcome = domain.Tallies("prime-climb", tally)

func tally(o *Outcome, counts domain.Counts) error {
	if err := o.checkTallied(); err != nil {
		return err
	}
	if o.Action == "start" {
		return nil
	}
	seat := *o.Seat
	if o.Action == ActMove {
		counts.Add(seat, CountTurns, 1)
		if n := len(o.PrimesLanded); n > 0 {
			counts.Add(seat, CountPrimesLanded, n)
		}
		if o.Draw != nil && o.Draw.Card != nil {
			counts.Add(seat, CountCardsDrawn, 1)
		}
	}
	for _, st := range o.Steps {
		switch {
		case st.Op != "":
			counts.Add(seat, opCounter[st.Op], 1)
		case st.Card == Curse:
			counts.Add(seat, CountKeepersPlayed, 1)
			counts.Add(*st.TargetSeat, CountCursesReceived, 1)
		case st.Card == SendToStart:
			counts.Add(seat, CountKeepersPlayed, 1)
			tallyBump(counts, seat, *st.TargetSeat)
		default:
			counts.Add(seat, CountKeepersPlayed, 1)
		}
	}
	for _, b := range o.Bumps {
		tallyBump(counts, seat, b.Seat)
	}
	if o.Draw != nil {
		for _, b := range o.Draw.Bumps {
			tallyBump(counts, seat, b.Seat)
		}
	}
	return nil
}

// tallyBump counts one pawn of victim sent to Start by mover.
func tallyBump(counts domain.Counts, mover, victim int) {
	if victim == mover {
		counts.Add(mover, CountOwnBumps, 1)
		return
	}
	counts.Add(mover, CountBumpsGiven, 1)
	counts.Add(victim, CountBumpsTaken, 1)
}

// checkTallied checks what Tally relies on, so that a damaged or foreign outcome is refused rather
// than miscounted.
func (o *Outcome) checkTallied() error {
	bad := func(format string, args ...any) error {
		return domain.Invalid("invalid_outcome", "not a prime-climb outcome: "+format, args...)
	}
	seatOK := func(seat int) bool { return seat >= 0 && seat < maxSeats }
	pawnOK := func(pawn *int) bool { return pawn != nil && (*pawn == 0 || *pawn == 1) }
	posOK := func(at *int) bool { return at != nil && *at >= Start && *at <= Home }
	switch o.Action {
	case "start":
		if o.Seat != nil {
			return bad("the start has no acting seat")
		}
		return nil
	case ActRoll, ActKeeper, ActMove, ActChoose:
	default:
		return bad("unknown action %q", o.Action)
	}
	if o.Seat == nil || !seatOK(*o.Seat) {
		return bad("%s without a seat 0..%d", o.Action, maxSeats-1)
	}
	if o.Action == ActKeeper && (len(o.Steps) != 1 || o.Steps[0].Card == "") {
		return bad("a keeper outcome holds exactly one keeper step")
	}
	if o.Action != ActKeeper && o.Action != ActMove && len(o.Steps) > 0 {
		return bad("a %s outcome has no steps", o.Action)
	}
	for i, st := range o.Steps {
		if !seatOK(st.Seat) {
			return bad("step %d: seat %d", i+1, st.Seat)
		}
		switch {
		case st.Op != "" && st.Card != "":
			return bad("step %d is both a die step and a keeper", i+1)
		case st.Op != "":
			if opCounter[st.Op] == "" || st.Die < 1 || st.Die > 10 || o.Action != ActMove {
				return bad("step %d: die step %d %q", i+1, st.Die, st.Op)
			}
		case st.Card == "":
			return bad("step %d is neither a die step nor a keeper", i+1)
		case !st.Card.IsKeeper():
			return bad("step %d: %q is not a keeper", i+1, st.Card)
		case st.Card == Curse || st.Card == SendToStart:
			if st.TargetSeat == nil || !seatOK(*st.TargetSeat) {
				return bad("step %d: %s without a target seat", i+1, st.Card)
			}
			if st.Card == Curse && *st.TargetSeat == *o.Seat {
				return bad("step %d: a Curse on the seat that played it", i+1)
			}
			if st.Card == Curse {
				continue
			}
		}
		if !pawnOK(st.Pawn) || !posOK(st.From) || !posOK(st.To) {
			return bad("step %d: a step moves pawn 0 or 1 from and to squares 0..101", i+1)
		}
	}
	bumps := o.Bumps
	if o.Draw != nil {
		if !pawnOK(&o.Draw.Pawn) {
			return bad("the draw names pawn %d", o.Draw.Pawn)
		}
		if o.Draw.Card != nil && !o.Draw.Card.Valid() {
			return bad("unknown card %q", *o.Draw.Card)
		}
		bumps = append(slices.Clip(bumps), o.Draw.Bumps...)
	}
	for _, b := range bumps {
		if !seatOK(b.Seat) || !pawnOK(&b.Pawn) {
			return bad("a bump of pawn %d of seat %d", b.Pawn, b.Seat)
		}
	}
	return nil
}
