package repo_test

import (
	"context"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/outbound"
	"primegames/play"
	"primegames/repo/repotest"
)

// The authority check a delivery pays right before it is sent (WebhookStanding), for the costliest
// kind of subscription: a student's, of their seat in a classroom's game (the student's token and
// removal, then their seat, are looked up).
//
//	go test ./repo -run '^$' -bench WebhookStanding
func BenchmarkWebhookStanding(b *testing.B) {
	ctx := context.Background()
	db := repotest.NewDB(b)
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	cfg := play.DefaultWebhookConfig
	cfg.SealingKey = []byte("bench sealing key")
	master := play.New(db.Games().Stores(), games.All(), play.WithWebhooks(cfg, sender))
	room, _, err := master.CreateClassroom(ctx, "Room 1")
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	var ada play.Principal
	for _, name := range []string{"Ada", "Bo"} {
		st, _, token, err := master.JoinClassroom(ctx, room.JoinCode, name)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, st.ID)
		if ada.Kind == play.Anonymous {
			if ada, err = master.Resolve(ctx, play.IdentifyToken(token, "")); err != nil {
				b.Fatal(err)
			}
		}
	}
	groups, err := master.CreateGroups(ctx, play.GroupGames{ClassroomID: room.ID, Kind: "primed", GroupSize: 2, Students: ids})
	if err != nil {
		b.Fatal(err)
	}
	hook, _, err := master.CreateWebhook(ctx, ada, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: groups[0].ID, URL: "http://127.0.0.1:9/hook"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		standing, err := db.Games().WebhookStanding(ctx, hook.ID)
		if err != nil || standing != play.WebhookActive {
			b.Fatalf("%s, %v", standing, err)
		}
	}
}
