// Command floor measures the least server CPU this service's fixed stack (net/http, echo, pgx
// against Postgres) spends on the two requests issue 28 prices: a POST of an action and a GET of a
// kept game. It serves both with nothing but what any implementation must do, then drives them
// from raw keep-alive connections and prints the server process's CPU per request, read from /proc.
//
//   - GET /games/:id answers a body kept in memory, of the size of a real game's, with the headers
//     a kept game's answer carries (Content-Type, ETag, Cache-Control): no database, no check.
//   - POST /games/:id/actions reads and decodes a JSON action, then changes the game in one round
//     trip to Postgres, one implicit transaction (lock the game's row, append a history row, save a
//     snapshot of the real size, optionally announce it with pg_notify), and answers a response of
//     the real action's size, encoded beforehand. No identification, no rules, no validation, no
//     idempotency, no second round trip.
//
// So its figures are lower bounds for the service's own: what is left when everything the service
// adds is taken away. See docs/performance.md.
//
//	go run ./tools/floor -db postgres://postgres@127.0.0.1:5432/postgres -clients 8 -duration 10s
//
// It creates the tables floor_games and floor_actions in that database and drops them when it ends.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

func main() {
	serve := flag.String("serve", "", "internal: serve on this address (the driver starts the server so)")
	db := flag.String("db", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "the Postgres to use")
	clients := flag.Int("clients", 8, "concurrent keep-alive connections")
	duration := flag.Duration("duration", 10*time.Second, "how long each mode runs")
	games := flag.Int("games", 1000, "games the POSTs spread over")
	bodySize := flag.Int("get-body", 960, "bytes of the GET answer (a two-seat game's, uncompressed)")
	actedSize := flag.Int("post-body", 2000, "bytes of the POST answer (the game after the action, with its entry)")
	snapshot := flag.Int("snapshot", 700, "bytes of the snapshot each action saves")
	notify := flag.Bool("notify", true, "announce each change with pg_notify in its transaction, as the service's trigger does")
	echoOff := flag.Bool("plain", false, "serve with net/http's own mux rather than echo")
	flag.Parse()

	cfg := config{db: *db, games: *games, getBody: *bodySize, postBody: *actedSize, snapshot: *snapshot, notify: *notify, plain: *echoOff}
	if *serve != "" {
		if err := runServer(context.Background(), *serve, cfg); err != nil {
			fmt.Fprintln(os.Stderr, "floor:", err)
			os.Exit(1)
		}
		return
	}
	if err := drive(cfg, *clients, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

type config struct {
	db                          string
	games                       int
	getBody, postBody, snapshot int
	notify, plain               bool
}

// args are the flags that start a server of cfg.
func (c config) args(addr string) []string {
	return []string{"-serve", addr, "-db", c.db, fmt.Sprint("-games=", c.games), fmt.Sprint("-get-body=", c.getBody),
		fmt.Sprint("-post-body=", c.postBody), fmt.Sprint("-snapshot=", c.snapshot), fmt.Sprint("-notify=", c.notify),
		fmt.Sprint("-plain=", c.plain)}
}

// startServer starts this program as the server; closing stop ends it.
func startServer(cfg config, addr string) (cmd *exec.Cmd, stop io.Closer, err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	cmd = exec.Command(self, cfg.args(addr)...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if stop, err = cmd.StdinPipe(); err != nil {
		return nil, nil, err
	}
	return cmd, stop, cmd.Start()
}
