package play

import (
	"context"
	"errors"
	"strings"

	"primegames/domain"
	"primegames/play/i18n"
)

// ClassroomLanguages keeps each classroom's default language, which its teacher sets: the
// language its pages, pictures and refusals are said in when a request names none the service
// speaks (play/i18n).
type ClassroomLanguages interface {
	// ClassroomLanguage reads a classroom's default language ("" for none); ErrNotFound when
	// there is no such classroom.
	ClassroomLanguage(ctx context.Context, classroomID string) (string, error)
	// GameLanguage reads the default language of a game's classroom: "" for a game of no classroom
	// (or no such game), or of a classroom with none.
	GameLanguage(ctx context.Context, gameID string) (string, error)
	// SetClassroomLanguage sets a classroom's default language; ErrNotFound when there is no such
	// classroom.
	SetClassroomLanguage(ctx context.Context, classroomID, language string) error
}

// languages reads and sets the classrooms' default languages (languages.go).
type languages struct {
	store ClassroomLanguages
}

// ClassroomLanguage is a classroom's default language: English when its teacher set none.
func (s *Service) ClassroomLanguage(ctx context.Context, classroomID string) (*i18n.Lang, error) {
	if s.languages.store == nil {
		return i18n.English, nil
	}
	code, err := s.languages.store.ClassroomLanguage(ctx, classroomID)
	if errors.Is(err, ErrNotFound) { // erased with its account since the caller was let in
		return nil, classroomNotFound()
	}
	if err != nil {
		return nil, err
	}
	if l := i18n.Of(code); l != nil {
		return l, nil
	}
	return i18n.English, nil
}

// GameLanguage is the default language of a game's classroom, nil when it has none (or the game
// is no classroom's).
func (s *Service) GameLanguage(ctx context.Context, gameID string) (*i18n.Lang, error) {
	if s.languages.store == nil {
		return nil, nil
	}
	code, err := s.languages.store.GameLanguage(ctx, gameID)
	if err != nil {
		return nil, err
	}
	return i18n.Of(code), nil
}

// SetClassroomLanguage sets a classroom's default language to code, one of the languages the
// service speaks (i18n.Codes).
func (s *Service) SetClassroomLanguage(ctx context.Context, classroomID, code string) (*i18n.Lang, error) {
	l := i18n.Of(code)
	if l == nil || l.Code() != code {
		return nil, domain.Invalid("unknown_language", "There is no language %q here; the languages are %s.", code, strings.Join(i18n.Codes(), ", "))
	}
	if s.languages.store == nil {
		return nil, domain.Errorf(domain.KindUnavailable, "unavailable", "The database is not reachable.")
	}
	err := s.languages.store.SetClassroomLanguage(ctx, classroomID, code)
	if errors.Is(err, ErrNotFound) {
		return nil, classroomNotFound()
	}
	if err != nil {
		return nil, err
	}
	return l, nil
}
