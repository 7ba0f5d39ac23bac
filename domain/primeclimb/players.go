package primeclimb

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Furthest is the greedy player's pick among legal: a winning entry, else the move entry whose
// pawns end with the highest sum (ties at random), else any entry. It returns an index of legal.
func Furthest(legal []LegalAction, r domain.Rand) int {
	scores := make([]int, len(legal))
	for i, la := range legal {
		scores[i] = la.progress()
	}
	return best(scores, r)
}

// progress scores an entry for Furthest: a win above every move, a move by where its pawns end,
// anything else -1.
func (la LegalAction) progress() int {
	switch {
	case la.Wins:
		return 1000
	case la.Ends != nil:
		return la.Ends[0] + la.Ends[1]
	}
	return -1
}

// best is the index of the highest non-negative score, ties broken at random, or a random index
// when no score is.
func best(scores []int, r domain.Rand) int {
	pick, top, ties := r.IntN(len(scores)), -1, 0
	for i, score := range scores {
		if score > top {
			pick, top, ties = i, score, 1
		} else if score == top && score >= 0 {
			ties++
			if r.IntN(ties) == 0 {
				pick = i
			}
		}
	}
	return pick
}

// greedy is Furthest over legal actions as JSON (domain.GameKind.Greedy).
func greedy(legal []json.RawMessage, r domain.Rand) (int, error) {
	entries := make([]LegalAction, len(legal))
	for i, raw := range legal {
		var la struct {
			Ends *[2]int `json:"ends"`
			Wins bool    `json:"wins"`
		}
		if err := json.Unmarshal(raw, &la); err != nil {
			return 0, fmt.Errorf("prime climb legal action %d: %w", i, err)
		}
		entries[i] = LegalAction{Ends: la.Ends, Wins: la.Wins}
	}
	return Furthest(entries, r), nil
}
