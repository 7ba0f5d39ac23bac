package primeclimb

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"primegames/domain"
)

// FuzzActions feeds arbitrary action sequences, one JSON action per line; an empty line plays a legal
// action so that games get somewhere. Nothing may panic and every error must be a *domain.Error.
func FuzzActions(f *testing.F) {
	f.Add(uint64(1), []byte("{\"type\":\"roll\"}\n\n{\"type\":\"move\",\"steps\":[{\"die\":3,\"pawn\":0,\"op\":\"add\"}]}\n"))
	f.Add(uint64(2), []byte("\n\n\n\n{\"type\":\"keeper\",\"card\":\"curse\",\"target_seat\":9}\n{\"type\":\"choose\",\"target_seat\":0,\"card\":\"x\"}"))
	f.Add(uint64(3), []byte("{\"type\":\"move\",\"steps\":[{\"card\":\"send_to_start\",\"target_seat\":-1,\"pawn\":0}]}\nnull\n[]\n{}"))
	f.Fuzz(func(t *testing.T, seed uint64, script []byte) {
		st, _, err := Rules.Start(nil, int(seed%4)+1, domain.SeededRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range bytes.Split(script, []byte("\n")) {
			if i > 200 || st.Status().Finished {
				return
			}
			seat := st.Status().ToAct[0]
			if len(line) == 0 {
				legal := st.(State).Legal(seat)
				line, _ = json.Marshal(legal[int(seed+uint64(i))%len(legal)].Action)
			} else if line[0]%7 == 0 {
				seat = (seat + 1) % 5
			}
			next, out, err := st.Apply(seat, line, domain.SeededRand(seed, int64(i+1)))
			if err != nil {
				var de *domain.Error
				if !errors.As(err, &de) || de.Message == "" {
					t.Fatalf("%s: error %T %v", line, err, err)
				}
				continue
			}
			if _, err := json.Marshal(out.Redact(domain.Public)); err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, next.(State), ptr(st.(State)))
			st = next
		}
	})
}
