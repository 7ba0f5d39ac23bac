// Package primeclimb is the rules engine of Prime Climb ("prime-climb"): two pawns per player race from
// Start (0) to Home (101) by adding, subtracting, multiplying or dividing with two ten-sided dice, and
// landing newly on a red prime from 11 to 97 draws a Prime Card. Rules PC-1..PC-14, G-1 and G-2 of
// docs/rules.md are cited where the code follows them.
//
// Numbering: seats and pawns are 0-based in JSON and in every message ("pawn 0 of seat 1"). Dice
// values are 1..10 (PC-3).
//
// Options: {"prime_cards": true} (default true; false plays without cards, PC-11).
//
// Actions (JSON sent to Apply):
//
//	{"type":"roll"}
//	{"type":"keeper","card":"plus_minus_5","pawn":1,"sign":"-"}       ±1..±9 on an own pawn
//	{"type":"keeper","card":"send_to_start","target_seat":2,"pawn":0} any pawn on 1..100
//	{"type":"keeper","card":"curse","target_seat":1}                  an opponent
//	{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"},{"card":"plus_minus_5","pawn":1,"sign":"-"}],"draw_pawn":0}
//	{"type":"choose","target_seat":1,"pawn":0}                        answer a Swap
//	{"type":"choose","target_seat":1,"card":"curse"}                  answer a Steal
//
// A turn: in the "roll" phase the player may play keepers, then rolls; in the "move" phase the player
// may play more keepers one by one and then sends the whole move as one action whose steps spend every
// die use (op is add, subtract, multiply or divide) and may include keepers too. Keepers played before
// the roll or before the move action belong to the turn's move: the start-of-turn positions (PC-10) are
// taken before any keeper, a pawn moved by a keeper has moved (PC-9), and nobody is bumped until the move
// action ends. The move action then bumps (PC-9), draws (PC-10, draw_pawn picks the pawn when both earned
// the card and is ignored otherwise), applies an action card (PC-13) and ends the turn, unless a Swap or
// Steal with several candidates waits in the "resolve" phase for a choose action. A keeper that brings
// the second pawn home wins at once, even before the roll.
//
// Legal lists the moves that spend the dice alone; the judge of play (Advisor: computer players,
// hints, review) also tries every move with ± keepers before, between and after the dice (moves.go),
// and may choose one that Legal does not list (domain.Advice.Action).
//
// Cards are named by kind: plus_minus_1..plus_minus_9, send_to_start, curse (keepers, PC-12) and
// roll_again, plus_minus_50, double_or_back_10, advance_to_nearest_pawn, reverse_to_nearest_pawn,
// reverse_digits, swap, go_to_64, steal (actions, PC-13). A Curse targets an opponent with a pawn not
// home; a second Curse before that turn is accepted and changes nothing. A keeper got on a turn becomes
// playable when its owner's next turn starts (HeldCard.New). A single player skips the roll-off.
//
// Errors are *domain.Error with stable codes: not_your_turn, wrong_phase, game_over, invalid_action,
// invalid_step, invalid_pawn, unknown_card, illegal_step, die_not_available, dice_unused, cursed,
// card_not_held, card_drawn_this_turn, not_a_keeper, pawn_home, invalid_target.
package primeclimb
