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

// A stamped record's copies carry its stamp, found without working it out again, while they are
// as it was stamped; a copy changed since (a new version, a seat renamed, the turn put off) has
// the stamp of what it is now. (Not parallel: it counts allocations.)
func TestAStampedRecordsCopiesCarryItsStamp(t *testing.T) {
	deadline := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	stamped := (&GameRecord{Version: 3, TurnDeadline: &deadline, Seats: []Seat{{Name: "Ada"}, {Name: "Ben"}}}).Stamped()
	fresh := func(r GameRecord) RecordStamp { r.stamp = nil; return r.Stamp() }

	same := *stamped
	if allocs := testing.AllocsPerRun(100, func() { _ = same.Stamp() }); allocs != 0 {
		t.Errorf("the stamp of a stamped record's copy costs %v allocations, want 0", allocs)
	}
	if !same.Stamp().Equal(fresh(same)) {
		t.Error("a copy's carried stamp differs from its own")
	}
	later := deadline.Add(time.Minute)
	changes := map[string]func(r *GameRecord){
		"a new version":     func(r *GameRecord) { r.Version++ },
		"a seat renamed":    func(r *GameRecord) { r.Seats = []Seat{{Name: "Adele"}, {Name: "Ben"}} },
		"the turn put off":  func(r *GameRecord) { r.TurnDeadline = &later },
		"the deadline gone": func(r *GameRecord) { r.TurnDeadline = nil },
	}
	for name, change := range changes {
		changed := *stamped
		change(&changed)
		if changed.Stamp().Equal(stamped.Stamp()) || !changed.Stamp().Equal(fresh(changed)) {
			t.Errorf("%s: the copy still has the stamp it was given", name)
		}
	}
}
