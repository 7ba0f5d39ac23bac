package play

import (
	"context"
	"errors"
	"testing"
	"time"

	"primegames/domain"
	"primegames/play/playclock"
)

// The parts run on fakes of only the ports they hold, without Postgres.

// classroomStoreFake answers each call with err, and records the name key a rename was asked with.
type classroomStoreFake struct {
	ClassroomStore
	err     error
	nameKey string
}

func (f *classroomStoreFake) RenameStudent(_ context.Context, _, id, name, nameKey string) (*StudentRecord, error) {
	f.nameKey = nameKey
	if f.err != nil {
		return nil, f.err
	}
	return &StudentRecord{ID: id, Name: name}, nil
}

func (f *classroomStoreFake) EraseStudent(context.Context, string, string) (*StudentRecord, error) {
	return nil, f.err
}

func (f *classroomStoreFake) ClassroomByJoinCode(context.Context, string) (*Classroom, error) {
	return nil, f.err
}

func refusalCode(t *testing.T, err error) string {
	t.Helper()
	var refusal *domain.Error
	if !errors.As(err, &refusal) {
		t.Fatalf("got %v, want a refusal", err)
	}
	return refusal.Code
}

func TestClassroomsPartRefusesWhatItsStoreAnswers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cases := []struct {
		name, want string
		storeErr   error
		call       func(c *classrooms) error
	}{
		{"rename to a taken name", "name_taken", ErrTaken, func(c *classrooms) error {
			_, err := c.RenameStudent(ctx, "room", "st", "Ada")
			return err
		}},
		{"rename no such student", "student_not_found", ErrNotFound, func(c *classrooms) error {
			_, err := c.RenameStudent(ctx, "room", "st", "Ada")
			return err
		}},
		{"erase a current student", "student_not_removed", ErrNotRemoved, func(c *classrooms) error {
			_, err := c.EraseStudent(ctx, "room", "st")
			return err
		}},
		{"join with an unknown code", "join_code_not_found", ErrNotFound, func(c *classrooms) error {
			_, _, _, err := c.JoinClassroom(ctx, "ABCD-EFGH", "Ada")
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := &classrooms{store: &classroomStoreFake{err: tc.storeErr}}
			if got := refusalCode(t, tc.call(c)); got != tc.want {
				t.Errorf("refused with %q, want %q", got, tc.want)
			}
		})
	}
}

func TestClassroomsPartComparesNamesIgnoringCase(t *testing.T) {
	t.Parallel()
	lower, upper := &classroomStoreFake{}, &classroomStoreFake{}
	for store, name := range map[*classroomStoreFake]string{lower: "ada", upper: "ADA"} {
		if _, err := (&classrooms{store: store}).RenameStudent(context.Background(), "room", "st", name); err != nil {
			t.Fatal(err)
		}
	}
	if lower.nameKey == "" || lower.nameKey != upper.nameKey {
		t.Errorf("the store got the keys %q and %q for ada and ADA, want the same", lower.nameKey, upper.nameKey)
	}
}

// observerTokensFake holds one observer token.
type observerTokensFake struct {
	Authorities
	rec ObserverRecord
}

func (f observerTokensFake) ObserverToken(context.Context, []byte) (*ObserverRecord, error) {
	return &f.rec, nil
}

func TestAuthoritiesPartEndsAnObserverTokenAtItsExpiryByTheClock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	expires := start.Add(time.Hour)
	clock := playclock.New(start)
	a := &authorities{store: observerTokensFake{rec: ObserverRecord{ID: "obs", GameID: "g1", ExpiresAt: &expires}}, clock: clock}
	p, err := a.Resolve(context.Background(), Principal{Kind: Observer, TokenHash: []byte{1}})
	if err != nil || !p.Resolved || p.GameID != "g1" || p.ObserverID != "obs" {
		t.Fatalf("before expiry: %+v, %v", p, err)
	}
	clock.Set(expires)
	if p, err = a.Resolve(context.Background(), Principal{Kind: Observer, TokenHash: []byte{1}}); err != nil || p.Resolved {
		t.Fatalf("at expiry: %+v, %v; want unresolved", p, err)
	}
}
