package play

import (
	"fmt"
	"slices"
	"strings"
)

// Why a seat has no legal action: the same codes an action sent then would be refused with.
const (
	NoActionNotYourTurn   = "not_your_turn"   // the game is being played and another seat must act
	NoActionGameNotActive = "game_not_active" // the game waits in its lobby or was aborted
	NoActionGameOver      = "game_over"       // the game is finished
)

// Choices is what one seat may do now and, when that is nothing, why.
type Choices struct {
	// Actions is the kind's list of legal actions, ready to encode as JSON; nil when there is none.
	Actions any
	// ToAct are the seats that may act now; empty unless the game is being played.
	ToAct []int
	// Reason is empty when Actions lists what the seat may do; otherwise one of the NoAction codes,
	// with Detail saying the same in a sentence.
	Reason, Detail string
}

// ChoicesOf tells seat what it may do in g now, or why it may do nothing.
func (g *Game) ChoicesOf(seat int) Choices {
	switch {
	case g.Status == StatusFinished:
		return Choices{ToAct: []int{}, Reason: NoActionGameOver, Detail: fmt.Sprintf("Game %s is finished; nobody acts any more.", g.ID)}
	case g.Status != StatusActive || g.State == nil:
		return Choices{ToAct: []int{}, Reason: NoActionGameNotActive, Detail: fmt.Sprintf("Game %s is %s; it takes no actions.", g.ID, g.Status)}
	}
	toAct := g.State.Status().ToAct
	if toAct == nil {
		toAct = []int{}
	}
	if !slices.Contains(toAct, seat) {
		return Choices{ToAct: toAct, Reason: NoActionNotYourTurn, Detail: fmt.Sprintf("It is not your turn: %s.", g.whoseTurn(toAct))}
	}
	return Choices{Actions: g.State.LegalActions(seat), ToAct: toAct}
}

// whoseTurn names the seats that may act, for a sentence.
func (g *Game) whoseTurn(toAct []int) string {
	names := make([]string, len(toAct))
	for i, seat := range toAct {
		names[i] = fmt.Sprintf("seat %d", seat)
		if at := slices.IndexFunc(g.Seats, func(s Seat) bool { return s.Seat == seat }); at >= 0 && g.Seats[at].Name != "" {
			names[i] = fmt.Sprintf("%s (seat %d)", g.Seats[at].Name, seat)
		}
	}
	switch len(names) {
	case 0:
		return "nobody may act just now"
	case 1:
		return "it is " + names[0] + " to act"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " may act"
}
