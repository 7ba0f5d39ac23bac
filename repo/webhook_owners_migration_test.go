package repo_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/play"
)

// Migration 00030 classifies the subscriptions kept before it by the token that made them: the
// admin's, a current teacher's (the classroom's), a current student's, else a game token's; one
// whose token no longer opens anything has ended and is deleted at its first look-up. Their raw
// keys are sealed by the worker's start (SealRawWebhookSecrets) and still sign.
func TestWebhookOwnersMigrationClassifiesExistingSubscriptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, m := migratedWithMigrator(t)
	master := play.New(db.Games().Stores(), games.All())
	room, teacherToken, err := master.CreateClassroom(ctx, "Room 3")
	if err != nil {
		t.Fatal(err)
	}
	student, _, studentToken, err := master.JoinClassroom(ctx, room.JoinCode, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Bo", "Cy"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	hash := func(token string) []byte { return play.IdentifyToken(token, "").TokenHash }
	migrateDownUntilGone(t, db, m, "webhook_subscriptions", "owner_key")
	raw := bytes.Repeat([]byte{7}, 32)
	insert := func(owner []byte, scope string, game, classroom *string, seat *int) string {
		var id string
		if err := db.Pool.QueryRow(ctx, `INSERT INTO webhook_subscriptions (owner_hash, scope, subject_game_id, classroom_id, seat, url, secret, events, created_at)
			VALUES ($1, $2, $3, $4, $5, 'http://127.0.0.1:9/hook', $6, '{entry}', $7) RETURNING id::text`,
			owner, scope, game, classroom, seat, raw, time.Now()).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	seat := 0
	ids := map[string]string{
		"admin":                 insert([]byte("admin"), "service", nil, nil, nil),
		"classroom:" + room.ID:  insert(hash(teacherToken), "classroom", nil, &room.ID, nil),
		"student:" + student.ID: insert(hash(studentToken), "classroom", nil, &room.ID, nil),
		"creator":               insert(hash(created.CreatorToken), "game", &created.Game.ID, nil, nil),
		"seat":                  insert(hash(created.SeatTokens[0].Token), "game", &created.Game.ID, nil, &seat),
		"stale":                 insert([]byte("a replaced teacher token's hash"), "classroom", nil, &room.ID, nil),
	}
	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ key, kind string }{
		"admin":                 {"admin", "admin"},
		"classroom:" + room.ID:  {"classroom:" + room.ID, "teacher"},
		"student:" + student.ID: {"student:" + student.ID, "student"},
		"creator":               {"token:" + hex.EncodeToString(hash(created.CreatorToken)), "token"},
		"seat":                  {"token:" + hex.EncodeToString(hash(created.SeatTokens[0].Token)), "token"},
		"stale":                 {"token:" + hex.EncodeToString([]byte("a replaced teacher token's hash")), "token"},
	}
	for name, id := range ids {
		var key, kind string
		if err := db.Pool.QueryRow(ctx, `SELECT owner_key, owner_kind FROM webhook_subscriptions WHERE id = $1`, id).Scan(&key, &kind); err != nil {
			t.Fatal(err)
		}
		if key != want[name].key || kind != want[name].kind {
			t.Errorf("%s: owner %s (%s), want %s (%s)", name, key, kind, want[name].key, want[name].kind)
		}
	}
	for name, id := range ids {
		standing, err := db.Games().WebhookStanding(ctx, id)
		if wantStanding := map[bool]play.WebhookStatus{true: play.WebhookEnded, false: play.WebhookActive}[name == "stale"]; err != nil || standing != wantStanding {
			t.Errorf("%s: %s, %v; want %s", name, standing, err, wantStanding)
		}
	}

	cfg := play.DefaultWebhookConfig
	cfg.SealingKey = []byte("test sealing key")
	master = play.New(db.Games().Stores(), games.All(), play.WithWebhooks(cfg, nil))
	if n, err := master.SealRawWebhookSecrets(ctx); err != nil || n != len(ids)-1 {
		t.Fatalf("sealed %d raw keys (%v), want %d", n, err, len(ids)-1)
	}
	var rawLeft int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM webhook_subscriptions WHERE secret = $1`, raw).Scan(&rawLeft); err != nil || rawLeft != 0 {
		t.Fatalf("%d raw keys left (%v)", rawLeft, err)
	}
}
