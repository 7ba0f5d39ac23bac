//go:build long

package play_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// records is a slog.Handler that hands every record at or above its level to a channel.
type records struct {
	level slog.Level
	out   chan slog.Record
}

func (r records) Enabled(_ context.Context, l slog.Level) bool    { return l >= r.level }
func (r records) Handle(_ context.Context, rec slog.Record) error { r.out <- rec.Clone(); return nil }
func (r records) WithAttrs([]slog.Attr) slog.Handler              { return r }
func (r records) WithGroup(string) slog.Handler                   { return r }

// A connection to the database that goes silent (a proxy swallows every byte and closes nothing)
// stalls no pass of the worker for longer than its timeout: the stall is logged once as an error
// naming what was stuck, later passes that run out of time only at debug level, and once the
// connection speaks again the worker moves the games again and says so.
func TestLongWorkerGivesUpOnASilentConnectionAndLogsTheStallOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	direct, url := repotest.NewDBWithURL(t)
	proxy, proxied := repotest.NewProxy(t, url)
	db, err := repo.Open(ctx, proxied, repo.PoolOptions{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	// Before the pool closes: a connection whose bytes the silence swallowed waits up to 15 s to
	// close cleanly, unless its peer is gone.
	t.Cleanup(proxy.Cut)
	master := play.New(db.Games().Stores(), games.All(), play.WithWorkerPassTimeout(200*time.Millisecond))
	// Long enough not to end during the test: many rounds, a move every 50 ms.
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Options: json.RawMessage(`{"bot_delay_ms":50,"rounds":20}`),
		Bots: []play.BotSeat{{Seat: 0, Level: domain.LevelGreedy}, {Seat: 1, Level: domain.LevelGreedy}}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	moves := make(chan struct{}, 1000)
	lastVersion := created.Game.Version // read and written on the listener's goroutine only
	listenCtx, stopListening := context.WithCancel(ctx)
	connected := make(chan struct{}, 1)
	go direct.ListenGameEvents(listenCtx, repo.GameListener{
		Connected: func() { connected <- struct{}{} },
		Notice: func(n repo.GameNotice) {
			// Every change of the game is announced; a move is a change to a new version.
			if n.GameID == created.Game.ID && n.Version > lastVersion {
				lastVersion = n.Version
				moves <- struct{}{}
			}
		},
	})
	t.Cleanup(stopListening)
	<-connected

	logs := make(chan slog.Record, 100)
	workerCtx, stopWorker := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		master.RunBots(workerCtx, slog.New(records{level: slog.LevelDebug, out: logs}))
	}()
	t.Cleanup(func() { stopWorker(); <-done })

	next := func(what string) slog.Record {
		t.Helper()
		select {
		case r := <-logs:
			return r
		case <-time.After(10 * time.Second):
			t.Fatalf("no log record: %s", what)
			return slog.Record{}
		}
	}
	waitMove := func(what string) {
		t.Helper()
		select {
		case <-moves:
		case <-time.After(10 * time.Second):
			t.Fatalf("no move of the computers %s", what)
		}
	}
	waitMove("before the silence")

	proxy.Silence()
	first := next("the stall")
	if first.Level != slog.LevelError || !strings.Contains(first.Message, "stalled") {
		t.Fatalf("first record while silent: %s %q, want the stall as an error", first.Level, first.Message)
	}
	stuck := ""
	first.Attrs(func(a slog.Attr) bool {
		if a.Key == "stuck" {
			stuck = a.Value.String()
		}
		return true
	})
	if !strings.Contains(stuck, "computer player") {
		t.Errorf("the stall says it was stuck on %q; want the job", stuck)
	}
	if again := next("a second stalled pass"); again.Level != slog.LevelDebug {
		t.Errorf("a second stalled pass logged %s %q, want debug only (the stall is logged once)", again.Level, again.Message)
	}

	proxy.Restore()
	for {
		r := next("the worker moving again")
		if r.Level == slog.LevelInfo && strings.Contains(r.Message, "moves again") {
			break
		}
		if r.Level > slog.LevelDebug {
			t.Errorf("after the silence: %s %q", r.Level, r.Message)
		}
	}
	for range len(moves) { // those made before the silence
		<-moves
	}
	waitMove("after the silence")
}
