// Command loadgen plays whole games against a running primegames server and reports throughput,
// latency percentiles and errors.
//
// Each worker creates a game with 2–4 named players, then plays every seat until the game is over:
// GET /v1/games/{id} for turn.to_act, GET /v1/games/{id}/legal-actions with that seat's token, pick
// one entry with a seeded PRNG and POST its action to /v1/games/{id}/actions with a fresh
// Idempotency-Key (retried with the same key after a transport error or a 5xx, as a mobile client
// would). A request refused by the server's rate limit (429) is sent again after its Retry-After. Nine
// picks in ten follow the kind's greedy strategy (domain/players; in Prime Climb a winning move, else
// the move whose pawns end highest), so a game ends in a few hundred actions; the others are uniform.
//
// Run it from the module root against a server (see docs/operations.md), for example:
//
//	go run ./tools/loadgen -url http://127.0.0.1:8080 -games 200 -concurrency 16 -game both -seed 1
//
// Three other modes run for a fixed -duration and end with one RESULT line that scripts/bench.sh
// reads: -mode lean plays games the way a lean client does (lean.go), -mode get reads games (GET
// /v1/games/{id}) and -mode legal their legal actions (GET …/legal-actions) as fast as it can.
//
// Ctrl-C stops the load early and still prints the report.
package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"

	"primegames/domain/players"
)

const (
	maxActionsPerGame = 5000 // a game still running after this many accepted actions is abandoned
	maxFailuresInGame = 5    // consecutive failed turns before a game is abandoned
	postRetries       = 2    // extra attempts, with the same Idempotency-Key, after a transport error or 5xx
	greedyPercent     = 90   // how often to follow the kind's greedy strategy rather than pick any legal action
)

var names = []string{"Ada", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"}

func main() {
	url := flag.String("url", "http://localhost:8080", "base URL of the primegames server")
	games := flag.Int("games", 200, "total number of games to play")
	concurrency := flag.Int("concurrency", 16, "games played in parallel")
	kind := flag.String("game", "both", "prime-climb, primed or both (alternating)")
	seed := flag.Uint64("seed", 1, "seed of the PRNG that picks players and actions")
	mode := flag.String("mode", "games", "games (play -games whole games), lean (the lean loop for -duration), get (GET /v1/games/{id} for -duration) or legal (GET …/legal-actions for -duration)")
	duration := flag.Duration("duration", 20*time.Second, "how long -mode lean and -mode get run")
	gzip := flag.Bool("gzip", false, "ask for gzip-compressed responses (Accept-Encoding: gzip), as Go's client does by default; off, the client spends no CPU decompressing, as pgbench, and the server none compressing")
	raw := flag.Bool("raw", false, "-mode lean, get and legal: send the requests on connections written and read by hand (raw.go) instead of through Go's HTTP client, whose own CPU per request is about the server's")
	include := flag.Bool("include", true, "-mode lean: ask POST …/actions for the next legal actions (include=legal_actions) and skip the GET when the same seat acts next")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of loadgen itself to this file")
	flag.Parse()
	if *mode != "games" && *mode != "lean" && *mode != "get" && *mode != "legal" {
		fmt.Fprintf(os.Stderr, "loadgen: -mode must be games, lean, get or legal, not %q\n", *mode)
		os.Exit(2)
	}
	if *mode != "games" && *duration <= 0 {
		fmt.Fprintln(os.Stderr, "loadgen: -duration must be positive")
		os.Exit(2)
	}
	if *kind != "prime-climb" && *kind != "primed" && *kind != "both" {
		fmt.Fprintf(os.Stderr, "loadgen: -game must be prime-climb, primed or both, not %q\n", *kind)
		os.Exit(2)
	}
	if *games < 1 || *concurrency < 1 {
		fmt.Fprintln(os.Stderr, "loadgen: -games and -concurrency must be at least 1")
		os.Exit(2)
	}

	if *cpuProfile != "" {
		stopProfile, err := profileCPU(*cpuProfile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "loadgen: %v\n", err)
			os.Exit(1)
		}
		defer stopProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	httpClient := &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        2 * *concurrency,
			MaxIdleConnsPerHost: 2 * *concurrency,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  !*gzip,
		},
	}

	base := strings.TrimRight(*url, "/")
	switch *mode {
	case "lean":
		runLean(ctx, httpClient, base, *kind, *concurrency, *duration, *include, *seed, *raw)
		return
	case "get", "legal":
		runGets(ctx, httpClient, base, *kind, *concurrency, *duration, *seed, *mode == "legal", *raw)
		return
	}

	fmt.Printf("loadgen: %d games (%s) against %s, concurrency %d, seed %d\n", *games, *kind, *url, *concurrency, *seed)
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for i := range *games {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()

	total := newStats()
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range *concurrency {
		wg.Go(func() {
			c := &client{http: httpClient, base: base, st: newStats()}
			for i := range jobs {
				c.play(ctx, kindOf(*kind, i), rand.New(rand.NewPCG(*seed, uint64(i))))
			}
			mu.Lock()
			total.merge(c.st)
			mu.Unlock()
		})
	}
	wg.Wait()
	wall := time.Since(start)
	fmt.Println()
	total.report(os.Stdout, wall)
	if ctx.Err() != nil {
		fmt.Println("\n(interrupted)")
	}
}

