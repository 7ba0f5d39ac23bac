package domain

import "encoding/json"

// AppendJSONString appends s as encoding/json writes a string: as it is when it is printable ASCII
// with nothing to escape (a name, a kind, a counter's name), else as encoding/json escapes it.
func AppendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			encoded, _ := json.Marshal(s) // a string always encodes
			return append(dst, encoded...)
		}
	}
	return append(append(append(dst, '"'), s...), '"')
}
