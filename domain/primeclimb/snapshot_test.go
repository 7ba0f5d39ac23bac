package primeclimb

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"primegames/domain"
)

func TestStateJSONRoundTrip(t *testing.T) {
	s := drawAt(37, Swap, [2]int{80, 5}).holding(1, Curse)
	s.Players[0].Pawns[1] = 20
	s.Turn.StartPawns[1] = 20
	pending, _ := apply(t, s, 0, moveTo)
	for _, st := range []State{game([2]int{0, 0}), s, pending} {
		raw, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Rules.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, st) {
			t.Fatalf("round trip differs:\n%+v\n%+v", back, st)
		}
	}
	if _, err := Rules.Decode(json.RawMessage(`{"players":[]}`)); domain.ErrorKind(err) != domain.KindInvalid {
		t.Fatal(err)
	}
}

func TestViewHidesOnlyTheDeckOrder(t *testing.T) {
	s := game([2]int{3, 0}, [2]int{0, 0}).holding(1, Curse)
	for _, v := range []domain.Viewer{domain.Public, domain.Player(0), domain.Player(1)} {
		raw, _ := json.Marshal(s.View(v))
		if strings.Contains(string(raw), `"deck":`) || !strings.Contains(string(raw), `"deck_size":24`) || !strings.Contains(string(raw), `"curse"`) {
			t.Fatalf("view for %v: %s", v, raw)
		}
	}
	full := s.ViewFor(domain.Full)
	if len(full.Deck) != 24 || full.Deck[0] != s.Deck[0] {
		t.Fatal("the full view lacks the deck")
	}
	scores := s.ScoreList()
	if len(scores) != 2 || scores[0].Progress != 3 || scores[1].Cards != 1 || scores[0].Winner {
		t.Fatalf("scores %+v", scores)
	}
}

func TestBoardColours(t *testing.T) {
	b := Board()
	if len(b) != 102 {
		t.Fatal(len(b))
	}
	for n, want := range map[int]string{0: "start", 1: "white", 2: "orange", 7: "purple", 12: "orange,orange,green",
		13: "red", 22: "orange,red", 30: "orange,green,blue", 97: "red", 101: "home"} {
		if got := strings.Join(b[n].Colors, ","); got != want {
			t.Errorf("%d: %s, want %s", n, got, want)
		}
	}
	if b[13].Red != true || b[7].Red || b[101].Red || !b[101].Prime {
		t.Fatal("red squares are primes 11..97")
	}
}

func TestEveryLegalActionIsAccepted(t *testing.T) {
	s := game([2]int{12, 30}, [2]int{45, 60}).holding(0, PlusMinus(3), SendToStart, Curse).rolled(4, 4, 4, 4)
	legal := s.Legal(0)
	if len(legal) < 20 {
		t.Fatalf("only %d actions", len(legal))
	}
	seen := map[string]bool{}
	for _, la := range legal {
		raw, _ := json.Marshal(la.Action)
		if seen[string(raw)] {
			t.Fatalf("listed twice: %s", raw)
		}
		seen[string(raw)] = true
		if _, _, err := s.Apply(0, raw, domain.SeededRand(1, 1)); err != nil {
			t.Fatalf("%s refused: %v", raw, err)
		}
	}
	if len(game([2]int{0, 0}, [2]int{0, 0}).Legal(1)) != 0 {
		t.Fatal("a seat out of turn has actions")
	}
}