// client makes the requests of one worker and records them in its own stats.
type client struct {
	http *http.Client
	base string
	st   *stats
	// raw, when not nil, carries the requests instead of http (-raw), each written into request.
	raw     *rawConn
	request []byte
}

// play creates one game and plays it to the end (or until it has to give up).
func (c *client) play(ctx context.Context, game string, rng *rand.Rand) {
	player := playerFor(game)
	created, ok := c.createGame(ctx, game, rng)
	if !ok {
		return
	}
	id, tokens := created.Game.ID, created.tokens()

	accepted, failures := 0, 0
	for accepted < maxActionsPerGame && failures < maxFailuresInGame && ctx.Err() == nil {
		var g struct {
			Status string
			Turn   *struct {
				ToAct []int `json:"to_act"`
			}
		}
		if !c.call(ctx, kindGame, "GET", "/v1/games/"+id, "", nil, "", &g) {
			failures++
			continue
		}
		if g.Status == "finished" {
			c.st.gamesFinished++
			c.st.actionsByGame[game] = append(c.st.actionsByGame[game], accepted)
			return
		}
		if g.Status != "active" || g.Turn == nil || len(g.Turn.ToAct) == 0 {
			c.st.odd("game %s (%s) after %d actions: status %q with nobody to act", id, game, accepted, g.Status)
			break
		}
		seat := g.Turn.ToAct[rng.IntN(len(g.Turn.ToAct))]

		var legal struct {
			Actions []json.RawMessage
		}
		if !c.call(ctx, kindLegal, "GET", "/v1/games/"+id+"/legal-actions", tokens[seat], nil, "", &legal) {
			failures++
			continue
		}
		if len(legal.Actions) == 0 {
			c.st.odd("game %s (%s) after %d actions: seat %d is to act but has no legal actions", id, game, accepted, seat)
			failures++
			continue
		}
		action, err := pickAction(player, legal.Actions, rng)
		if err != nil {
			c.st.odd("game %s (%s) after %d actions: %v", id, game, accepted, err)
			failures++
			continue
		}
		if c.postAction(ctx, id, tokens[seat], action) {
			accepted++
			c.st.actionsPosted++
			failures = 0
		} else {
			failures++
		}
	}
	if ctx.Err() == nil {
		c.st.gamesAbandoned++
		c.st.odd("game %s (%s) abandoned after %d accepted actions (%d failures in a row)", id, game, accepted, failures)
	}
}

// pickAction picks one of a seat's legal actions with player and returns its action.
func pickAction(player players.Player, legal []json.RawMessage, rng *rand.Rand) (json.RawMessage, error) {
	i, err := player(legal, rng)
	if err != nil {
		return nil, err
	}
	var entry struct{ Action json.RawMessage }
	if err := json.Unmarshal(legal[i], &entry); err != nil {
		return nil, fmt.Errorf("legal action %d: %w", i, err)
	}
	return entry.Action, nil
}

// postAction posts one action, retrying with the same Idempotency-Key after a transport error or a
// 5xx. It reports whether the action was accepted.
func (c *client) postAction(ctx context.Context, id, token string, action json.RawMessage) bool {
	key := newKey()
	for range 1 + postRetries {
		status, ok := c.do(ctx, kindAction, "POST", "/v1/games/"+id+"/actions", token, action, key, nil)
		if ok {
			return true
		}
		if status != 0 && status < 500 || ctx.Err() != nil {
			return false
		}
	}
	return false
}

