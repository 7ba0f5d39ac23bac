package players_test

import (
	"encoding/json"
	"testing"

	"primegames/domain"
	"primegames/domain/players"
)

var threeEntries = []json.RawMessage{[]byte(`{"action":{"type":"a"}}`), []byte(`{"action":{"type":"b"}}`), []byte(`{"action":{"type":"c"}}`)}

// Random picks every entry; a kind without an Advisor plays greedy and expert by its Greedy.
func TestDecideWithoutAnAdvisor(t *testing.T) {
	kind := domain.GameKind{Greedy: func([]json.RawMessage, domain.Rand) (int, error) { return 2, nil }}
	seen := map[int]bool{}
	for step := range int64(200) {
		i, err := players.Decide(kind, domain.LevelRandom, nil, threeEntries, domain.SeededRand(1, step))
		if err != nil {
			t.Fatal(err)
		}
		seen[i] = true
	}
	if len(seen) != len(threeEntries) {
		t.Errorf("random picked %v of 3 entries in 200 steps", seen)
	}
	for _, level := range []domain.Level{domain.LevelGreedy, domain.LevelExpert} {
		if i, err := players.Decide(kind, level, nil, threeEntries, domain.SeededRand(1, 0)); err != nil || i != 2 {
			t.Errorf("%s without an advisor = %d, %v; want the kind's greedy pick 2", level, i, err)
		}
	}
	if _, err := players.Decide(kind, "genius", nil, threeEntries, domain.SeededRand(1, 0)); err == nil {
		t.Error("an unknown level decided")
	}
	if _, err := players.Decide(kind, domain.LevelRandom, nil, nil, domain.SeededRand(1, 0)); err == nil {
		t.Error("decided with no legal action")
	}
}

// With an Advisor, greedy and expert ask it at their own level, with the view they were given.
func TestDecideAsksTheAdvisor(t *testing.T) {
	var asked []domain.Level
	pick := 1
	kind := domain.GameKind{Advisor: &domain.Advisor{Choose: func(view json.RawMessage, legal []json.RawMessage, level domain.Level, _ domain.Rand) (domain.Advice, error) {
		if string(view) != `{"seen":true}` || len(legal) != 3 {
			t.Errorf("the advisor got view %s and %d entries", view, len(legal))
		}
		asked = append(asked, level)
		return domain.Advice{Index: pick}, nil
	}}}
	for _, level := range []domain.Level{domain.LevelGreedy, domain.LevelExpert} {
		if i, err := players.Decide(kind, level, json.RawMessage(`{"seen":true}`), threeEntries, domain.SeededRand(1, 0)); err != nil || i != 1 {
			t.Errorf("%s = %d, %v; want the advisor's 1", level, i, err)
		}
	}
	if len(asked) != 2 || asked[0] != domain.LevelGreedy || asked[1] != domain.LevelExpert {
		t.Errorf("the advisor was asked at %v", asked)
	}
	pick = 3
	if _, err := players.Decide(kind, domain.LevelExpert, json.RawMessage(`{"seen":true}`), threeEntries, domain.SeededRand(1, 0)); err == nil {
		t.Error("an advisor's entry out of range was accepted")
	}
}
