// Command hooklatency measures how long a webhook takes to reach a healthy receiver after the move
// that queued it (issue 39): it runs a receiver on 127.0.0.1, subscribes it to games it plays on
// -url (through -subscribe, by default the same server), and times each of -n moves, one at a time
// and up to -pause apart,
// from the moment the move's POST returned to the arrival of that move's `entry` webhook. It
// prints the p50, p99 and largest, and checks every signature. The servers must allow the receiver
// (WEBHOOK_ALLOWED_HOSTS=127.0.0.1) and this client (RATE_LIMIT=0). scripts/webhooks.sh runs it
// against fresh servers, on one instance and across two.
package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"primegames/tools/internal/latency"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server the moves go to")
	subscribeAt := flag.String("subscribe", "", "the server the subscriptions are made on (default: -url)")
	n := flag.Int("n", 200, "moves to time")
	wait := flag.Duration("timeout", 10*time.Second, "how long to wait for one webhook before giving up")
	hanging := flag.Int("hanging", 0, "receivers that never answer, subscribed to other games that move first, so that their requests hang while the moves are timed")
	pause := flag.Duration("pause", 300*time.Millisecond, "the most time between a webhook's arrival and the next move (at random: players think; a sender idle meanwhile is timed from idle)")
	flag.Parse()
	if *subscribeAt == "" {
		*subscribeAt = *base
	}
	rc := newReceiver()
	c := &client{http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}

	if *hanging > 0 {
		held := hang(c, *base, *subscribeAt, *hanging)
		fmt.Printf("%d receivers hold a request each without answering\n", held)
	}
	var times []time.Duration
	for len(times) < *n {
		g := c.game(*base)
		secret := c.subscribe(*subscribeAt, g, rc.url)
		rc.setSecret(secret)
		for len(times) < *n {
			time.Sleep(rand.N(*pause + 1))
			seq, ok := c.move(*base, g)
			if !ok {
				break // the game is over: another
			}
			returned := time.Now()
			select {
			case at := <-rc.arrival(g.id, seq):
				times = append(times, max(at.Sub(returned), 0))
			case <-time.After(*wait):
				log.Fatalf("no webhook for entry %d of game %s within %s", seq, g.id, *wait)
			}
		}
	}
	if bad := rc.badSignatures(); bad > 0 {
		log.Fatalf("%d webhooks with a bad signature", bad)
	}
	s := latency.Summarise(times)
	fmt.Printf("move -> webhook at a local receiver: n=%d p50=%s p99=%s max=%s\n", s.N,
		s.P50.Round(100*time.Microsecond), s.P99.Round(100*time.Microsecond), s.Max.Round(100*time.Microsecond))
}

// hang starts n receivers that never answer, subscribes them to games of their own (10 to a seat's
// token, its quota), makes a move in each game, and returns once every receiver holds a request.
func hang(c *client, base, subscribeAt string, n int) int {
	var held sync.WaitGroup
	held.Add(n)
	var games []game
	for i := 0; i < n; {
		g := c.game(base)
		games = append(games, g)
		for _, token := range g.tokens {
			for k := 0; k < 10 && i < n; k, i = k+1, i+1 {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					log.Fatal(err)
				}
				var once sync.Once
				go func() {
					log.Fatal(http.Serve(ln, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
						once.Do(held.Done)
						<-r.Context().Done() // never answers
					})))
				}()
				body, _ := json.Marshal(map[string]any{"scope": "game", "game_id": g.id, "url": "http://" + ln.Addr().String() + "/hook"})
				c.post(subscribeAt+"/v1/webhooks", token, string(body))
			}
		}
	}
	for _, g := range games {
		if _, ok := c.move(base, g); !ok {
			log.Fatal("a new game has no move")
		}
	}
	held.Wait()
	return n
}

// receiver records when each game's entry webhooks arrive.
type receiver struct {
	url     string
	mu      sync.Mutex
	secret  string
	waiting map[string]chan time.Time // "<game>:<seq>"
	bad     int
}

