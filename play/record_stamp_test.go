package play

import (
	"testing"
	"time"
)

// A record's stamp changes with its version, its seats' names and its turn deadline, and only then.
func TestRecordStampFollowsWhatChangesARecord(t *testing.T) {
	t.Parallel()
	deadline := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	record := func(version int64, names []string, deadline *time.Time) *GameRecord {
		r := &GameRecord{Version: version, TurnDeadline: deadline}
		for i, n := range names {
			r.Seats = append(r.Seats, Seat{Seat: i, Name: n})
		}
		return r
	}
	base := record(3, []string{"Ada", "Ben"}, &deadline)
	sameDeadline := deadline.In(time.FixedZone("elsewhere", 3600))
	if !base.Stamp().Equal(record(3, []string{"Ada", "Ben"}, &sameDeadline).Stamp()) {
		t.Error("two records with the same content have different stamps")
	}
	later := deadline.Add(time.Second)
	for name, other := range map[string]*GameRecord{
		"a new version":     record(4, []string{"Ada", "Ben"}, &deadline),
		"a seat renamed":    record(3, []string{"Adele", "Ben"}, &deadline),
		"a seat more":       record(3, []string{"Ada", "Ben", "Cy"}, &deadline),
		"the turn put off":  record(3, []string{"Ada", "Ben"}, &later),
		"the deadline gone": record(3, []string{"Ada", "Ben"}, nil),
	} {
		if base.Stamp().Equal(other.Stamp()) {
			t.Errorf("%s: the stamp did not change", name)
		}
	}
}
