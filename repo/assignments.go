package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Assignments and their progress (migration 00055): the progress rows are counted by the trigger on
// games in the transaction that ends a game; these only read them, create them at zero and link
// games.

const assignmentColumns = `a.id::text, a.classroom_id::text, a.title, a.kind, a.options, a.games, coalesce(a.bot, ''),
	coalesce(a.group_size, 0), a.due_at, a.created_at`

func scanAssignment(row pgx.Row, a *play.Assignment, more ...any) error {
	return row.Scan(append([]any{&a.ID, &a.ClassroomID, &a.Title, &a.Kind, &a.Options, &a.Games, &a.Bot, &a.GroupSize, &a.DueAt, &a.CreatedAt}, more...)...)
}

// InsertAssignment stores a new assignment unless its classroom holds max already; the classroom's
// row is locked while it counts, so that racing inserts stay within max.
func (s *Games) InsertAssignment(ctx context.Context, a *play.Assignment, now time.Time, max int) error {
	var bot *string
	var group *int
	if a.Bot != "" {
		b := string(a.Bot)
		bot = &b
	} else {
		group = &a.GroupSize
	}
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM assignments WHERE classroom_id = c.id) FROM classrooms c WHERE c.id = $1 FOR UPDATE`,
			a.ClassroomID).Scan(&n); err != nil {
			return notFound(err)
		}
		if n >= max {
			return play.ErrFull
		}
		return tx.QueryRow(ctx, `INSERT INTO assignments (classroom_id, title, kind, options, games, bot, group_size, due_at, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text, created_at`,
			a.ClassroomID, a.Title, a.Kind, []byte(a.Options), a.Games, bot, group, a.DueAt, now).Scan(&a.ID, &a.CreatedAt)
	})
}

// classProgressSQL is every current student's progress with the assignments $1 of classroom $2,
// by assignment and name (a student who has not started one has no row, and reads as zero).
const classProgressSQL = `SELECT a.id::text, st.id::text, st.name, coalesce(p.games_done, 0), coalesce(p.games_late, 0),
		coalesce(p.games_done, 0) >= a.games, coalesce(p.open_game_id::text, '')
	FROM assignments a JOIN students st ON st.classroom_id = a.classroom_id AND st.removed_at IS NULL
	LEFT JOIN assignment_progress p ON p.assignment_id = a.id AND p.student_id = st.id
	WHERE a.classroom_id = $2 AND ($1::uuid IS NULL OR a.id = $1)
	ORDER BY a.id, lower(st.name), st.id`

// Assignments lists a classroom's assignments with every current student's progress.
func (s *Games) Assignments(ctx context.Context, classroomID string) ([]play.Assignment, error) {
	return s.assignmentsWithProgress(ctx, classroomID, nil)
}

// Assignment reads one assignment with every current student's progress.
func (s *Games) Assignment(ctx context.Context, classroomID, id string) (*play.Assignment, error) {
	list, err := s.assignmentsWithProgress(ctx, classroomID, &id)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, play.ErrNotFound
	}
	return &list[0], nil
}

func (s *Games) assignmentsWithProgress(ctx context.Context, classroomID string, id *string) ([]play.Assignment, error) {
	var list []play.Assignment
	byID := map[string]int{}
	b := &pgx.Batch{}
	b.Queue(`SELECT `+assignmentColumns+` FROM assignments a WHERE a.classroom_id = $2 AND ($1::uuid IS NULL OR a.id = $1)
		ORDER BY a.created_at, a.id`, id, classroomID).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var a play.Assignment
			if err := scanAssignment(rows, &a); err != nil {
				return err
			}
			byID[a.ID] = len(list)
			list = append(list, a)
		}
		return rows.Err()
	})
	b.Queue(classProgressSQL, id, classroomID).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var assignmentID string
			var p play.AssignmentProgress
			if err := rows.Scan(&assignmentID, &p.StudentID, &p.StudentName, &p.GamesDone, &p.GamesLate, &p.Done, &p.OpenGameID); err != nil {
				return err
			}
			if i, ok := byID[assignmentID]; ok {
				list[i].Progress = append(list[i].Progress, p)
			}
		}
		return rows.Err()
	})
	b.Queue(gradebookSQL, id, classroomID).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var assignmentID string
			var g play.AssignmentGradebook
			if err := rows.Scan(&assignmentID, &g.Status, &g.Error, &g.ErrorStatus); err != nil {
				return err
			}
			if i, ok := byID[assignmentID]; ok {
				list[i].Gradebook = &g
			}
		}
		return rows.Err()
	})
	// All read in one transaction, so that the progress is of the assignments listed.
	err := pgx.BeginTxFunc(ctx, s.db.Pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		return tx.SendBatch(ctx, b).Close()
	})
	return list, err
}

// ChangeAssignment applies the fields of change that are set; a new due time sends its due-soon
// events again.
func (s *Games) ChangeAssignment(ctx context.Context, classroomID, id string, change play.AssignmentChange) (*play.Assignment, error) {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE assignments SET title = coalesce($3, title), games = coalesce($4, games), due_at = coalesce($5, due_at),
			due_soon_at = CASE WHEN $5::timestamptz IS DISTINCT FROM NULL AND $5 <> due_at THEN NULL ELSE due_soon_at END
		WHERE id = $1 AND classroom_id = $2`, id, classroomID, change.Title, change.Games, change.DueAt)
	if err != nil {
		return nil, err
	}
	if tag.RowsAffected() == 0 {
		return nil, play.ErrNotFound
	}
	return s.Assignment(ctx, classroomID, id)
}

