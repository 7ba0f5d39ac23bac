package primed

import (
	"encoding/json"
	"reflect"
	"testing"
)

// The fast path must agree with the JSON decoder wherever it answers.
func TestCanonicalActionParsingAgreesWithDecoder(t *testing.T) {
	for _, raw := range []string{
		`{"type":"draw"}`, `{"type":"pass"}`, `{"type":"play","cards":[13]}`, `{"type":"play","cards":[1,2,17]}`,
		`{"type":"play","cards":[]}`, `{"type":"play","cards":[01]}`, `{"type":"play","cards":[1,,2]}`,
		`{"type":"play","cards":[1,2,]}`, `{"type":"play","cards":[-1]}`, `{"type":"play","cards":[1000]}`,
		`{"type":"play","cards":[1 ]}`, `{"type":"play","cards":[0]}`,
	} {
		fast, ok := parseCanonicalAction([]byte(raw))
		if !ok {
			continue
		}
		var slow Action
		if err := json.Unmarshal([]byte(raw), &slow); err != nil || !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: fast %+v, decoder %+v (%v)", raw, fast, slow, err)
		}
	}
	for _, a := range []Action{{Type: ActionDraw}, {Type: ActionPass}, {Type: ActionPlay, Cards: []int{4, 17, 1}}} {
		if got, ok := parseCanonicalAction(a.JSON()); !ok || !reflect.DeepEqual(got, a) {
			t.Errorf("%s: fast path gave %+v, %v", a.JSON(), got, ok)
		}
	}
}

func FuzzCanonicalAction(f *testing.F) {
	f.Add([]byte(`{"type":"play","cards":[1,2]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		fast, ok := parseCanonicalAction(raw)
		if !ok {
			return
		}
		var slow Action
		if err := json.Unmarshal(raw, &slow); err != nil || !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%s: fast %+v, decoder %+v (%v)", raw, fast, slow, err)
		}
	})
}
