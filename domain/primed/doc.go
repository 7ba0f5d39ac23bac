// Package primed is the rules engine of Primed, the card game of making primes (or composites) by
// adding cards to the top of a pile. It implements domain.Rules as Rules, with the rulings PR-1..PR-8.
//
// # Options
//
//	{"deck":"primed","target":"primes","multi_card":false,"rounds":4}
//
// deck is "primed" (four each of 1..17, 2–6 players) or "standard" (four each of 1..10, 2–5 players);
// target is "primes" or "composites"; rounds is 1..20 (MaxRounds). Missing fields take these defaults.
//
// # Actions
//
// Only the seat whose turn it is acts.
//
//	{"type":"play","cards":[13]}    play cards from the hand; top + their sum must hit the target
//	{"type":"draw"}                 draw one card; allowed only when no legal play exists
//	{"type":"pass"}                 keep a drawn card that could be played, ending the turn
//
// Without multi_card a play has exactly one card. With it, a play has one or more cards; they go onto
// the Primed pile in the order given and the last becomes the top. Cards are named by value; copies
// of a value are indistinguishable.
//
// After a draw: when the drawn card can hit the target (alone, or with multi_card together with other
// hand cards), the phase becomes "drawn" and the player must play a play that includes the drawn card
// or pass; when it cannot, the turn ends at once.
//
// An empty draw pile is refilled by shuffling the Primed pile under its top card (PR-6). When even that
// leaves nothing to draw, the draw action itself is the pass that PR-6 describes: it is accepted,
// draws nothing, and ends the turn (the outcome's "passed" has reason "nothing_to_draw"). When every
// seat in turn has passed so with no card played in between, the round ends as blocked. With a full
// deck this cannot happen (some hand always holds a card that hits the target on any top), but the
// engine handles it as the ruling says.
//
// # Rounds
//
// Each round collects every card, shuffles the whole deck, deals seven cards to each seat starting
// with the seat after the dealer, and flips the next card onto the Primed pile. Round 1's dealer is
// seat 0; each next dealer is the previous round's starting seat (PR-3). A round ends the moment a
// hand is empty; every seat scores the sum of the cards left in its hand (PR-7). After the last round
// the lowest total wins, and ties share the win.
//
// # Chance
//
// The engine draws random values from the domain.Rand it is given, and only to shuffle: once per
// deal and once per PR-6 refill. Everything else is determined by the actions, so domain.Fold rebuilds
// any game from its history.
//
// # Computer players
//
// Advisor is the kind's judgement for computer players, hints and move review. It reads only the
// acting seat's view and legal actions as JSON (PR-8). The expert values an action by the hand total
// it expects to end the round with, measured by playing the round out many times over random deals
// of the cards it has not seen (rollout.go); in multi-card games it weighs every play of its hand and
// which card to leave on top (advisor.go). A review names the missed opportunities go_out,
// lower_total and longer_play (review.go).
//
// The JSON shapes of options, actions, outcomes, views, legal actions and scores are described in
// schemas.yaml.
package primed
