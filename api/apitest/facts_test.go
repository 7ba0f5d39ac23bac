package apitest

import (
	"net/http"
	"testing"

	"primegames"
)

// The facts check is what keeps a refusal's facts to the schema of its code: it must refuse facts
// of the wrong shape, and facts for a code the contract declares none for.
func TestFactsAreCheckedAgainstTheirCodesSchema(t *testing.T) {
	c, err := NewContract(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	header := http.Header{"Content-Type": {"application/problem+json"}}
	for body, ok := range map[string]bool{
		`{"code":"not_prime","facts":{"top":13,"cards":[8],"total":21,"factors":[3,7]}}`:                                           true,
		`{"code":"not_prime","facts":{"top":13,"cards":[8],"total":21}}`:                                                           false, // PR-4's factors missing
		`{"code":"not_prime","facts":{"from":37,"op":"multiply","reason":"past_101"}}`:                                             false, // illegal_step's shape
		`{"code":"illegal_step","facts":{"reason":"past_101","pawn":1,"from":37,"op":"multiply","die":3,"amount":3,"result":111}}`: true,
		`{"code":"wrong_phase","facts":{"phase":"drawn","action":"draw","drawn":4}}`:                                               true, // Primed's
		`{"code":"wrong_phase","facts":{"phase":"move","action":"roll","dice":[3,5]}}`:                                             true, // Prime Climb's
		`{"code":"game_not_found","facts":{"id":"x"}}`:                                                                             false,
		`{"code":"game_not_found"}`: true,
		`{"items":[{"code":"version_mismatch","facts":{"current":"9","sent":7}}]}`: false,
	} {
		err := c.checkFacts(header, []byte(body))
		if (err == nil) != ok {
			t.Errorf("%s: error %v, want ok=%v", body, err, ok)
		}
	}
}
