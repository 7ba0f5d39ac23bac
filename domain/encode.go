package domain

import (
	"encoding/json"
	"strconv"
)

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

// AppendJSONArray appends items as encoding/json writes a slice, each item by appendItem: null when
// items is nil.
func AppendJSONArray[T any](dst []byte, items []T, appendItem func(item *T, dst []byte) []byte) []byte {
	if items == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendItem(&items[i], dst)
	}
	return append(dst, ']')
}

// AppendJSONInts appends ns as encoding/json writes a []int: null when nil.
func AppendJSONInts(dst []byte, ns []int) []byte { return AppendJSONArray(dst, ns, appendJSONInt) }

func appendJSONInt(n *int, dst []byte) []byte { return strconv.AppendInt(dst, int64(*n), 10) }

// AppendJSONIntPtr appends p as encoding/json writes an *int: null when nil.
func AppendJSONIntPtr(dst []byte, p *int) []byte {
	if p == nil {
		return append(dst, "null"...)
	}
	return strconv.AppendInt(dst, int64(*p), 10)
}

// SnapshotAppender is a State that appends its snapshot itself, without reflection: the bytes
// json.Marshal gives for it (each kind tests that they are the same).
type SnapshotAppender interface {
	AppendSnapshot(dst []byte) []byte
}

// EncodeSnapshot is the snapshot of s that its kind's Decode restores, as json.Marshal encodes it.
func EncodeSnapshot(s State) ([]byte, error) {
	if a, ok := s.(SnapshotAppender); ok {
		return a.AppendSnapshot(make([]byte, 0, 1024)), nil // most snapshots are under 1 KB
	}
	return json.Marshal(s)
}
