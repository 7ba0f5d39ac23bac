package primed

import (
	"encoding/json"
	"strconv"
)

// Figures of the class statistics made from refused plays (PR-4): the totals played as primes
// (or composites) that were not, each counted once per refusal.
const (
	FigureNotPrimeTotals     = "not_prime_totals"
	FigureNotCompositeTotals = "not_composite_totals"
)

// mistake counts a play that missed the target under the total it made.
func mistake(code string, facts json.RawMessage) (figure, value string, ok bool) {
	switch code {
	case "not_prime":
		figure = FigureNotPrimeTotals
	case "not_composite":
		figure = FigureNotCompositeTotals
	default:
		return "", "", false
	}
	var sum SumFacts
	if err := json.Unmarshal(facts, &sum); err != nil || sum.Total == 0 {
		return "", "", false
	}
	return figure, strconv.Itoa(sum.Total), true
}
