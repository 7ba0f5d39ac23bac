package primed

import (
	"primegames/domain"
)

// Counter names of Primed's Tally, per seat. They are a stable API: teachers' statistics sum them over
// games, so a name is never renamed or given another meaning.
//
//	plays              play actions of the seat (PR-5), a play of a drawn card included
//	cards_played       cards the seat put on the Primed pile in those plays
//	multi_card_plays   plays of two or more cards (multi_card option)
//	draws              draw actions of the seat that drew a card (a draw with nothing to draw is a pass)
//	passes             turns of the seat that ended without a play, for any reason: it kept a playable
//	                   drawn card, the drawn card could not hit the target, or there was nothing to draw
//	                   (PR-5, PR-6)
//	rounds             rounds scored for the seat (PR-7)
//	round_score_total  the sum of the seat's round scores, so its average round score is
//	                   round_score_total / rounds (lower is better)
//	went_out           rounds the seat ended by emptying its hand (PR-7)
const (
	CountPlays           = "plays"
	CountCardsPlayed     = "cards_played"
	CountMultiCardPlays  = "multi_card_plays"
	CountDraws           = "draws"
	CountPasses          = "passes"
	CountRounds          = "rounds"
	CountRoundScoreTotal = "round_score_total"
	CountWentOut         = "went_out"
)

// Tally adds what one stored outcome (json.Marshal of *Outcome, with every card) tells about each seat
// to counts; see the Count constants. Outcomes are read one at a time, in history order; the start,
// which only deals, counts nothing. JSON that is not a Primed outcome is refused with an error and adds
// nothing; TallyOutcome counts an outcome as Apply gave it.
var Tally, TallyOutcome = domain.Tallies("Primed", tally)

func tally(o *Outcome, counts domain.Counts) error {
	if err := o.checkTallied(); err != nil {
		return err
	}
	if p := o.Played; p != nil {
		counts.Add(p.Seat, CountPlays, 1)
		counts.Add(p.Seat, CountCardsPlayed, len(p.Cards))
		if len(p.Cards) >= 2 {
			counts.Add(p.Seat, CountMultiCardPlays, 1)
		}
	}
	if o.Drew != nil {
		counts.Add(o.Drew.Seat, CountDraws, 1)
	}
	if o.Passed != nil {
		counts.Add(o.Passed.Seat, CountPasses, 1)
	}
	if r := o.RoundEnded; r != nil {
		for seat, score := range r.Scores {
			counts.Add(seat, CountRounds, 1)
			counts.Add(seat, CountRoundScoreTotal, score)
		}
		if r.WentOut != nil {
			counts.Add(*r.WentOut, CountWentOut, 1)
		}
	}
	return nil
}

// checkTallied checks what Tally relies on, so that a damaged or foreign outcome is refused rather
// than miscounted.
func (o *Outcome) checkTallied() error {
	bad := func(format string, args ...any) error {
		return domain.Invalid("invalid_outcome", "not a Primed outcome: "+format, args...)
	}
	const maxSeats = 6 // PR-1
	seatOK := func(seat int) bool { return seat >= 0 && seat < maxSeats }
	if o.Played == nil && o.Reshuffled == nil && o.Drew == nil && o.Passed == nil && o.RoundEnded == nil &&
		o.Dealt == nil && o.GameEnded == nil {
		return bad("it tells nothing that happened")
	}
	if p := o.Played; p != nil {
		if !seatOK(p.Seat) || len(p.Cards) == 0 {
			return bad("a play by seat %d of %d cards", p.Seat, len(p.Cards))
		}
		if o.Drew != nil || o.Passed != nil {
			return bad("a play is neither a draw nor a pass")
		}
	}
	if o.Drew != nil && (!seatOK(o.Drew.Seat) || o.Drew.Card < 1) {
		return bad("a draw by seat %d of card %d", o.Drew.Seat, o.Drew.Card)
	}
	if p := o.Passed; p != nil {
		switch p.Reason {
		case PassKept, PassUnplayable, PassNothingLeft:
		default:
			return bad("unknown reason to pass %q", p.Reason)
		}
		if !seatOK(p.Seat) {
			return bad("a pass by seat %d", p.Seat)
		}
	}
	if r := o.RoundEnded; r != nil {
		n := len(r.Scores)
		if n < 2 || n > maxSeats {
			return bad("round %d scores %d seats", r.Round, n)
		}
		for _, score := range r.Scores {
			if score < 0 {
				return bad("round %d has a negative score", r.Round)
			}
		}
		switch {
		case r.Ending == EndWentOut && r.WentOut != nil && *r.WentOut >= 0 && *r.WentOut < n:
		case r.Ending == EndBlocked && r.WentOut == nil:
		default:
			return bad("round %d ended %q", r.Round, r.Ending)
		}
	}
	return nil
}

// MeasureAverageRoundScore names the mean round score (lower is better) among Primed's measures.
const MeasureAverageRoundScore = "average_round_score"

// Measures derives Primed's figures from counters summed over games: the average round score,
// round_score_total / rounds, once a round has been scored.
func Measures(counts map[string]int) map[string]float64 {
	m := map[string]float64{}
	if rounds := counts[CountRounds]; rounds > 0 {
		m[MeasureAverageRoundScore] = float64(counts[CountRoundScoreTotal]) / float64(rounds)
	}
	return m
}
