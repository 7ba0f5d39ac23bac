package play_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

var longCode = regexp.MustCompile(`^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$`)

// A code is typed in either case, with or without its dash and spaces; a six-character code of
// before is kept as it is.
func TestNormalCode(t *testing.T) {
	t.Parallel()
	for typed, want := range map[string]string{
		"abcd-efgh": "ABCD-EFGH", " ABCDEFGH ": "ABCD-EFGH", "ab cd ef gh": "ABCD-EFGH", "abcd--efgh": "ABCD-EFGH",
		"k7pq2m": "K7PQ2M", "K7P-Q2M": "K7PQ2M", "": "",
	} {
		if got := play.NormalCode(typed); got != want {
			t.Errorf("NormalCode(%q) = %q, want %q", typed, got, want)
		}
	}
}

// A classroom's join code is long; a short one from before the upgrade works until its end
// (migration 00034 gives it 30 days), and rotating gives a long one with no end.
func TestShortJoinCodesEndAndRotatedOnesAreLong(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	class, _, err := master.CreateClassroom(ctx, "Room 6")
	if err != nil {
		t.Fatal(err)
	}
	if !longCode.MatchString(class.JoinCode) {
		t.Fatalf("a new join code %q, want ABCD-EFGH", class.JoinCode)
	}
	if _, _, _, err := master.JoinClassroom(ctx, strings.ReplaceAll(strings.ToLower(class.JoinCode), "-", ""), "Ada"); err != nil {
		t.Fatalf("joining with the code typed without its dash: %v", err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE classrooms SET join_code = 'K7QX2M', join_code_expires_at = now() + interval '1 day' WHERE id = $1`, class.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := master.JoinClassroom(ctx, "k7qx2m", "Ben"); err != nil {
		t.Fatalf("a short code before its end: %v", err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE classrooms SET join_code_expires_at = now() - interval '1 second' WHERE id = $1`, class.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := master.JoinClassroom(ctx, "K7QX2M", "Cy"); domain.ErrorCode(err) != "join_code_not_found" {
		t.Fatalf("a short code past its end: %v, want join_code_not_found", err)
	}
	if err := master.RotateJoinCode(ctx, class); err != nil || !longCode.MatchString(class.JoinCode) {
		t.Fatalf("rotated to %q: %v", class.JoinCode, err)
	}
	if _, _, _, err := master.JoinClassroom(ctx, class.JoinCode, "Cy"); err != nil {
		t.Fatalf("the rotated code: %v", err)
	}
}
