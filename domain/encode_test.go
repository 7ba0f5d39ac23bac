package domain

import (
	"encoding/json"
	"testing"
)

// A string is written byte for byte as encoding/json writes it, escaped or not.
func TestAppendJSONStringIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "primed", "prime-climb", "with space", `quote"`, `back\slash`, "<b>&", "tab\t",
		"nl\n", "ünïcode", "x\u2028y", "\x7f", string([]byte{0xff, 'a'})} {
		want, _ := json.Marshal(s)
		if got := AppendJSONString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("%q: wrote %s, encoding/json writes %s", s, got[1:], want)
		}
	}
}
