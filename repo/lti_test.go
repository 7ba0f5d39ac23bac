package repo_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"primegames/play"
	"primegames/repo/repotest"
)

// Two first launches of one course at once make one classroom between them, and two of one
// learner one student; a second instance starting makes no second current tool key.
func TestLTIFirstLaunchesAtOnceMakeOneOfEach(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := repotest.NewDB(t).Games()
	now := time.Now()
	reg, err := store.InsertLTIPlatform(ctx, play.LTIPlatform{Issuer: "https://lms.example", ClientID: "c", DeploymentIDs: []string{"d"},
		JWKSURL: "https://lms.example/jwks", AuthURL: "https://lms.example/auth", TokenURL: "https://lms.example/token", CreatedAt: now}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.InsertLTIPlatform(ctx, play.LTIPlatform{Issuer: "https://other.example", ClientID: "c", DeploymentIDs: []string{"d"},
		JWKSURL: "https://other.example/jwks", AuthURL: "https://other.example/auth", TokenURL: "https://other.example/token", CreatedAt: now}, 1); !errors.Is(err, play.ErrFull) {
		t.Errorf("a registration beyond the bound: %v, want ErrFull", err)
	}
	acc, err := store.UpsertAccount(ctx, play.LTIAccountIssuer(reg.ID), "teacher", "T", now)
	if err != nil {
		t.Fatal(err)
	}
	course := []byte("course-hash")
	classrooms := make([]string, 4)
	var wg sync.WaitGroup
	for i := range classrooms {
		wg.Go(func() {
			id, err := store.EnsureLTIClassroom(ctx, reg.ID, course, acc.ID, "Maths", "JOIN-00"+string(rune('A'+i)), []byte{byte(i)}, "")
			if err != nil {
				t.Error(err)
			}
			classrooms[i] = id
		})
	}
	wg.Wait()
	for _, id := range classrooms[1:] {
		if id != classrooms[0] {
			t.Fatalf("first launches at once made classrooms %v", classrooms)
		}
	}
	students := make([]string, 4)
	for i := range students {
		wg.Go(func() {
			st, removed, err := store.EnsureLTIStudent(ctx, classrooms[0], []byte("learner-hash"), "Ada", "ada", []byte{9, byte(i)})
			if err != nil || removed {
				t.Error(err, removed)
				return
			}
			students[i] = st.ID
		})
	}
	wg.Wait()
	for _, id := range students[1:] {
		if id != students[0] {
			t.Fatalf("first launches of a learner at once made students %v", students)
		}
	}
	inserted := 0
	for i := range 3 {
		ok, err := store.InsertLTIToolKey(ctx, play.LTIToolKey{KID: "k" + string(rune('0'+i)), PublicJWK: []byte(`{}`), Sealed: []byte{1}, CreatedAt: now}, false, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			inserted++
		}
	}
	if keys, err := store.LTIToolKeys(ctx, now); err != nil || inserted != 1 || len(keys) != 1 {
		t.Errorf("tool keys made at start: %d inserted, %d published (%v)", inserted, len(keys), err)
	}
}
