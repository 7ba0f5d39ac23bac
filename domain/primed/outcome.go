package primed

import "primegames/domain"

// Outcome is what the start or one action did. Each part is present only when it happened, in this
// order: played, reshuffled, drew, passed, round_ended, then dealt (a new round) or game_ended.
// The stored outcome holds every card; Redact prepares it for one viewer (PR-8).
type Outcome struct {
	Played     *Played      `json:"played,omitempty"`
	Reshuffled *Reshuffled  `json:"reshuffled,omitempty"`
	Drew       *Drew        `json:"drew,omitempty"`
	Passed     *Passed      `json:"passed,omitempty"`
	RoundEnded *RoundResult `json:"round_ended,omitempty"`
	Dealt      *Dealt       `json:"dealt,omitempty"`
	GameEnded  *GameEnded   `json:"game_ended,omitempty"`
}

// Played: seat put cards on the Primed pile in this order; the last is the new top.
type Played struct {
	Seat     int    `json:"seat"`
	Cards    []int  `json:"cards"`
	On       int    `json:"on"`       // the top card they were played on
	Total    int    `json:"total"`    // on + the cards
	Equation string `json:"equation"` // "5 + 8 = 13 is prime", "13 + 8 = 21 = 3 × 7"
}

// Reshuffled: the draw pile was empty, so the Primed pile except its top was shuffled into a new draw
// pile (PR-6). Only the number of cards is told, never their order.
type Reshuffled struct {
	Seat  int `json:"seat"`
	Cards int `json:"cards"`
}

// Drew: seat drew a card. Card is hidden from everyone but that seat and full viewers.
type Drew struct {
	Seat int `json:"seat"`
	Card int `json:"card,omitempty"`
	// CanPlay says whether the drawn card can hit the target. It is public because everyone sees
	// whether the turn goes on (PR-5).
	CanPlay bool `json:"can_play"`
}

// Reasons a turn ended without a play.
const (
	PassKept        = "kept_drawn_card"        // the player chose to keep a playable drawn card (PR-5)
	PassUnplayable  = "drawn_card_cannot_play" // the drawn card could not hit the target (PR-5)
	PassNothingLeft = "nothing_to_draw"        // nothing to play and nothing to draw (PR-6)
)

// Passed: seat's turn ended without a play.
type Passed struct {
	Seat   int    `json:"seat"`
	Reason string `json:"reason"`
	// InARow counts the seats in a row that passed with nothing to draw (PR-6); the round is blocked
	// when it reaches the number of players. 0 for the other reasons.
	InARow int `json:"in_a_row"`
}

// Ways a round ends (PR-6, PR-7).
const (
	EndWentOut = "went_out"
	EndBlocked = "blocked"
)

// RoundResult is a completed round: its scores and the hands left, which are shown to all (PR-7, PR-8).
type RoundResult struct {
	Round   int    `json:"round"`
	Dealer  int    `json:"dealer"`
	Starter int    `json:"starter"`
	Ending  string `json:"ending"`
	// WentOut is the seat that emptied its hand; absent when the round was blocked.
	WentOut *int    `json:"went_out,omitempty"`
	Hands   [][]int `json:"hands"`
	Scores  []int   `json:"scores"` // per seat: the sum of the cards left in hand
	Totals  []int   `json:"totals"` // running totals after this round
}

// Dealt: a round began (PR-3). Hands holds each seat's dealt hand; a hand the viewer may not see is
// null.
type Dealt struct {
	Round        int     `json:"round"`
	Dealer       int     `json:"dealer"`
	Starter      int     `json:"starter"`
	Top          int     `json:"top"`
	DrawPileSize int     `json:"draw_pile_size"`
	HandSizes    []int   `json:"hand_sizes"`
	Hands        [][]int `json:"hands"`
}

// GameEnded: the last round is over; the lowest total wins, ties share the win (PR-7).
type GameEnded struct {
	Totals  []int `json:"totals"`
	Winners []int `json:"winners"`
}

// Redact returns the outcome as viewer may see it: a drawn card only for the drawing seat, a dealt
// hand only for its owner; full viewers see everything (PR-8).
func (o *Outcome) Redact(viewer domain.Viewer) any {
	r := *o
	if o.Drew != nil && !canSee(viewer, o.Drew.Seat) {
		d := *o.Drew
		d.Card = 0
		r.Drew = &d
	}
	if o.Dealt != nil {
		d := *o.Dealt
		d.Hands = make([][]int, len(o.Dealt.Hands))
		for seat, h := range o.Dealt.Hands {
			if canSee(viewer, seat) {
				d.Hands[seat] = cloneInts(h)
			}
		}
		r.Dealt = &d
	}
	return &r
}

// canSee reports whether viewer may see seat's hidden cards.
func canSee(viewer domain.Viewer, seat int) bool {
	return viewer.Role == domain.RoleFull || (viewer.Role == domain.RolePlayer && viewer.Seat == seat)
}
