package middleware

import (
	"regexp"
	"testing"
)

// A request ID is unique and tells nothing of how many requests came before it: consecutive IDs
// share no prefix an observer could read a count after, and making one costs one allocation (the
// string). Not parallel: AllocsPerRun refuses to run beside other tests.
func TestRequestIDsTellNoCount(t *testing.T) {
	hexID := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	prefixes := map[string]bool{}
	for range 1000 {
		id := NewRequestID()
		if !hexID.MatchString(id) || seen[id] {
			t.Fatalf("request ID %q: want 32 hex digits, never seen before", id)
		}
		seen[id] = true
		prefixes[id[:4]] = true
	}
	if len(prefixes) < 500 { // 1000 draws of 65,536 prefixes: about 993 distinct
		t.Errorf("1000 consecutive IDs have %d distinct 4-digit prefixes: a prefix and a count show through", len(prefixes))
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = NewRequestID() }); allocs > 1 {
		t.Errorf("a request ID costs %v allocations, want 1", allocs)
	}
}

func BenchmarkNewRequestID(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = NewRequestID()
	}
}
