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
	seen := map[string]bool{}
	for step := range int64(200) {
		a, err := players.Decide(kind, domain.LevelRandom, nil, threeEntries, domain.SeededRand(1, step))
		if err != nil {
			t.Fatal(err)
		}
		seen[string(a)] = true
	}
	if len(seen) != len(threeEntries) {
		t.Errorf("random picked %v of 3 entries in 200 steps", seen)
	}
	for _, level := range []domain.Level{domain.LevelGreedy, domain.LevelExpert} {
		if a, err := players.Decide(kind, level, nil, threeEntries, domain.SeededRand(1, 0)); err != nil || string(a) != `{"type":"c"}` {
			t.Errorf("%s without an advisor = %s, %v; want the kind's greedy pick 2", level, a, err)
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
		if a, err := players.Decide(kind, level, json.RawMessage(`{"seen":true}`), threeEntries, domain.SeededRand(1, 0)); err != nil || string(a) != `{"type":"b"}` {
			t.Errorf("%s = %s, %v; want the advisor's 1", level, a, err)
		}
	}
	if len(asked) != 2 || asked[0] != domain.LevelGreedy || asked[1] != domain.LevelExpert {
		t.Errorf("the advisor was asked at %v", asked)
	}
	pick = -1
	advised := json.RawMessage(`{"type":"unlisted"}`)
	kind.Advisor.Choose = func(json.RawMessage, []json.RawMessage, domain.Level, domain.Rand) (domain.Advice, error) {
		return domain.Advice{Index: pick, Action: advised}, nil
	}
	if a, err := players.Decide(kind, domain.LevelExpert, nil, threeEntries, domain.SeededRand(1, 0)); err != nil || string(a) != string(advised) {
		t.Errorf("an advisor's unlisted action = %s, %v", a, err)
	}
	kind.Advisor.Choose = func(json.RawMessage, []json.RawMessage, domain.Level, domain.Rand) (domain.Advice, error) {
		return domain.Advice{Index: 3}, nil
	}
	if _, err := players.Decide(kind, domain.LevelExpert, json.RawMessage(`{"seen":true}`), threeEntries, domain.SeededRand(1, 0)); err == nil {
		t.Error("an advisor's entry out of range was accepted")
	}
}
