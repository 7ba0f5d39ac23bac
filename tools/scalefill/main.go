// Command scalefill fills a database with games as the service would have stored them, for
// measuring how request costs grow with the data (issue 28): it applies the migrations, plays a
// pool of template games of each kind through the game master, and copies them under new ids with
// COPY. Run it on a database of its own (docs/performance.md, "Scale fixture"):
//
//	go run ./tools/scalefill -database postgres://postgres@127.0.0.1:5432/scale_1m?sslmode=disable
//
// It prints what it filled, how fast, and the tokens of the measured class and the regular player
// (also written as JSON with -report). It refuses to start, or stops, when the disk of the server's
// data directory would have less than -min-free-gb left.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"time"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/tools/scalefill/fixture"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "scalefill:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg := fixture.Defaults()
	database := flag.String("database", os.Getenv("DATABASE_URL"), "the database to fill (migrated first); default $DATABASE_URL")
	report := flag.String("report", "", "write the report, with the tokens it names, as JSON to this file")
	flag.IntVar(&cfg.Finished, "finished", cfg.Finished, "finished games outside classrooms")
	flag.IntVar(&cfg.Active, "active", cfg.Active, "active games outside classrooms")
	flag.IntVar(&cfg.Classrooms, "classrooms", cfg.Classrooms, "classrooms besides the measured class")
	flag.IntVar(&cfg.Students, "students", cfg.Students, "students per classroom")
	flag.IntVar(&cfg.ClassGames, "class-games", cfg.ClassGames, "finished games per classroom")
	flag.IntVar(&cfg.ClassActive, "class-active", cfg.ClassActive, "active games per classroom")
	flag.IntVar(&cfg.BigClassStudents, "big-class-students", cfg.BigClassStudents, "students of the measured class (0: none)")
	flag.IntVar(&cfg.BigClassGames, "big-class-games", cfg.BigClassGames, "finished games of the measured class")
	flag.IntVar(&cfg.BigClassActive, "big-class-active", cfg.BigClassActive, "active games of the measured class")
	flag.IntVar(&cfg.RegularGames, "regular-games", cfg.RegularGames, "games of the regular player (a tenth active)")
	flag.IntVar(&cfg.LongEntries, "long-entries", cfg.LongEntries, "entries of the long game, at least (0: none)")
	flag.IntVar(&cfg.Pool, "pool", cfg.Pool, "template games played per kind")
	flag.IntVar(&cfg.Batch, "batch", cfg.Batch, "games per COPY batch")
	flag.IntVar(&cfg.Workers, "workers", cfg.Workers, "connections copying at once (and goroutines playing templates)")
	flag.BoolVar(&cfg.CheckKeys, "check-keys", cfg.CheckKeys, "have Postgres check the foreign keys of every row copied (slower; needed unless a superuser)")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the templates' play and the copies' ids")
	minFree := flag.Float64("min-free-gb", 10, "refuse to start, or stop, when the disk of the server's data directory (on this machine) would have less than this many GB free (0: no guard)")
	flag.Parse()
	cfg.Progress = func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	db, err := repo.Open(ctx, *database, repo.PoolOptions{MaxConns: int32(cfg.Workers + 1), StatementTimeout: -1})
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := repo.NewMigrator(db, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		return err
	}
	_, err = m.ApplyPending(ctx)
	_ = m.Close()
	if err != nil {
		return err
	}
	if *minFree > 0 {
		guard := &diskGuard{minFree: uint64(*minFree * 1e9), perGame: estimatedBytesPerGame, size: func() (uint64, error) {
			var size int64
			err := db.Pool.QueryRow(ctx, `SELECT pg_database_size(current_database())`).Scan(&size)
			return uint64(size), err
		}}
		if err := db.Pool.QueryRow(ctx, `SHOW data_directory`).Scan(&guard.dir); err != nil {
			return fmt.Errorf("finding the server's data directory for the disk guard (-min-free-gb 0 turns it off): %w", err)
		}
		msg, err := guard.start(cfg.Games())
		if err != nil {
			return err
		}
		cfg.Progress("%s", msg)
		cfg.Guard = guard.check
	}
	cfg.Reviewer = play.New(db.Games().Stores(), games.All())
	began := time.Now()
	rep, err := fixture.Fill(ctx, db.Pool, cfg)
	if err != nil {
		return err
	}
	total := time.Since(began)
	rows := rep.Games + rep.Seats + rep.Entries + rep.Attempts
	fmt.Printf("filled %d games (%d seats, %d entries, %d attempts), %d classrooms of %d students, in %v\n",
		rep.Games, rep.Seats, rep.Entries, rep.Attempts, rep.Classrooms, rep.Students, total.Round(time.Second))
	fmt.Printf("templates %v; copy %v: %.0f games/s, %.0f rows/s\n", rep.TemplateTime.Round(time.Millisecond), rep.LoadTime.Round(time.Second),
		float64(rep.Games)/rep.LoadTime.Seconds(), float64(rows)/rep.LoadTime.Seconds())
	fmt.Printf("long game %s: %d entries\n", rep.LongGame, rep.LongGameEntries)
	if *report != "" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(*report, b, 0o600)
	}
	return nil
}
