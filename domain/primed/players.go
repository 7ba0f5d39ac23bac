package primed

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// LowestHand is the greedy player's pick among legal: the play whose cards add up to the most,
// leaving the lowest hand (the first such play), else any entry. In single-card games it plays the
// highest card it may, keeping the small cards that fit more tops. It returns an index of legal.
func LowestHand(legal []LegalAction, r domain.Rand) int {
	pick, most := r.IntN(len(legal)), 0
	for i, la := range legal {
		if played := sum(la.Action.Cards); la.Action.Type == ActionPlay && played > most {
			pick, most = i, played
		}
	}
	return pick
}

// greedy is LowestHand over legal actions as JSON (domain.GameKind.Greedy).
func greedy(legal []json.RawMessage, r domain.Rand) (int, error) {
	entries := make([]LegalAction, len(legal))
	for i, raw := range legal {
		if err := json.Unmarshal(raw, &entries[i]); err != nil {
			return 0, fmt.Errorf("primed legal action %d: %w", i, err)
		}
	}
	return LowestHand(entries, r), nil
}
