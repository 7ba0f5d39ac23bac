package contract

import (
	"strings"
	"testing"
)

func nested(depth int) string {
	return strings.Repeat(`{"x":`, depth) + "1" + strings.Repeat("}", depth)
}

func TestCheckJSONDocument(t *testing.T) {
	t.Parallel()
	for body, ok := range map[string]bool{
		`{"name":"Ada"}`:                                     true,
		" {\"name\":\"Ada\"}\r\n\t":                          true,
		`[1,2.5e3,true,false,null,"x"]`:                      true,
		`"just a string"`:                                    true,
		`{"a":"\\u0000"}`:                                    true, // an escaped backslash followed by text, not a NUL
		`{"a":"\ud83d\ude00 \u00e9"}`:                        true, // a surrogate pair and a plain escape
		`{"a":"\"{[{[{[{[{[{[{[{[{[{"}`:                      true, // brackets inside a string do not nest
		nested(maxJSONDepth):                                 true,
		`[` + nested(maxJSONDepth-1) + `]`:                   true,
		`[` + strings.Repeat(`1,`, maxJSONEntries-2) + `{}]`: true,
		`{"a":"` + strings.Repeat(`,[{`, 2000) + `"}`:        true,

		nested(maxJSONDepth + 1):      false,
		strings.Repeat("[", 10000):    false,
		`{"name":"T"}}}garbage`:       false,
		`{"name":"T"} {"name":"U"}`:   false,
		`{"name":"T"`:                 false,
		"{\"name\":\"T\xff\"}":        false,
		"{\"name\":\"\xed\xa0\x80\"}": false, // a surrogate encoded as UTF-8
		`{"name":"T\ud800"}`:          false,
		`{"name":"T\uDC00"}`:          false,
		`{"name":"T\ud800\u0041"}`:    false,
		`{"name":"T\ud800\ud800"}`:    false,
		`{"name":"\ud800`:             false,
		`{"name":"A\u0000"}`:          false,
		`{"name\u0000":"A"}`:          false,
		"{\"name\":\"A\x00\"}":        false,
		``:                            false,
		`   `:                         false,
	} {
		err := CheckJSONDocument([]byte(body))
		if ok && err != nil {
			t.Errorf("%.60q refused: %v", body, err)
		}
		if !ok && err == nil {
			t.Errorf("%.60q accepted", body)
		}
	}
}

// Refusing a body for its shape allocates nothing in proportion to its size (issue 10, item 1).
func TestCheckJSONDocumentAllocatesLittleForALargeBody(t *testing.T) {
	for name, body := range map[string][]byte{
		"deep": []byte(`{"join_code":"AAAAAA","name":"N","extra":` + nested(9990) + `}`),
		"wide": []byte(`[` + strings.Repeat(`{"q":1},`, 7000) + `1]`),
	} {
		var err error
		allocs := testing.AllocsPerRun(20, func() { err = CheckJSONDocument(body) })
		if err == nil {
			t.Fatalf("the %s body was accepted", name)
		}
		if allocs > 4 {
			t.Errorf("refusing the %d-byte %s body took %.0f allocations, want at most 4", len(body), name, allocs)
		}
	}
}

func BenchmarkCheckJSONDocument(b *testing.B) {
	for name, body := range map[string]string{
		"refused deep":   `{"join_code":"AAAAAA","name":"N","extra":` + nested(9990) + `}`,
		"refused wide":   `[` + strings.Repeat(`{"q":1},`, 7000) + `1]`,
		"accepted large": `{"a":["` + strings.Repeat(`\u00e9\ud83d\ude00 text `, 2500) + `"]}`,
		"accepted small": `{"game":"primed","players":[{"name":"Ada"},{"name":"Zoë"}],"options":{"rounds":3}}`,
	} {
		data := []byte(body)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				_ = CheckJSONDocument(data)
			}
		})
	}
}