// DeleteAssignment deletes an assignment; its progress and links go with it, its games stay.
func (s *Games) DeleteAssignment(ctx context.Context, classroomID, id string) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM assignments WHERE id = $1 AND classroom_id = $2`, id, classroomID)
	if err == nil && tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return err
}

// StudentAssignments lists the classroom's assignments with the student's own progress.
func (s *Games) StudentAssignments(ctx context.Context, classroomID, studentID string) ([]play.Assignment, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+assignmentColumns+`, st.id::text, st.name, coalesce(p.games_done, 0), coalesce(p.games_late, 0),
			coalesce(p.games_done, 0) >= a.games, coalesce(p.open_game_id::text, '')
		FROM assignments a JOIN students st ON st.id = $2 AND st.classroom_id = a.classroom_id AND st.removed_at IS NULL
		LEFT JOIN assignment_progress p ON p.assignment_id = a.id AND p.student_id = st.id
		WHERE a.classroom_id = $1 ORDER BY a.created_at, a.id`, classroomID, studentID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.Assignment, error) {
		var a play.Assignment
		var p play.AssignmentProgress
		err := scanAssignment(row, &a, &p.StudentID, &p.StudentName, &p.GamesDone, &p.GamesLate, &p.Done, &p.OpenGameID)
		a.Progress = []play.AssignmentProgress{p}
		return a, err
	})
}

// LockAssignmentProgress locks the assignment and the student's progress row (made at zero when
// there is none): a student's racing requests queue on the row, and see the game the first made.
func (t *gameTx) LockAssignmentProgress(ctx context.Context, classroomID, assignmentID, studentID string) (*play.Assignment, *play.AssignmentProgress, error) {
	var a play.Assignment
	var p play.AssignmentProgress
	var found bool
	err := t.one(ctx, `WITH a AS (SELECT * FROM assignments WHERE id = $1 AND classroom_id = $2 FOR UPDATE),
		p AS (INSERT INTO assignment_progress (assignment_id, student_id)
			SELECT a.id, $3 FROM a WHERE EXISTS (SELECT FROM students WHERE id = $3 AND classroom_id = $2 AND removed_at IS NULL)
			ON CONFLICT (assignment_id, student_id) DO UPDATE SET open_game_id = assignment_progress.open_game_id
			RETURNING games_done, games_late, coalesce(open_game_id::text, '') AS open_game_id)
		SELECT `+assignmentColumns+`, p.games_done IS NOT NULL, coalesce(p.games_done, 0), coalesce(p.games_late, 0), coalesce(p.open_game_id, '')
		FROM a LEFT JOIN p ON true`, []any{assignmentID, classroomID, studentID}, func(r pgx.Row) error {
		return scanAssignment(r, &a, &found, &p.GamesDone, &p.GamesLate, &p.OpenGameID)
	})
	if err != nil {
		return nil, nil, notFound(err)
	}
	if !found {
		return nil, nil, play.ErrNotFound
	}
	p.StudentID, p.Done = studentID, p.GamesDone >= a.Games
	return &a, &p, nil
}

// OpenAssignmentLobby is the oldest game of the assignment still in its lobby.
func (t *gameTx) OpenAssignmentLobby(ctx context.Context, assignmentID string) (string, error) {
	var id string
	err := t.one(ctx, `SELECT g.id::text FROM assignment_games ag JOIN games g ON g.id = ag.game_id
		WHERE ag.assignment_id = $1 AND g.status = 'lobby' ORDER BY ag.created_at, g.id LIMIT 1`,
		[]any{assignmentID}, func(r pgx.Row) error { return r.Scan(&id) })
	return id, notFound(err)
}

// LinkAssignmentGame links the game to the assignment and makes it the student's open game of it.
func (t *gameTx) LinkAssignmentGame(ctx context.Context, assignmentID, gameID, studentID string) error {
	if err := t.queue(ctx, `INSERT INTO assignment_games (game_id, assignment_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		gameID, assignmentID, t.now); err != nil {
		return err
	}
	return t.queue(ctx, `UPDATE assignment_progress SET open_game_id = $3 WHERE assignment_id = $1 AND student_id = $2`, assignmentID, studentID, gameID)
}

