package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// The lean loop is what a frugal client sends for each action: GET …/legal-actions with the token
// of the seat to act, then POST …/actions with an Idempotency-Key, whose response (the game after
// the action) says who acts next. With -include the POST asks for include=legal_actions, so when the
// same seat acts again (a Prime Climb roll and its move) its legal actions come with the response
// and the GET is skipped. Each client plays one game after another until -duration is over.

// leanGame is the part of an action's response the lean loop reads.
type leanGame struct {
	Game struct {
		Status string
		Turn   *struct {
			ToAct []int `json:"to_act"`
		}
		LegalActions *leanLegal `json:"legal_actions"`
	}
}

type leanLegal struct {
	Seat    int
	Actions []json.RawMessage
}

func runLean(ctx context.Context, httpClient *http.Client, base, kind string, clients int, d time.Duration, include bool, seed uint64, raw bool) {
	fmt.Printf("loadgen: lean loop (%s) against %s, %d clients, %s, include=legal_actions %v, raw %v\n", kind, base, clients, d, include, raw)
	total, wall := runClients(ctx, httpClient, base, clients, d, func(ctx context.Context, c *client, n int) {
		if raw {
			conn, err := newRawConn(base)
			if err != nil {
				c.st.fail(kindAction, "setup", err.Error())
				return
			}
			defer conn.close()
			c.raw = conn
		}
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		for i := 0; ctx.Err() == nil; i++ {
			c.leanGame(ctx, kindOf(kind, n+i), rng, include)
		}
	})
	fmt.Println()
	total.report(os.Stdout, wall)
	post := total.latencies[kindAction]
	fmt.Printf("\nRESULT mode=lean clients=%d seconds=%.1f actions=%d actions_per_s=%.1f post_p50_ms=%.2f post_p99_ms=%.2f legal_gets=%d game_gets=%d errors=%d\n",
		clients, wall.Seconds(), total.actionsPosted, float64(total.actionsPosted)/wall.Seconds(),
		ms(percentileOf(post, 50)), ms(percentileOf(post, 99)), len(total.latencies[kindLegal]), len(total.latencies[kindGame]), total.errorCount())
}

// leanGame creates a game and plays it with the lean loop until it ends, ctx ends, or it fails too
// often.
func (c *client) leanGame(ctx context.Context, game string, rng *rand.Rand, include bool) {
	player := playerFor(game)
	created, ok := c.createGame(ctx, game, rng)
	if !ok {
		return
	}
	id, tokens := created.Game.ID, created.tokens()
	var toAct []int
	if created.Game.Turn != nil {
		toAct = created.Game.Turn.ToAct
	}
	var known *leanLegal // legal actions that came with the last response, if any
	post := "/v1/games/" + id + "/actions"
	if include {
		post += "?include=legal_actions"
	}
	accepted, failures := 0, 0
	for accepted < maxActionsPerGame && failures < maxFailuresInGame && ctx.Err() == nil {
		if len(toAct) == 0 {
			// Only after a failure: read the game to learn whose turn it is.
			var g leanGame
			if !c.call(ctx, kindGame, "GET", "/v1/games/"+id, "", nil, "", &g.Game) {
				failures++
				continue
			}
			if g.Game.Status != "active" || g.Game.Turn == nil || len(g.Game.Turn.ToAct) == 0 {
				break
			}
			toAct = g.Game.Turn.ToAct
		}
		seat := toAct[rng.IntN(len(toAct))]
		legal := known
		if legal == nil || legal.Seat != seat || len(legal.Actions) == 0 {
			legal = &leanLegal{}
			if !c.call(ctx, kindLegal, "GET", "/v1/games/"+id+"/legal-actions", tokens[seat], nil, "", legal) {
				failures++
				toAct = nil
				continue
			}
		}
		action, err := pickAction(player, legal.Actions, rng)
		if err != nil {
			c.st.odd("game %s (%s) after %d actions: %v", id, game, accepted, err)
			failures++
			toAct, known = nil, nil
			continue
		}
		var after leanGame
		if !c.call(ctx, kindAction, "POST", post, tokens[seat], action, newKey(), &after) {
			failures++
			toAct, known = nil, nil
			continue
		}
		accepted++
		c.st.actionsPosted++
		failures = 0
		if after.Game.Status != "active" {
			c.st.gamesFinished++
			c.st.actionsByGame[game] = append(c.st.actionsByGame[game], accepted)
			return
		}
		toAct, known = nil, after.Game.LegalActions
		if after.Game.Turn != nil {
			toAct = after.Game.Turn.ToAct
		}
	}
	if ctx.Err() == nil {
		c.st.gamesAbandoned++
		c.st.odd("game %s (%s) abandoned after %d accepted actions (%d failures in a row)", id, game, accepted, failures)
	}
}

