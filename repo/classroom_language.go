package repo

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// ClassroomLanguage reads a classroom's default language ("" for none).
func (s *Games) ClassroomLanguage(ctx context.Context, classroomID string) (string, error) {
	var lang string
	err := s.db.Pool.QueryRow(ctx, `SELECT language FROM classrooms WHERE id = $1::uuid`, classroomID).Scan(&lang)
	return lang, notFound(err)
}

// GameLanguage reads the default language of the classroom a game belongs to: "" for a game of no
// classroom, or of one with no default.
func (s *Games) GameLanguage(ctx context.Context, gameID string) (string, error) {
	var lang string
	err := s.db.Pool.QueryRow(ctx, `SELECT c.language FROM games g JOIN classrooms c ON c.id = g.classroom_id
		WHERE g.id = $1::uuid`, gameID).Scan(&lang)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return lang, err
}

// SetClassroomLanguage sets a classroom's default language.
func (s *Games) SetClassroomLanguage(ctx context.Context, classroomID, language string) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE classrooms SET language = $2 WHERE id = $1::uuid`, classroomID, language)
	if err == nil && tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return err
}

var _ play.ClassroomLanguages = (*Games)(nil)
