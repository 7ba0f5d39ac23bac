package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Grades to the LMS (migration 00070, play/lti_grades.go): the courses' AGS endpoints, the learners'
// sealed LMS ids, the assignments' gradebook columns and the sends the worker makes.

// gradebookSQL is the gradebook status of the assignments $1 (all when NULL) of classroom $2 that
// are columns: failing after a failure, pending while sends are queued, else synced.
const gradebookSQL = `SELECT a.id::text,
		CASE WHEN a.gradebook_error IS NOT NULL THEN 'failing'
			WHEN EXISTS (SELECT FROM lti_grade_jobs j WHERE j.assignment_id = a.id) THEN 'pending' ELSE 'synced' END,
		coalesce(a.gradebook_error, ''), coalesce(a.gradebook_error_status, 0)
	FROM assignments a WHERE a.classroom_id = $2 AND ($1::uuid IS NULL OR a.id = $1) AND a.gradebook`

// SaveLTIGradeService keeps the course's AGS endpoint.
func (s *Games) SaveLTIGradeService(ctx context.Context, platformID string, contextHash []byte, svc play.LTIGradeService) error {
	scopes := svc.Scopes
	if scopes == nil {
		scopes = []string{}
	}
	_, err := s.db.Pool.Exec(ctx, `UPDATE lti_contexts SET lineitems_url = $3, ags_scopes = $4
		WHERE platform_id = $1 AND context_hash = $2 AND (lineitems_url, ags_scopes) IS DISTINCT FROM ($3, $4)`,
		platformID, contextHash, svc.LineItemsURL, scopes)
	return err
}

// LTIGradeServiceOf is the AGS endpoint of the classroom's course.
func (s *Games) LTIGradeServiceOf(ctx context.Context, classroomID string) (*play.LTIGradeService, error) {
	var svc play.LTIGradeService
	err := s.db.Pool.QueryRow(ctx, `SELECT lineitems_url, ags_scopes FROM lti_contexts WHERE classroom_id = $1 LIMIT 1`, classroomID).
		Scan(&svc.LineItemsURL, &svc.Scopes)
	if err != nil {
		return nil, notFound(err)
	}
	return &svc, nil
}

// SetLTIStudentSubject keeps the learner's sealed LMS user id.
func (s *Games) SetLTIStudentSubject(ctx context.Context, learnerHash, sealed []byte) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE lti_students l SET sealed_subject = $2 FROM students st
		WHERE l.learner_hash = $1 AND st.id = l.student_id AND st.removed_at IS NULL`, learnerHash, sealed)
	return err
}

// SetAssignmentGradebook turns the column on (queueing its line item unless it is made, and the
// scores of the students with games done) or off (dropping the sends queued).
func (s *Games) SetAssignmentGradebook(ctx context.Context, classroomID, assignmentID string, on bool) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var was bool
		var lineItem *string
		err := tx.QueryRow(ctx, `SELECT gradebook, lineitem_url FROM assignments WHERE id = $1 AND classroom_id = $2 FOR UPDATE`,
			assignmentID, classroomID).Scan(&was, &lineItem)
		if err != nil {
			return notFound(err)
		}
		if !on {
			if _, err := tx.Exec(ctx, `UPDATE assignments SET gradebook = false, gradebook_error = NULL, gradebook_error_status = NULL WHERE id = $1`, assignmentID); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `DELETE FROM lti_grade_jobs WHERE assignment_id = $1`, assignmentID)
			return err
		}
		if was {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE assignments SET gradebook = true WHERE id = $1`, assignmentID); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO lti_grade_jobs (assignment_id, student_id, platform_id)
			SELECT $1::uuid, NULL::uuid, c.platform_id FROM lti_contexts c WHERE c.classroom_id = $2 AND $3
			UNION ALL
			SELECT $1::uuid, p.student_id, c.platform_id FROM assignment_progress p, lti_contexts c
			WHERE p.assignment_id = $1 AND p.games_done > 0 AND c.classroom_id = $2
			ON CONFLICT (assignment_id, student_id) DO NOTHING`, assignmentID, classroomID, lineItem == nil)
		return err
	})
}

// RequeueLTIGrades queues the column's line item (updated by a PUT once made) and its scores again.
func (s *Games) RequeueLTIGrades(ctx context.Context, assignmentID string) error {
	_, err := s.db.Pool.Exec(ctx, `INSERT INTO lti_grade_jobs (assignment_id, student_id, platform_id)
		SELECT a.id, NULL::uuid, c.platform_id FROM assignments a JOIN lti_contexts c ON c.classroom_id = a.classroom_id
		WHERE a.id = $1 AND a.gradebook
		UNION ALL
		SELECT a.id, p.student_id, c.platform_id FROM assignments a JOIN lti_contexts c ON c.classroom_id = a.classroom_id
			JOIN assignment_progress p ON p.assignment_id = a.id AND p.games_done > 0
		WHERE a.id = $1 AND a.gradebook
		ON CONFLICT (assignment_id, student_id) DO UPDATE SET version = lti_grade_jobs.version + 1, attempts = 0, due_at = NULL`, assignmentID)
	return err
}

// ClaimLTIGrades leases the sends due. Claims are one at a time (a transaction-scoped advisory
// lock), so that the per-platform bound holds across instances.
func (s *Games) ClaimLTIGrades(ctx context.Context, now time.Time, lease time.Duration, perPlatform, limit int) ([]play.LTIGradeJob, error) {
	var jobs []play.LTIGradeJob
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('lti_grade_jobs claim'))`); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `WITH due AS (
				SELECT j.id, row_number() OVER (PARTITION BY j.platform_id ORDER BY j.due_at NULLS FIRST, j.id) AS rank,
					(SELECT count(*) FROM lti_grade_jobs l WHERE l.platform_id = j.platform_id AND l.leased_until > $1) AS in_flight
				FROM lti_grade_jobs j JOIN assignments a ON a.id = j.assignment_id
				WHERE (j.due_at IS NULL OR j.due_at <= $1) AND (j.leased_until IS NULL OR j.leased_until <= $1)
				  AND (j.student_id IS NULL OR a.lineitem_url IS NOT NULL)),
			claimed AS (
				UPDATE lti_grade_jobs j SET leased_until = $2, attempts = j.attempts + 1
				FROM (SELECT id FROM due WHERE rank + in_flight <= $3 ORDER BY rank, id LIMIT $4) d WHERE j.id = d.id
				RETURNING j.*)
			SELECT j.id, j.version, j.attempts, j.assignment_id::text, coalesce(j.student_id::text, ''), j.platform_id::text,
				a.title, a.games, coalesce(c.lineitems_url, ''), coalesce(a.lineitem_url, ''), coalesce(p.games_done, 0),
				l.learner_hash, l.sealed_subject
			FROM claimed j JOIN assignments a ON a.id = j.assignment_id
			LEFT JOIN LATERAL (SELECT lineitems_url FROM lti_contexts WHERE classroom_id = a.classroom_id AND platform_id = j.platform_id LIMIT 1) c ON true
			LEFT JOIN assignment_progress p ON p.assignment_id = j.assignment_id AND p.student_id = j.student_id
			LEFT JOIN lti_students l ON l.student_id = j.student_id
			ORDER BY j.id`, now, now.Add(lease), perPlatform, limit)
		if err != nil {
			return err
		}
		jobs, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.LTIGradeJob, error) {
			var j play.LTIGradeJob
			err := r.Scan(&j.ID, &j.Version, &j.Attempts, &j.AssignmentID, &j.StudentID, &j.PlatformID, &j.Title, &j.Games,
				&j.LineItemsURL, &j.LineItemURL, &j.GamesDone, &j.LearnerHash, &j.SealedSubject)
			return j, err
		})
		return err
	})
	return jobs, err
}