// call is do without the status.
func (c *client) call(ctx context.Context, kind, method, path, token string, body []byte, key string, out any) bool {
	_, ok := c.do(ctx, kind, method, path, token, body, key, out)
	return ok
}

// do sends one request, records its latency under kind, and on a 2xx decodes the response into out
// (when not nil). Anything else is counted as an error and the first few are kept verbatim. It
// returns the status (0 when no response came) and whether it was a 2xx.
func (c *client) do(ctx context.Context, kind, method, path, token string, body []byte, key string, out any) (int, bool) {
	began := time.Now()
	a, err := c.send(ctx, method, path, token, body, key)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			// The run ended while the request or its answer was on its way: not the server's failure.
		case a.status == 0:
			c.st.fail(kind, "transport error", fmt.Sprintf("%s %s\n%s\n-> %v", method, path, body, err))
		default:
			c.st.observe(kind, time.Since(began))
			c.st.fail(kind, "read error", fmt.Sprintf("%s %s\n%s\n-> %d, reading the body: %v", method, path, body, a.status, err))
		}
		return a.status, false
	}
	c.st.observe(kind, time.Since(began))
	if a.status == http.StatusTooManyRequests && c.waitRetryAfter(ctx, a.retryAfter) {
		return c.do(ctx, kind, method, path, token, body, key, out)
	}
	if a.status/100 != 2 {
		var problem struct{ Code string }
		_ = json.Unmarshal(a.body, &problem)
		c.st.fail(kind, fmt.Sprintf("%d %s", a.status, problem.Code), fmt.Sprintf(
			"%s %s\n%s%s\n-> %d %s (X-Request-ID %s)\n%s",
			method, path, headerLines(token, key), body, a.status, http.StatusText(a.status), a.requestID, a.body))
		return a.status, false
	}
	if out != nil {
		if err := json.Unmarshal(a.body, out); err != nil {
			c.st.fail(kind, "undecodable 2xx", fmt.Sprintf("%s %s\n-> %d\n%s\n(%v)", method, path, a.status, a.body, err))
			return a.status, false
		}
	}
	return a.status, true
}

// answer is what do reads of a response.
type answer struct {
	status                int // 0 when no response came
	body                  []byte
	retryAfter, requestID string
}

// send sends one request through the client's raw connection when it has one, else through Go's
// HTTP client. An answer's body is good until the next request.
func (c *client) send(ctx context.Context, method, path, token string, body []byte, key string) (answer, error) {
	if c.raw != nil {
		c.request = c.raw.appendRequest(c.request[:0], method, path, token, body, key)
		status, err := c.raw.roundTrip(ctx, c.request)
		return answer{status: status, body: c.raw.body, retryAfter: c.raw.retryAfter, requestID: c.raw.requestID}, err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		panic(err) // only a malformed -url gets here
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	respBody, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return answer{status: resp.StatusCode, body: respBody, retryAfter: resp.Header.Get("Retry-After"),
		requestID: resp.Header.Get("X-Request-ID")}, err
}

// waitRetryAfter counts a request refused by the server's rate limit and waits the seconds its
// Retry-After asks for (one when it does not say); it reports whether to send the request again.
func (c *client) waitRetryAfter(ctx context.Context, retryAfter string) bool {
	c.st.throttled++
	seconds, err := strconv.Atoi(retryAfter)
	if err != nil || seconds < 1 {
		seconds = 1
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(time.Duration(seconds) * time.Second):
		return true
	}
}

// newKey returns a fresh Idempotency-Key. It comes from crypto/rand, not the seeded PRNG, so runs
// with the same seed against the same database never reuse a key.
func newKey() string { return crand.Text() }

// headerLines shows the request headers that matter in an error sample, the token shortened.
func headerLines(token, key string) string {
	var b strings.Builder
	if token != "" {
		fmt.Fprintf(&b, "Authorization: Bearer %s…\n", token[:min(8, len(token))])
	}
	if key != "" {
		fmt.Fprintf(&b, "Idempotency-Key: %s\n", key)
	}
	return b.String()
}
