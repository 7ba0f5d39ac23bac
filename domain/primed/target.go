package primed

import (
	"strconv"
	"strings"

	"primegames/domain/numbers"
)

// hits reports whether total meets the target (PR-4): a prime, or a composite (at least 4, not prime).
func hits(target string, total int) bool {
	if target == TargetComposites {
		return numbers.IsComposite(total)
	}
	return numbers.IsPrime(total)
}

// targetNoun is the word for what the target asks for: "prime" or "composite".
func targetNoun(target string) string {
	if target == TargetComposites {
		return "composite"
	}
	return "prime"
}

// sumExpression writes the addition a play makes, top first: "13 + 4 + 4".
func sumExpression(top int, cards []int) (string, int) {
	var b strings.Builder
	b.WriteString(strconv.Itoa(top))
	total := top
	for _, c := range cards {
		b.WriteString(" + ")
		b.WriteString(strconv.Itoa(c))
		total += c
	}
	return b.String(), total
}

// equation is how a played sum is shown to players: "5 + 8 = 13 is prime", "13 + 8 = 21 = 3 × 7".
func equation(top int, cards []int) string {
	expr, total := sumExpression(top, cards)
	return expr + " = " + numbers.FactorString(total)
}