// LTIGradeDone records a send's outcome.
func (s *Games) LTIGradeDone(ctx context.Context, job *play.LTIGradeJob, out play.LTIGradeOutcome) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		switch {
		case out.Error == "":
			if out.LineItemURL != "" {
				if _, err := tx.Exec(ctx, `UPDATE assignments SET lineitem_url = $2 WHERE id = $1`, job.AssignmentID, out.LineItemURL); err != nil {
					return err
				}
			}
			if !out.Drop {
				if _, err := tx.Exec(ctx, `UPDATE assignments SET gradebook_error = NULL, gradebook_error_status = NULL
					WHERE id = $1 AND gradebook_error IS NOT NULL`, job.AssignmentID); err != nil {
					return err
				}
			}
			// Done unless a change came while the send was in flight: then it is due again.
			_, err := tx.Exec(ctx, `WITH gone AS (DELETE FROM lti_grade_jobs WHERE id = $1 AND version = $2 RETURNING id)
				UPDATE lti_grade_jobs SET leased_until = NULL, due_at = NULL, attempts = 0 WHERE id = $1 AND NOT EXISTS (SELECT FROM gone)`,
				job.ID, job.Version)
			return err
		default:
			if _, err := tx.Exec(ctx, `UPDATE assignments SET gradebook_error = $2, gradebook_error_status = nullif($3, 0) WHERE id = $1`,
				job.AssignmentID, out.Error, out.ErrorStatus); err != nil {
				return err
			}
			if out.RetryAt.IsZero() {
				_, err := tx.Exec(ctx, `WITH gone AS (DELETE FROM lti_grade_jobs WHERE id = $1 AND version = $2 RETURNING id)
					UPDATE lti_grade_jobs SET leased_until = NULL, due_at = NULL, attempts = 0 WHERE id = $1 AND NOT EXISTS (SELECT FROM gone)`,
					job.ID, job.Version)
				return err
			}
			_, err := tx.Exec(ctx, `UPDATE lti_grade_jobs SET leased_until = NULL,
					due_at = CASE WHEN version = $2 THEN $3::timestamptz END, attempts = CASE WHEN version = $2 THEN attempts ELSE 0 END
				WHERE id = $1`, job.ID, job.Version, out.RetryAt)
			return err
		}
	})
}

// EnsureLTICoTeacher makes the account a co-teacher of the classroom, within max.
func (s *Games) EnsureLTICoTeacher(ctx context.Context, classroomID, accountID string, now time.Time, max int) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var owner *string
		var teachers int
		var already bool
		err := tx.QueryRow(ctx, `SELECT account_id::text, (SELECT count(*) FROM classroom_co_teachers WHERE classroom_id = c.id),
				EXISTS (SELECT FROM classroom_co_teachers WHERE classroom_id = c.id AND account_id = $2)
			FROM classrooms c WHERE c.id = $1 FOR UPDATE`, classroomID, accountID).Scan(&owner, &teachers, &already)
		if err != nil {
			return notFound(err)
		}
		if already || owner != nil && *owner == accountID {
			return nil
		}
		if teachers >= max {
			return play.ErrTaken
		}
		_, err = tx.Exec(ctx, `INSERT INTO classroom_co_teachers (classroom_id, account_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			classroomID, accountID, now)
		return err
	})
}
