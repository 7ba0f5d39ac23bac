package repo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"primegames/play"
	"primegames/repo/repotest"
)

// The grades waiting to go are claimed within their bounds: every platform's first before any's
// second, at most perPlatform in flight per platform across racing claimers; a score waits for
// its line item; a change while a send is in flight sends again; a removed student's LMS id and
// scores go.
func TestLTIGradeJobsClaimedFairlyWithinBounds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	store := db.Games()
	now := time.Now().UTC().Truncate(time.Second)
	type course struct {
		assignment string
		students   []string
	}
	courses := make([]course, 2)
	for i, learners := range []int{5, 1} {
		host := fmt.Sprintf("https://lms%d.example", i)
		reg, err := store.InsertLTIPlatform(ctx, play.LTIPlatform{Issuer: host, ClientID: "c", DeploymentIDs: []string{"d"},
			JWKSURL: host + "/jwks", AuthURL: host + "/auth", TokenURL: host + "/token", CreatedAt: now}, 10)
		if err != nil {
			t.Fatal(err)
		}
		acc, err := store.UpsertAccount(ctx, play.LTIAccountIssuer(reg.ID), "teacher", "T", now)
		if err != nil {
			t.Fatal(err)
		}
		classroom, err := store.EnsureLTIClassroom(ctx, reg.ID, []byte("course"), acc.ID, "Maths", fmt.Sprintf("JOIN-%03d", i), []byte{byte(i)}, "")
		if err != nil {
			t.Fatal(err)
		}
		a := &play.Assignment{ClassroomID: classroom, Title: "Two games", Kind: "primed", Options: json.RawMessage(`{}`), Games: 2, Bot: "random", DueAt: now.Add(time.Hour)}
		if err := store.InsertAssignment(ctx, a, now, 10); err != nil {
			t.Fatal(err)
		}
		courses[i].assignment = a.ID
		for n := range learners {
			learner := []byte(fmt.Sprintf("learner-%d-%d", i, n))
			st, _, err := store.EnsureLTIStudent(ctx, classroom, learner, fmt.Sprintf("Ada %d", n), fmt.Sprintf("ada %d", n), []byte{byte(i), byte(n)})
			if err != nil {
				t.Fatal(err)
			}
			if err := store.SetLTIStudentSubject(ctx, learner, []byte("sealed")); err != nil {
				t.Fatal(err)
			}
			courses[i].students = append(courses[i].students, st.ID)
			if _, err := db.Pool.Exec(ctx, `INSERT INTO assignment_progress (assignment_id, student_id) VALUES ($1, $2)`, a.ID, st.ID); err != nil {
				t.Fatal(err)
			}
		}
		if err := store.SetAssignmentGradebook(ctx, classroom, a.ID, true); err != nil {
			t.Fatal(err)
		}
	}
	// Every student finishes a game: the trigger queues their scores, which wait for the line items.
	if _, err := db.Pool.Exec(ctx, `UPDATE assignment_progress SET games_done = 1`); err != nil {
		t.Fatal(err)
	}
	claim := func(at time.Time) []play.LTIGradeJob {
		t.Helper()
		jobs, err := store.ClaimLTIGrades(ctx, at, time.Minute, 2, 8)
		if err != nil {
			t.Fatal(err)
		}
		return jobs
	}
	lineItems := claim(now)
	if len(lineItems) != 2 || lineItems[0].StudentID != "" || lineItems[1].StudentID != "" || lineItems[0].PlatformID == lineItems[1].PlatformID {
		t.Fatalf("first claim: %+v, want the two line items, one a platform", lineItems)
	}
	for i := range lineItems {
		if err := store.LTIGradeDone(ctx, &lineItems[i], play.LTIGradeOutcome{LineItemURL: "https://lms.example/items/" + lineItems[i].AssignmentID}); err != nil {
			t.Fatal(err)
		}
	}

	// Racing claimers: 2 of the first platform's 5 scores, the second's 1.
	var mu sync.Mutex
	var got []play.LTIGradeJob
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			jobs := claim(now)
			mu.Lock()
			got = append(got, jobs...)
			mu.Unlock()
		})
	}
	wg.Wait()
	perAssignment := map[string]int{}
	for _, j := range got {
		perAssignment[j.AssignmentID]++
		if j.StudentID == "" || j.GamesDone != 1 || string(j.SealedSubject) != "sealed" || j.LineItemURL == "" {
			t.Errorf("claimed score %+v", j)
		}
	}
	if perAssignment[courses[0].assignment] != 2 || perAssignment[courses[1].assignment] != 1 {
		t.Fatalf("racing claims took %v, want 2 of the first platform's and 1 of the second's", perAssignment)
	}

	// A change while a send is in flight: sent again after the success.
	var first play.LTIGradeJob
	for _, j := range got {
		if j.AssignmentID == courses[0].assignment {
			first = j
		}
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE assignment_progress SET games_done = 2 WHERE student_id = $1`, first.StudentID); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if err := store.LTIGradeDone(ctx, &got[i], play.LTIGradeOutcome{}); err != nil {
			t.Fatal(err)
		}
	}
	again := claim(now)
	sentAgain := false
	for _, j := range again {
		if j.StudentID == first.StudentID {
			sentAgain = j.GamesDone == 2
		}
	}
	if !sentAgain || len(again) != 2 {
		t.Errorf("after the change in flight: %+v, want that student's score again (2 games) among 2", again)
	}

	// A removed student's LMS id and scores go.
	removed := courses[0].students[4]
	if _, err := db.Pool.Exec(ctx, `UPDATE students SET removed_at = now() WHERE id = $1`, removed); err != nil {
		t.Fatal(err)
	}
	var jobs, sealed int
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM lti_grade_jobs WHERE student_id = $1),
		(SELECT count(*) FROM lti_students WHERE student_id = $1 AND sealed_subject IS NOT NULL)`, removed).Scan(&jobs, &sealed); err != nil {
		t.Fatal(err)
	}
	if jobs != 0 || sealed != 0 {
		t.Errorf("a removed student keeps %d scores waiting and %d LMS ids", jobs, sealed)
	}
}
