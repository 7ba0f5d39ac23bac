package repo

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// EraseAccount deletes the account (its tokens and every row naming it go with it, ON DELETE
// CASCADE) and, unless keepClassrooms, the classrooms it owns, with what they hold (students,
// games, histories, tokens, subscriptions: ON DELETE CASCADE); kept classrooms lose their owner
// (ON DELETE SET NULL).
func (s *Games) EraseAccount(ctx context.Context, accountID string, keepClassrooms bool) (int, error) {
	n := 0
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var id string
		if err := tx.QueryRow(ctx, `SELECT id::text FROM accounts WHERE id = $1 FOR UPDATE`, accountID).Scan(&id); err != nil {
			return notFound(err)
		}
		if !keepClassrooms {
			// A game elsewhere that names one of these games as its rematch lets go of it first.
			if _, err := tx.Exec(ctx, `UPDATE games SET rematch_id = NULL WHERE rematch_id IN
				(SELECT g.id FROM games g JOIN classrooms c ON c.id = g.classroom_id WHERE c.account_id = $1)`, accountID); err != nil {
				return err
			}
			// The games first: their seats name the students (seats.student_id has no cascade).
			if _, err := tx.Exec(ctx, `DELETE FROM games WHERE classroom_id IN (SELECT id FROM classrooms WHERE account_id = $1)`, accountID); err != nil {
				return err
			}
			tag, err := tx.Exec(ctx, `DELETE FROM classrooms WHERE account_id = $1`, accountID)
			if err != nil {
				return err
			}
			n = int(tag.RowsAffected())
		}
		_, err := tx.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, accountID)
		return err
	})
	return n, err
}
