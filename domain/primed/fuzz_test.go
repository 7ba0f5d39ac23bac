package primed

import (
	"encoding/json"
	"errors"
	"testing"

	"primegames/domain"
)

// FuzzActions feeds arbitrary sequences of actions to games of every variant: nothing panics, every
// error is a *domain.Error, and every accepted action leaves a valid table.
func FuzzActions(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(2), []byte(`{"type":"draw"}`+"\n"+`{"type":"play","cards":[3]}`))
	f.Add(uint64(2), uint8(5), uint8(3), []byte(`{"type":"play","cards":[1,2,3]}`+"\n"+`{"type":"pass"}`+"\n"+`[]`))
	f.Add(uint64(3), uint8(7), uint8(4), []byte("{}\n{\"type\":\"play\",\"cards\":[-4]}\nnull"))
	f.Fuzz(func(t *testing.T, seed uint64, variant, seats uint8, script []byte) {
		variants := allVariants(1 + int(seed%3))
		o := variants[int(variant)%len(variants)]
		n := 2 + int(seats)%5
		s, _, err := Start(o.Canonical(), n, domain.SeededRand(seed, 0))
		if err != nil {
			checkDomainError(t, err)
			return
		}
		lines := splitLines(script)
		for i, line := range lines {
			if i > 200 {
				break
			}
			// Each line is tried as every seat would send it, then the bot moves so the game goes on.
			for seat := -1; seat <= n; seat++ {
				next, out, err := s.Apply(seat, line, domain.SeededRand(seed, int64(i+1)))
				if err != nil {
					checkDomainError(t, err)
					continue
				}
				s = next.(*State)
				if err := s.t.validate(); err != nil {
					t.Fatalf("after %s: %v", line, err)
				}
				if _, err := json.Marshal(out.Redact(domain.Player(seat))); err != nil {
					t.Fatal(err)
				}
			}
			if !s.Status().Finished {
				legal := s.Legal(s.Turn())
				next, _, err := s.Apply(s.Turn(), legal[int(seed+uint64(i))%len(legal)].Action.JSON(), domain.SeededRand(seed, int64(1000+i)))
				if err != nil {
					t.Fatalf("listed action refused: %v", err)
				}
				s = next.(*State)
			}
		}
	})
}

func checkDomainError(t *testing.T, err error) {
	t.Helper()
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("error %T is not a *domain.Error: %v", err, err)
	}
	if de.Code == "" || de.Message == "" || de.Kind == domain.KindInternal {
		t.Fatalf("error without code, message or kind: %+v", de)
	}
}

func splitLines(b []byte) []json.RawMessage {
	var out []json.RawMessage
	start := 0
	for i := 0; i <= len(b); i++ {
		if i == len(b) || b[i] == '\n' {
			out = append(out, json.RawMessage(b[start:i]))
			start = i + 1
		}
	}
	return out
}
