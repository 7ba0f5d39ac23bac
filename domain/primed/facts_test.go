package primed

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames/domain"
)

// refusedWith checks a refusal's facts: that they are the numbers wanted, and that they match the
// schema schemas.yaml declares for the code (x-refusal-codes).
func refusedWith(t *testing.T, schemas openapi3.Schemas, s *State, seat int, action json.RawMessage, code string, want any) {
	t.Helper()
	e := refused(t, s, seat, action, code)
	if !reflect.DeepEqual(e.Facts, want) {
		t.Fatalf("%s: facts %#v, want %#v", code, e.Facts, want)
	}
	name := factsSchemaFor(t, schemas, code)
	if name == "" {
		return // a code every kind shares: openapi.yaml declares it (checked over HTTP)
	}
	conforms(t, schemas, name, e.Facts)
}

func factsSchemaFor(t *testing.T, schemas openapi3.Schemas, code string) string {
	t.Helper()
	for name, ref := range schemas {
		codes, _ := ref.Value.Extensions["x-refusal-codes"].([]any)
		if slices.Contains(codes, any(code)) {
			return name
		}
	}
	return ""
}

// PR-4: a miss says which total it made and why that total misses: its prime factors.
func TestPR4_FactsOfAMiss(t *testing.T) {
	schemas := loadSchemas(t)
	s := crafted(t, primes, 1, [][]int{{1}, {4, 8, 9}}, []int{13}, nil, fillDraw)
	refusedWith(t, schemas, s, 1, PlayAction(8), "not_prime", SumFacts{Top: 13, Cards: []int{8}, Total: 21, Factors: []int{3, 7}})
	s = crafted(t, composites, 1, [][]int{{1}, {4, 8}}, []int{5}, nil, fillDraw)
	refusedWith(t, schemas, s, 1, PlayAction(8), "not_composite", SumFacts{Top: 5, Cards: []int{8}, Total: 13, Factors: []int{13}})
	s = crafted(t, multi, 1, [][]int{{1}, {4, 5, 8}}, []int{13}, nil, fillDraw)
	refusedWith(t, schemas, s, 1, PlayAction(4, 8), "not_prime", SumFacts{Top: 13, Cards: []int{4, 8}, Total: 25, Factors: []int{5, 5}})
}

// PR-5: the refusals of the turn's order and of the hand name the cards and the phase.
func TestPR5_FactsOfTheTurnsRefusals(t *testing.T) {
	schemas := loadSchemas(t)
	s := crafted(t, primes, 1, [][]int{{1}, {13, 14, 17, 2}}, []int{9}, nil, fillDraw)
	refusedWith(t, schemas, s, 1, PlayAction(13, 14), "one_card_only", CardsFacts{Cards: []int{13, 14}})
	refusedWith(t, schemas, s, 1, PlayAction(6), "card_not_in_hand", CardNotInHandFacts{Card: 6, Played: 1, Held: 0})
	refusedWith(t, schemas, s, 1, PassAction(), "wrong_phase", WrongPhaseFacts{Phase: PhasePlay, Action: ActionPass})
	refusedWith(t, schemas, s, 0, PlayAction(1), "not_your_turn", domain.NotYourTurnFacts{Seat: 0, ToAct: []int{1}})

	s = crafted(t, multi, 1, [][]int{{1}, {4, 5, 8}}, []int{13}, nil, fillDraw)
	refusedWith(t, schemas, s, 1, PlayAction(4, 4), "card_not_in_hand", CardNotInHandFacts{Card: 4, Played: 2, Held: 1})
	refusedWith(t, schemas, s, 1, DrawAction(), "play_available", PlayAvailableFacts{Top: 13, Target: TargetPrimes})

	s = crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{4}, fillDraw)
	s, _ = apply(t, s, 1, DrawAction(), noRand{t})
	refusedWith(t, schemas, s, 1, PlayAction(8), "must_play_drawn_card_or_pass", DrawnCardFacts{Drawn: 4, Cards: []int{8}})
	refusedWith(t, schemas, s, 1, DrawAction(), "wrong_phase", WrongPhaseFacts{Phase: PhaseDrawn, Action: ActionDraw, Drawn: 4})
}

// PR-7: after the last round the game is over, and the refusal names the winners.
func TestPR7_FactsOfGameOver(t *testing.T) {
	s := crafted(t, opts(DeckPrimed, TargetPrimes, false, 1), 1, [][]int{{1}, {4}}, []int{13}, nil, fillDraw)
	s, _ = apply(t, s, 1, PlayAction(4), firstRand{})
	if s.Status().Phase != PhaseFinished {
		t.Fatalf("phase %s after the only round's last card", s.Status().Phase)
	}
	e := refused(t, s, 0, DrawAction(), "game_over")
	if want := (domain.GameOverFacts{Winners: []int{1}}); !reflect.DeepEqual(e.Facts, want) {
		t.Fatalf("facts %#v, want %#v", e.Facts, want)
	}
}

// PR-4: the statistics count a miss under the total it made, a not_prime and a not_composite apart;
// other refusals tell no total.
func TestPR4_MissesCountUnderTheirTotals(t *testing.T) {
	for _, c := range []struct {
		code, facts, figure, value string
		ok                         bool
	}{
		{"not_prime", `{"top":13,"cards":[8],"total":21,"factors":[3,7]}`, FigureNotPrimeTotals, "21", true},
		{"not_composite", `{"top":5,"cards":[8],"total":13,"factors":[13]}`, FigureNotCompositeTotals, "13", true},
		{"play_available", `{"top":13,"target":"primes"}`, "", "", false},
		{"not_prime", `{"top":"13"}`, "", "", false},
	} {
		figure, value, ok := Kind.MistakeOf(c.code, json.RawMessage(c.facts))
		if figure != c.figure || value != c.value || ok != c.ok {
			t.Errorf("%s %s: %q %q %v, want %q %q %v", c.code, c.facts, figure, value, ok, c.figure, c.value, c.ok)
		}
	}
}
