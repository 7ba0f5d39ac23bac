package play_test

import (
	"context"
	"testing"

	"primegames/domain"
	"primegames/play"
)

// languageStore is a play.ClassroomLanguages whose answers a test sets.
type languageStore struct {
	read func(classroomID string) (string, error)
	set  func(classroomID, language string) error
}

func (f languageStore) ClassroomLanguage(_ context.Context, id string) (string, error) {
	return f.read(id)
}
func (f languageStore) GameLanguage(context.Context, string) (string, error) { return "", nil }
func (f languageStore) SetClassroomLanguage(_ context.Context, id, language string) error {
	return f.set(id, language)
}

// A classroom gone between the check of the caller's authority and the language's read or change
// (erased with its account) is not found, not a failure of the service.
func TestClassroomLanguageOfAClassroomGone(t *testing.T) {
	t.Parallel()
	gone := languageStore{
		read: func(string) (string, error) { return "", play.ErrNotFound },
		set:  func(string, string) error { return play.ErrNotFound },
	}
	master := play.New(play.Stores{ClassroomLanguages: gone}, nil)
	ctx := context.Background()
	if _, err := master.ClassroomLanguage(ctx, "c1"); domain.ErrorCode(err) != "classroom_not_found" {
		t.Errorf("read: %v, want classroom_not_found", err)
	}
	if _, err := master.SetClassroomLanguage(ctx, "c1", "es"); domain.ErrorCode(err) != "classroom_not_found" {
		t.Errorf("set: %v, want classroom_not_found", err)
	}
}
