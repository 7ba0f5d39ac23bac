package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"primegames/domain/players"
)

// 64 legal actions of the seat to act, each with its own Idempotency-Key, sent at once to the 3
// instances directly: exactly one is accepted, the others are refused as the contract says (412
// version_mismatch when sent with If-Match, else 409 not_your_turn or a 422 of the rules, as the
// game has moved on), none is a 5xx; at several decision points of several games.
func TestClusterConflictingActionsHaveOneWinner(t *testing.T) {
	// Not in parallel: the tests share the one cluster of scripts/cluster.sh, and the other kills a part of it.
	c := openCluster(t)
	db := c.primaryDB(t)
	const conflicting, decisionPoints = 64, 10
	var stats failoverStats
	refusals := map[string]int{}
	var rounds int
	var slowest, total time.Duration
	for n, kind := range []string{"prime-climb", "primed", "prime-climb", "primed"} {
		g, err := c.createGame([]string{c.proxy}, 0, kind, &stats)
		if err != nil {
			t.Fatal(err)
		}
		for d := 0; d < decisionPoints && g.status == "active"; d++ {
			legal, err := c.legalActions(c.instances, n+d, g, &stats)
			if err != nil {
				t.Fatal(err)
			}
			// At even decision points the actions differ and the version guards them; at odd ones
			// all 64 are the same action without If-Match, so only the game's row lock stands
			// between them, and the first to act leaves the others illegal or out of turn.
			guarded := d%2 == 0
			calls := make([]clusterCall, conflicting)
			for i := range calls {
				var pick climbLegal
				if guarded {
					decodeJSON(t, legal[i%len(legal)], &pick)
				} else {
					decodeJSON(t, legal[d%len(legal)], &pick)
				}
				calls[i] = clusterCall{method: "POST", path: g.path("/actions"), token: g.tokens[g.toAct[0]],
					key: randomKey(), body: pick.Action}
				if guarded {
					calls[i].ifMatch = quotedVersion(g.version)
				}
			}
			answers, errs := make([]clusterAnswer, conflicting), make([]error, conflicting)
			var ready, done sync.WaitGroup
			gate := make(chan struct{})
			for i := range calls {
				ready.Add(1)
				done.Add(1)
				go func() {
					defer done.Done()
					ready.Done()
					<-gate
					answers[i], errs[i] = c.send(c.instances[i%len(c.instances)], calls[i])
				}()
			}
			ready.Wait()
			began := time.Now()
			close(gate)
			done.Wait()
			took := time.Since(began)
			total += took
			slowest = max(slowest, took)
			rounds++
			winner := -1
			for i, a := range answers {
				if errs[i] != nil {
					t.Fatalf("game %s, decision %d: action %d to %s: %v", g.id, d, i, c.instances[i%len(c.instances)], errs[i])
				}
				switch a.status {
				case http.StatusCreated:
					if winner >= 0 {
						t.Fatalf("game %s, decision %d: actions %d and %d were both accepted", g.id, d, winner, i)
					}
					winner = i
				case http.StatusConflict, http.StatusPreconditionFailed, http.StatusUnprocessableEntity:
					var p struct{ Code string }
					decodeJSON(t, a.body, &p)
					refusals[strconv.Itoa(a.status)+" "+p.Code]++
				default:
					t.Fatalf("game %s, decision %d: action %d = %d: %s", g.id, d, i, a.status, a.body)
				}
			}
			if winner < 0 {
				t.Fatalf("game %s, decision %d: none of %d actions was accepted", g.id, d, conflicting)
			}
			if err := g.accept(answers[winner].body); err != nil {
				t.Fatal(err)
			}
		}
		c.checkGame(t, g)
		checkStoredFold(t, db, g.id)
	}
	t.Logf("%d decision points × %d conflicting actions over %d instances: %d accepted, refusals %v, no 5xx; a round took %s on average, %s at most",
		rounds, conflicting, len(c.instances), rounds, refusals, (total / time.Duration(rounds)).Round(time.Millisecond), slowest.Round(time.Millisecond))
}

