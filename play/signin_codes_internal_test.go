package play

import (
	"strings"
	"testing"
)

// A code is six characters of the join codes' alphabet, the same for the same student and nonce,
// another for another nonce or secret; over many students each character is drawn about evenly.
func TestSignInCodeDerivation(t *testing.T) {
	t.Parallel()
	sc := signInCodes{secret: signInKey("one secret")}
	other := signInCodes{secret: signInKey("another secret")}
	id := "0b6f3e2a-1c4d-4e5f-9a8b-7c6d5e4f3a2b"
	code := sc.code(id, 7)
	if len(code) != SignInCodeLength || strings.Trim(code, joinCodeAlphabet) != "" {
		t.Fatalf("code %q is not six characters of the alphabet", code)
	}
	if sc.code(id, 7) != code || sc.code(id, 8) == code || other.code(id, 7) == code {
		t.Errorf("codes: same %q, next nonce %q, other secret %q", sc.code(id, 7), sc.code(id, 8), other.code(id, 7))
	}
	counts := map[rune]int{}
	const draws = 3000
	for n := range int64(draws) {
		for _, r := range sc.code(id, n) {
			counts[r]++
		}
	}
	mean := float64(draws*SignInCodeLength) / float64(len(joinCodeAlphabet))
	for _, r := range joinCodeAlphabet {
		if c := float64(counts[r]); c < mean*0.8 || c > mean*1.2 {
			t.Errorf("%c drawn %v times, want about %.0f", r, c, mean)
		}
	}
	if got := normalSignInCode(" h4k-p9z "); got != "H4KP9Z" {
		t.Errorf("normalSignInCode = %q", got)
	}
}
