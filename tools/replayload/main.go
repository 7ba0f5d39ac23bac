// Command replayload measures what replays of one long game cost a running server: it creates (or
// reuses) a Primed game of 6 expert computers and the most rounds (20), waits for it to finish, then
// sends concurrent GET /v1/games/{id}/replay.svg while a person creates games (POST /v1/games), and
// prints the server's resident memory before and at its peak, each replay's time and size, and the
// person's POST latencies, idle and meanwhile. scripts/replay-load.sh runs it against a fresh server.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"primegames/tools/internal/latency"
	"primegames/tools/internal/procstat"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server")
	pid := flag.Int("pid", 0, "the server's process id, to read its memory from /proc")
	game := flag.String("game", "", "a finished game to replay (default: create the long game)")
	concurrent := flag.Int("n", 8, "replays at once")
	query := flag.String("query", "", "query string of each replay request (e.g. from=5600)")
	posts := flag.Int("posts", 300, "POST /v1/games of the idle measurement")
	rounds := flag.Int("rounds", 1, "bursts of n replays, one after the other")
	spread := flag.Bool("spread", false, "each replay asks for another window of 100 entries (from=), across the game")
	flag.Parse()
	client := &http.Client{Timeout: 5 * time.Minute}

	id := *game
	if id == "" {
		id = createLongGame(client, *base)
	}
	entries := waitFinished(client, *base, id)
	fmt.Printf("game %s: finished, %d entries\n", id, entries)

	idle := postLatencies(client, *base, *posts, nil)
	fmt.Printf("POST /v1/games idle: %s\n", summary(idle))

	rssBefore := procstat.RSS(*pid)
	var peak atomic.Int64
	peak.Store(rssBefore)
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if r := procstat.RSS(*pid); r > peak.Load() {
				peak.Store(r)
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	stopPosts := make(chan struct{})
	busy := make(chan []time.Duration, 1)
	go func() { busy <- postLatencies(client, *base, 0, stopPosts) }()

	type result struct {
		status int
		bytes  int64
		took   time.Duration
		err    error
	}
	results := make([]result, *concurrent**rounds)
	for round := range *rounds {
		var wg sync.WaitGroup
		for i := round * *concurrent; i < (round+1)**concurrent; i++ {
			url := *base + "/v1/games/" + id + "/replay.svg"
			switch {
			case *spread:
				url += fmt.Sprintf("?from=%d", (i*100)%entries)
			case *query != "":
				url += "?" + *query
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				start := time.Now()
				// Asked for gzipped, as a browser asks, and read as it comes over the wire: a
				// browser inflates on its own machine, not on the server's, so this client does not
				// take CPU from the server to inflate it either.
				req, err := http.NewRequest(http.MethodGet, url, nil)
				if err != nil {
					log.Fatal(err)
				}
				req.Header.Set("Accept-Encoding", "gzip")
				resp, err := client.Do(req)
				if err != nil {
					results[i] = result{err: err, took: time.Since(start)}
					return
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				results[i] = result{status: resp.StatusCode, bytes: n, took: time.Since(start), err: err}
			}()
		}
		wg.Wait()
	}
	close(stopPosts)
	during := <-busy
	close(stopSampling)
	<-sampled
	for i, r := range results {
		fmt.Printf("replay %d: status %d, %d bytes on the wire, %s, err %v\n", i, r.status, r.bytes, r.took.Round(time.Millisecond), r.err)
	}
	fmt.Printf("RSS before %.1f MB, peak %.1f MB (+%.1f MB)\n", mb(rssBefore), mb(peak.Load()), mb(peak.Load()-rssBefore))
	fmt.Printf("POST /v1/games during the replays: %s\n", summary(during))
}

func mb(kb int64) float64 { return float64(kb) / 1024 }

func createLongGame(client *http.Client, base string) string {
	players := make([]map[string]string, 6)
	for i := range players {
		players[i] = map[string]string{"bot": "expert"}
	}
	body, _ := json.Marshal(map[string]any{"game": "primed", "options": map[string]any{"rounds": 20, "bot_delay_ms": 0}, "players": players})
	resp, err := client.Post(base+"/v1/games", "application/json", bytes.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var created struct {
		Game struct {
			ID string `json:"id"`
		} `json:"game"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated {
		log.Fatalf("create: %d %v", resp.StatusCode, err)
	}
	return created.Game.ID
}

// waitFinished polls the game until it is finished and returns its number of entries.
func waitFinished(client *http.Client, base, id string) int {
	for {
		resp, err := client.Get(base + "/v1/games/" + id)
		if err != nil {
			log.Fatal(err)
		}
		var g struct {
			Status string `json:"status"`
		}
		err = json.NewDecoder(resp.Body).Decode(&g)
		resp.Body.Close()
		if err != nil {
			log.Fatal(err)
		}
		if g.Status == "finished" {
			break
		}
		time.Sleep(time.Second)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/games/"+id+"/actions", nil)
	req.Header.Set("Accept", "application/x-ndjson")
	all, err := client.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	data, _ := io.ReadAll(all.Body)
	all.Body.Close()
	n := bytes.Count(data, []byte("\n"))
	return n
}

// postLatencies creates games as a person would, count of them, or until stop is closed.
func postLatencies(client *http.Client, base string, count int, stop chan struct{}) []time.Duration {
	body := []byte(`{"game":"primed","players":[{"name":"Ada"},{"name":"Bo"}]}`)
	var out []time.Duration
	for i := 0; count == 0 || i < count; i++ {
		if stop != nil {
			select {
			case <-stop:
				return out
			default:
			}
		}
		start := time.Now()
		resp, err := client.Post(base+"/v1/games", "application/json", bytes.NewReader(body))
		if err != nil {
			log.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			log.Fatalf("POST /v1/games = %d", resp.StatusCode)
		}
		out = append(out, time.Since(start))
		time.Sleep(10 * time.Millisecond) // a person's pace, not a flood
	}
	return out
}

func summary(d []time.Duration) string {
	s := latency.Summarise(d)
	if s.N == 0 {
		return "no requests"
	}
	return fmt.Sprintf("%d requests, p50 %s, p99 %s, max %s", s.N, s.P50.Round(100*time.Microsecond),
		s.P99.Round(100*time.Microsecond), s.Max.Round(100*time.Microsecond))
}
