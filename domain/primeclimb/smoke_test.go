package primeclimb

import (
	"encoding/json"
	"testing"

	"primegames/domain"
)

func TestSmokeRandomGame(t *testing.T) {
	r := domain.SeededRand(1, 0)
	st, _, err := Rules.Start(nil, 3, r)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 5000 && !st.Status().Finished; i++ {
		seat := st.Status().ToAct[0]
		legal := st.(State).Legal(seat)
		if len(legal) == 0 {
			t.Fatalf("no legal actions in %+v", st)
		}
		pick := legal[r.IntN(len(legal))]
		raw, _ := json.Marshal(pick.Action)
		st, _, err = st.Apply(seat, raw, domain.SeededRand(1, int64(i)))
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
	}
	t.Logf("%+v", st.Status())
}