// Clients play games (create and act, each with an Idempotency-Key), some through HAProxy and
// some round robin over the instances directly; mid-load one instance is killed (SIGKILL) and so
// is the replica. A client whose request meets a connection error or a 5xx sends the SAME request
// with the SAME key to the next address. Afterwards: nothing lost, nothing doubled, every game's
// history folds to its stored state.
func TestClusterSurvivesAnInstanceAndTheReplicaDying(t *testing.T) {
	// Not in parallel: the tests share the one cluster of scripts/cluster.sh, and this one kills a part of it.
	c := openCluster(t)
	db := c.primaryDB(t)
	const clients, load, outageAt, maxActionsPerGame = 9, 8 * time.Second, 2500 * time.Millisecond, 120
	ctx, cancel := context.WithTimeout(context.Background(), load)
	defer cancel()
	var stats failoverStats
	var actions, actionsAfterOutage atomic.Int64
	var outage atomic.Bool
	played := make([][]*clusterGame, clients)
	// play is one client: it plays games through targets until the load ends, and returns the
	// first thing that went wrong, for the test's goroutine to fail with.
	play := func(n int, targets []string, playerOf map[string]players.Player) error {
		rng := rand.New(rand.NewPCG(uint64(n), 17))
		next := n // the target of the next request: each request goes to the next address
		for i := 0; ctx.Err() == nil; i++ {
			kind := []string{"prime-climb", "primed"}[(n+i)%2]
			g, err := c.createGame(targets, next, kind, &stats)
			if err != nil {
				return err
			}
			played[n] = append(played[n], g)
			for len(g.accepted) < maxActionsPerGame && g.status == "active" && ctx.Err() == nil {
				next++
				legal, err := c.legalActions(targets, next, g, &stats)
				if err != nil {
					return err
				}
				var pick climbLegal
				if err := pickLegal(playerOf[kind], legal, rng, &pick); err != nil {
					return fmt.Errorf("game %s: %w", g.id, err)
				}
				next++
				a, err := c.failover(targets, next, clusterCall{method: "POST", path: g.path("/actions"),
					token: g.tokens[g.toAct[0]], key: randomKey(), body: pick.Action}, &stats)
				if err != nil {
					return err
				}
				if a.status != http.StatusCreated {
					return fmt.Errorf("game %s: legal action %s = %d: %s", g.id, pick.Action, a.status, a.body)
				}
				if err := g.accept(a.body); err != nil {
					return err
				}
				actions.Add(1)
				if outage.Load() {
					actionsAfterOutage.Add(1)
				}
			}
		}
		return nil
	}
	clientErrs := make([]error, clients)
	began := time.Now()
	var wg sync.WaitGroup
	for n := range clients {
		targets := c.instances
		if n%3 == 0 {
			targets = []string{c.proxy}
		}
		playerOf := map[string]players.Player{"prime-climb": greedyPlayer(t, "prime-climb"), "primed": greedyPlayer(t, "primed")}
		wg.Add(1)
		go func() {
			defer wg.Done()
			clientErrs[n] = play(n, targets, playerOf)
		}()
	}
	time.Sleep(outageAt)
	killed := c.instances[1]
	c.kill(t, filepath.Join(c.dir, "api2.pid"))
	c.kill(t, filepath.Join(c.dir, "replica", "postmaster.pid"))
	outage.Store(true)
	t.Logf("after %s: killed API instance 2 (%s) and the replica", outageAt, killed)
	wg.Wait()
	wall := time.Since(began)
	for n, err := range clientErrs {
		if err != nil {
			t.Errorf("client %d: %v", n, err)
		}
	}
	c.failOnViolations(t)
	if t.Failed() {
		return
	}
	if stats.recovered.Load() == 0 {
		t.Error("no request was retried: the outage did not happen while clients were acting")
	}
	if actionsAfterOutage.Load() == 0 {
		t.Error("no action was accepted after the outage")
	}
	checked := time.Now()
	var games, finished int
	for _, gs := range played {
		for _, g := range gs {
			c.checkGame(t, g)
			checkStoredFold(t, db, g.id)
			games++
			if g.status != "active" {
				finished++
			}
		}
	}
	t.Logf("%d clients (%d through HAProxy) for %s: %d games (%d finished), %d actions accepted (%d after the outage), %d retries (after %d connection errors, %d 5xx of an instance, %d 503 of HAProxy itself) of %d requests that then got an answer, the slowest retried request answered after %s (%s); checked all %d games in %s: nothing lost, nothing doubled, every history folds to its stored state",
		clients, (clients+2)/3, wall.Round(time.Millisecond), games, finished, actions.Load(), actionsAfterOutage.Load(),
		stats.retries.Load(), stats.retries.Load()-stats.serverErrors.Load(), stats.serverErrors.Load()-c.proxyFailures.Load(), c.proxyFailures.Load(), stats.recovered.Load(), stats.slowest.Round(time.Millisecond), stats.slowestCall,
		games, time.Since(checked).Round(time.Millisecond))
}
