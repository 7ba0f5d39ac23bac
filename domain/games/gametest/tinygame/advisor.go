package tinygame

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// advisor judges the tiny game exactly, as if two played: the chance the seat to act wins from a
// pile with the best play on both sides. Its loss is a chance of winning given away.
var advisor = domain.Advisor{Choose: choose, Review: review, Thresholds: [3]float64{0.05, 0.2, 0.4}}

// winChance is the chance that the seat to act with pile counters left wins, both playing their best.
func winChance(pile int) float64 {
	chance := make([]float64, pile+1) // chance[0] = 0: the seat before took the last counter
	for p := 1; p <= pile; p++ {
		for _, a := range []action{{Type: "take", Count: 1}, {Type: "take", Count: 2}, {Type: "roll"}} {
			if v, ok := valueOf(a, p, chance); ok && v > chance[p] {
				chance[p] = v
			}
		}
	}
	return chance[pile]
}

// valueOf is the mover's chance of winning after a from pile, given chance for smaller piles.
func valueOf(a action, pile int, chance []float64) (float64, bool) {
	after := func(left int) float64 { return 1 - chance[left] }
	switch {
	case a.Type == "take" && a.Count >= 1 && a.Count <= min(2, pile):
		return after(pile - a.Count), true
	case a.Type == "roll" && pile == 1:
		return after(0), true
	case a.Type == "roll":
		return (after(pile-1) + after(pile-2)) / 2, true
	}
	return 0, false
}

func actionValue(a action, pile int) (float64, error) {
	chance := make([]float64, pile+1)
	for p := 1; p < pile; p++ {
		chance[p] = winChance(p)
	}
	v, ok := valueOf(a, pile, chance)
	if !ok {
		return 0, fmt.Errorf("%+v is not legal with %d on the pile", a, pile)
	}
	return v, nil
}

// judged reads the pile and the actions on offer.
func judged(view json.RawMessage, legal []json.RawMessage) (int, []action, error) {
	var s state
	if err := json.Unmarshal(view, &s); err != nil {
		return 0, nil, err
	}
	actions := make([]action, len(legal))
	for i, raw := range legal {
		var entry legalAction
		if err := json.Unmarshal(raw, &entry); err != nil {
			return 0, nil, err
		}
		actions[i] = entry.Action
	}
	return s.Pile, actions, nil
}

func choose(view json.RawMessage, legal []json.RawMessage, level domain.Level, r domain.Rand) (domain.Advice, error) {
	pile, actions, err := judged(view, legal)
	if err != nil || len(actions) == 0 {
		return domain.Advice{}, fmt.Errorf("nothing to choose from: %v", err)
	}
	var best []int
	bestValue := -1.0
	for i, a := range actions {
		v, err := actionValue(a, pile)
		if level == domain.LevelGreedy {
			v = float64(a.Count) // the most counters now
		}
		switch {
		case err != nil:
			return domain.Advice{}, err
		case v > bestValue:
			best, bestValue = []int{i}, v
		case v == bestValue:
			best = append(best, i)
		}
	}
	pick := best[r.IntN(len(best))]
	return domain.Advice{Index: pick, Explanation: explain(actions[pick], pile)}, nil
}

func explain(a action, pile int) string {
	if a.Type == "roll" {
		return fmt.Sprintf("roll: with %d on the pile no take is safer than chance", pile)
	}
	if a.Count == pile {
		return fmt.Sprintf("take %d: it is the last of the pile and wins", a.Count)
	}
	return fmt.Sprintf("take %d: it leaves %d, a multiple of 3, so the next player cannot force a win", a.Count, pile-a.Count)
}

func review(view json.RawMessage, legal []json.RawMessage, played json.RawMessage) (domain.Judgement, error) {
	pile, actions, err := judged(view, legal)
	if err != nil {
		return domain.Judgement{}, err
	}
	var p action
	if err := json.Unmarshal(played, &p); err != nil {
		return domain.Judgement{}, err
	}
	best, err := choose(view, legal, domain.LevelExpert, firstOf{})
	if err != nil {
		return domain.Judgement{}, err
	}
	bestValue, err := actionValue(actions[best.Index], pile)
	if err != nil {
		return domain.Judgement{}, err
	}
	playedValue, err := actionValue(p, pile)
	if err != nil {
		return domain.Judgement{}, err
	}
	j := domain.Judgement{Best: best, Loss: max(0, bestValue-playedValue), Missed: []domain.Missed{}}
	if pile <= 2 && playedValue < 1 {
		win, _ := json.Marshal(action{Type: "take", Count: pile})
		j.Missed = append(j.Missed, domain.Missed{Kind: "win", Detail: fmt.Sprintf("taking %d would have emptied the pile and won", pile), Action: win})
	}
	return j, nil
}

// firstOf is the chance a review's best is picked with: the first of equals, the same every time.
type firstOf struct{}

func (firstOf) IntN(int) int { return 0 }
