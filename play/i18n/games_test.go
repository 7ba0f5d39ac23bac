package i18n_test

import (
	"encoding/json"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/players"
	"primegames/play/i18n"
)

// Every legal action's description and every hint in random games of every kind is said whole in every language:
// changed, and with none of the English words the games' sentences are made of left in it.
func TestEveryLegalActionAndHintIsTranslated(t *testing.T) {
	t.Parallel()
	english := []string{"pawn", "seat", " then ", "your", " card", " the ", "play ", "draw ", " and "}
	seen := map[string]bool{}
	for _, kind := range games.All().Kinds() {
		for seed := uint64(1); seed <= 4; seed++ {
			steps, err := players.Playout(kind, 2, players.Random, seed, 300)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range steps {
				status := st.State.Status()
				if status.Finished {
					continue
				}
				raw, err := json.Marshal(st.State.LegalActions(status.ToAct[0]))
				if err != nil {
					t.Fatal(err)
				}
				var legal []struct {
					Description string `json:"description"`
				}
				if err := json.Unmarshal(raw, &legal); err != nil {
					t.Fatal(err)
				}
				for _, l := range legal {
					if l.Description != "" {
						seen[l.Description] = true
					}
				}
				if kind.Advisor == nil || seed > 1 {
					continue
				}
				// The hint's sentence.
				seat := status.ToAct[0]
				view, err := json.Marshal(st.State.View(domain.Player(seat)))
				if err != nil {
					t.Fatal(err)
				}
				var entries []json.RawMessage
				if err := json.Unmarshal(raw, &entries); err != nil {
					t.Fatal(err)
				}
				advice, err := kind.Advisor.Choose(view, entries, domain.LevelExpert, domain.SeededRand(seed, 7))
				if err != nil {
					t.Fatal(err)
				}
				seen[advice.Explanation] = true
			}
		}
	}
	if len(seen) < 50 {
		t.Fatalf("only %d descriptions seen", len(seen))
	}
	for _, code := range i18n.Codes()[1:] {
		l := i18n.Of(code)
		bad := 0
		for d := range seen {
			got := l.Text(d)
			left := ""
			for _, w := range english {
				if strings.Contains(got, w) {
					left = w
				}
			}
			if (got == d || left != "") && bad < 10 {
				bad++
				t.Errorf("%s: %q is said %q (%q left)", code, d, got, left)
			}
		}
	}
}
