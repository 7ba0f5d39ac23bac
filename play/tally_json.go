package play

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// appendJSON appends t as json.Marshal encodes it, without reflection: a game's tally is encoded
// on every action, and encoding/json's maps cost an allocation per key and per value. The keys
// come in the order encoding/json sorts them (as strings: seat "10" before seat "2").
func (t *GameTally) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"counts":`...)
	if t.Counts == nil {
		dst = append(dst, "null"...)
	} else {
		seats := make([]int, 0, 8)
		for seat := range t.Counts {
			seats = append(seats, seat)
		}
		slices.SortFunc(seats, func(a, b int) int { return strings.Compare(strconv.Itoa(a), strconv.Itoa(b)) })
		dst = append(dst, '{')
		for i, seat := range seats {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '"')
			dst = strconv.AppendInt(dst, int64(seat), 10)
			dst = append(dst, `":`...)
			dst = appendCounters(dst, t.Counts[seat])
		}
		dst = append(dst, '}')
	}
	if len(t.Resigned) > 0 {
		dst = append(dst, `,"resigned":[`...)
		for i, seat := range t.Resigned {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(seat), 10)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// appendCounters appends one seat's counters as json.Marshal encodes the map.
func appendCounters(dst []byte, named map[string]int) []byte {
	if named == nil {
		return append(dst, "null"...)
	}
	names := make([]string, 0, 16)
	for name := range named {
		names = append(names, name)
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, name)
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, int64(named[name]), 10)
	}
	return append(dst, '}')
}

// appendJSONString appends s as encoding/json quotes it: as it is when it is printable ASCII that
// needs no escape (a counter's name always is), else by encoding/json itself.
func appendJSONString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s) // a string always encodes
			return append(dst, quoted...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