// runGets creates one game per client, then has every client read its game with the token of the
// seat to act (GET /v1/games/{id}, that player's view; with legal, GET …/legal-actions, what that
// seat may do) as fast as it can until d is over.
func runGets(ctx context.Context, httpClient *http.Client, base, kind string, clients int, d time.Duration, seed uint64, legal, raw bool) {
	what, mode, kindRead := "/v1/games/{id}", "get", kindGame
	if legal {
		what, mode, kindRead = "/v1/games/{id}/legal-actions", "legal", kindLegal
	}
	fmt.Printf("loadgen: GET %s (%s) against %s, %d clients, %s\n", what, kind, base, clients, d)
	setup := &client{http: httpClient, base: base, st: newStats()}
	type target struct{ id, token string }
	targets := make([]target, clients)
	for n := range targets {
		created, ok := setup.createGame(ctx, kindOf(kind, n), rand.New(rand.NewPCG(seed, uint64(n))))
		if !ok {
			setup.st.report(os.Stdout, time.Second)
			os.Exit(1)
		}
		seat := 0
		if created.Game.Turn != nil && len(created.Game.Turn.ToAct) > 0 {
			seat = created.Game.Turn.ToAct[0]
		}
		targets[n] = target{created.Game.ID, created.tokens()[seat]}
	}
	total, wall := runClients(ctx, httpClient, base, clients, d, func(ctx context.Context, c *client, n int) {
		path := "/v1/games/" + targets[n].id
		if legal {
			path += "/legal-actions"
		}
		if raw {
			rawGets(ctx, c, kindRead, base, path, targets[n].token)
			return
		}
		for ctx.Err() == nil {
			c.call(ctx, kindRead, "GET", path, targets[n].token, nil, "", nil)
		}
	})
	fmt.Println()
	total.report(os.Stdout, wall)
	gets := total.latencies[kindRead]
	fmt.Printf("\nRESULT mode=%s clients=%d seconds=%.1f requests=%d requests_per_s=%.1f get_p50_ms=%.2f get_p99_ms=%.2f errors=%d\n",
		mode, clients, wall.Seconds(), len(gets), float64(len(gets))/wall.Seconds(),
		ms(percentileOf(gets, 50)), ms(percentileOf(gets, 99)), total.errorCount())
}

// runClients runs work on n clients until d is over (or ctx ends) and merges their stats.
func runClients(ctx context.Context, httpClient *http.Client, base string, n int, d time.Duration, work func(ctx context.Context, c *client, n int)) (*stats, time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	total := newStats()
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			c := &client{http: httpClient, base: base, st: newStats()}
			work(ctx, c, i)
			mu.Lock()
			total.merge(c.st)
			mu.Unlock()
		})
	}
	wg.Wait()
	return total, time.Since(start)
}

// kindOf is the kind of the n-th game: kind itself, or alternating for "both".
func kindOf(kind string, n int) string {
	if kind == "both" {
		return []string{"prime-climb", "primed"}[n%2]
	}
	return kind
}

// rawGets sends GET path with a raw connection until ctx ends, recording each answer under kind.
func rawGets(ctx context.Context, c *client, kind, base, path, token string) {
	r, err := newRawConn(base)
	if err != nil {
		c.st.fail(kind, "setup", err.Error())
		return
	}
	defer r.close()
	request := r.appendRequest(nil, "GET", path, token, nil, "")
	for ctx.Err() == nil {
		began := time.Now()
		status, err := r.roundTrip(ctx, request)
		switch {
		case err != nil && ctx.Err() != nil:
			return
		case err != nil:
			c.st.fail(kind, "transport error", fmt.Sprintf("GET %s\n-> %v", path, err))
		case status != http.StatusOK:
			c.st.observe(kind, time.Since(began))
			c.st.fail(kind, strconv.Itoa(status), fmt.Sprintf("GET %s\n-> %d", path, status))
		default:
			c.st.observe(kind, time.Since(began))
		}
	}
}