func newReceiver() *receiver {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	rc := &receiver{url: "http://" + ln.Addr().String() + "/hook", waiting: map[string]chan time.Time{}}
	go func() {
		log.Fatal(http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			at := time.Now()
			body, _ := io.ReadAll(r.Body)
			var event struct {
				Type string
				Data struct {
					GameID string `json:"game_id"`
					Seq    int64
				}
			}
			if json.Unmarshal(body, &event) != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			rc.mu.Lock()
			if !verify(rc.secret, r.Header, body) {
				rc.bad++
			}
			rc.mu.Unlock()
			if event.Type == "entry" {
				rc.arrival(event.Data.GameID, event.Data.Seq) <- at
			}
			w.WriteHeader(http.StatusNoContent)
		})))
	}()
	return rc
}

func (rc *receiver) setSecret(s string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.secret = s
}

// arrival is the channel on which the arrival of a game's entry is told (buffered: either side
// may come first).
func (rc *receiver) arrival(game string, seq int64) chan time.Time {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	key := fmt.Sprint(game, ":", seq)
	ch, ok := rc.waiting[key]
	if !ok {
		ch = make(chan time.Time, 2)
		rc.waiting[key] = ch
	}
	return ch
}

func (rc *receiver) badSignatures() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.bad
}

// verify is a receiver's check of a Standard Webhooks signature (docs/app.md).
func verify(secret string, h http.Header, body []byte) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "." + string(body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

type client struct{ http *http.Client }

type game struct {
	id     string
	tokens []string
}

func (c *client) do(method, url, token, body string) (int, []byte) {
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func (c *client) post(url, token, body string) []byte {
	status, out := c.do(http.MethodPost, url, token, body)
	if status >= 300 {
		log.Fatalf("POST %s = %d: %s", url, status, out)
	}
	return out
}

// game creates a game of Primed with two local players.
func (c *client) game(base string) game {
	var g struct {
		Game  struct{ ID string }
		Seats []struct{ Token string }
	}
	if err := json.Unmarshal(c.post(base+"/v1/games", "", `{"game":"primed","players":[{"name":"Ada"},{"name":"Bo"}]}`), &g); err != nil {
		log.Fatal(err)
	}
	out := game{id: g.Game.ID}
	for _, s := range g.Seats {
		out.tokens = append(out.tokens, s.Token)
	}
	return out
}

// subscribe subscribes url to the game's entries, with its first seat's token, and returns the
// secret.
func (c *client) subscribe(base string, g game, url string) string {
	body, _ := json.Marshal(map[string]any{"scope": "game", "game_id": g.id, "url": url, "events": []string{"entry"}})
	var hook struct{ Secret string }
	if err := json.Unmarshal(c.post(base+"/v1/webhooks", g.tokens[0], string(body)), &hook); err != nil {
		log.Fatal(err)
	}
	return hook.Secret
}

// move plays the first legal action of whichever seat may act and returns the entry's seq; false
// when nobody may (the game is over).
func (c *client) move(base string, g game) (int64, bool) {
	for _, token := range g.tokens {
		status, out := c.do(http.MethodGet, base+"/v1/games/"+g.id+"/legal-actions", token, "")
		var legal struct {
			Actions []struct{ Action json.RawMessage }
		}
		if status != http.StatusOK || json.Unmarshal(out, &legal) != nil || len(legal.Actions) == 0 {
			continue
		}
		var result struct{ Entry struct{ Seq int64 } }
		answer := c.post(base+"/v1/games/"+g.id+"/actions", token, string(legal.Actions[0].Action))
		if err := json.Unmarshal(answer, &result); err != nil {
			log.Fatalf("action answer %s: %v", bytes.TrimSpace(answer), err)
		}
		return result.Entry.Seq, true
	}
	return 0, false
}