// AssignmentsDoneBy lists the progress rows the game's end made done (done_game_id).
func (s *Games) AssignmentsDoneBy(ctx context.Context, gameID string) ([]play.AssignmentNotice, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT a.id::text, a.classroom_id::text, a.title, a.games, a.due_at, st.id::text, st.name, p.games_done, p.games_late
		FROM assignment_progress p JOIN assignments a ON a.id = p.assignment_id
		JOIN students st ON st.id = p.student_id AND st.removed_at IS NULL
		WHERE p.done_game_id = $1 ORDER BY a.created_at, a.id, st.id`, gameID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.AssignmentNotice, error) {
		n := play.AssignmentNotice{Event: play.AssignmentDoneEvent, GameID: gameID}
		err := row.Scan(&n.AssignmentID, &n.ClassroomID, &n.Title, &n.Games, &n.DueAt, &n.StudentID, &n.StudentName, &n.GamesDone, &n.GamesLate)
		return n, err
	})
}

// ClaimDueSoon claims an assignment whose due-soon events are due, skipping those other workers
// hold, marks them sent, and announces them: on game_events under the name
// play.AssignmentNoticeName (on commit, with the classroom, so its streams wake) and as an outbox
// row of seq play.DueSoonOutboxSeq under the assignment's id when a subscription may want it.
func (t *gameTx) ClaimDueSoon(ctx context.Context, lead time.Duration) (*play.Assignment, error) {
	var a play.Assignment
	err := t.one(ctx, `UPDATE assignments a SET due_soon_at = $1 WHERE a.id = (
			SELECT id FROM assignments WHERE due_soon_at IS NULL AND due_at > $1 AND due_at <= $2
			ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING `+assignmentColumns, []any{t.now, t.now.Add(lead)}, func(r pgx.Row) error { return scanAssignment(r, &a) })
	if err != nil {
		return nil, notFound(err)
	}
	if err := t.queue(ctx, `SELECT pg_notify('`+GameEventsChannel+`', $1 || ':0:' || $2)`, play.AssignmentNoticeName(a.ID), a.ClassroomID); err != nil {
		return nil, err
	}
	return &a, t.queue(ctx, `INSERT INTO webhook_outbox (game_id, seq, created_at)
		SELECT $1, $2, $3 WHERE EXISTS (SELECT FROM webhook_subscriptions s WHERE s.disabled_at IS NULL
			AND (s.scope = 'service' OR s.classroom_id = $4))`, a.ID, play.DueSoonOutboxSeq, t.now, a.ClassroomID)
}

// AssignmentDueSoon lists the assignment's current students not done.
func (s *Games) AssignmentDueSoon(ctx context.Context, assignmentID string) ([]play.AssignmentNotice, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT a.id::text, a.classroom_id::text, a.title, a.games, a.due_at, st.id::text, st.name,
			coalesce(p.games_done, 0), coalesce(p.games_late, 0)
		FROM assignments a JOIN students st ON st.classroom_id = a.classroom_id AND st.removed_at IS NULL
		LEFT JOIN assignment_progress p ON p.assignment_id = a.id AND p.student_id = st.id
		WHERE a.id = $1 AND coalesce(p.games_done, 0) < a.games ORDER BY lower(st.name), st.id`, assignmentID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.AssignmentNotice, error) {
		n := play.AssignmentNotice{Event: play.AssignmentDueSoonEvent}
		err := row.Scan(&n.AssignmentID, &n.ClassroomID, &n.Title, &n.Games, &n.DueAt, &n.StudentID, &n.StudentName, &n.GamesDone, &n.GamesLate)
		return n, err
	})
}
