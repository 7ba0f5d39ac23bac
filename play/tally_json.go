package play

import (
	"slices"
	"strconv"
	"strings"

	"primegames/domain"
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
		dst = domain.AppendJSONInts(append(dst, `,"resigned":`...), t.Resigned)
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
		dst = domain.AppendJSONString(dst, name)
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, int64(named[name]), 10)
	}
	return append(dst, '}')
}
