// Command streamload measures what idle live-update streams cost a running server (issue 28): it
// opens -n streams, a third each of game, classroom and player streams, of each half as server-sent
// events and half as NDJSON, waits for them to settle,
// and reads the server's resident memory (from /proc, by -pid) before and after, and its database
// reads while they sit idle (the pool's acquires in /metrics, against as long a time with no stream). Then one move in the game
// every game stream watches is timed to each stream: the fan-out's p50/p99. The server must allow
// the streams: STREAM_LIMIT at least -n and STREAM_LIMIT_PER_CLIENT=0, RATE_LIMIT=0.
// scripts/streams.sh runs it against a fresh server.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"primegames/tools/internal/latency"
	"primegames/tools/internal/procstat"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server")
	pid := flag.Int("pid", 0, "the server's process id, to read its memory")
	n := flag.Int("n", 10000, "streams to open")
	idle := flag.Duration("idle", 30*time.Second, "how long the streams sit idle while database reads are counted")
	batch := flag.Int("batch", 500, "streams opened at once: each batch is open before the next starts")
	admin := flag.String("admin", "", "the server's ADMIN_ADDR URL: with -profile, where to read its profiles")
	profiles := flag.String("profile", "", "a folder to save the server's heap and goroutine profiles in, taken with the streams open")
	fanout := flag.String("fanout", "game", "game: one move in a public game every game stream follows, timed to the game streams; all: the student's classroom game, which every stream follows, aborted by the teacher, timed to every stream (end, game_ended)")
	flag.Parse()
	c := &client{base: *base, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}}

	game := c.create(`{"game":"primed","public":true,"players":[{"name":"Ada"},{"name":"Bo"}]}`)
	teacher, classroom, student, other := c.classroom()
	gameToken := ""
	if *fanout == "all" {
		game = c.classroomGame(classroom, teacher)
		gameToken = other // a seat of it: a classroom's game is not public
	}
	paths := []struct{ path, token string }{
		{"/v1/games/" + game.ID + "/events", gameToken},
		{"/v1/classrooms/" + classroom + "/events", teacher},
		{"/v1/me/events", student},
	}
	timed := func(kind int, event string) bool { // the events the fan-out is timed by
		if *fanout == "all" {
			return event == "end" || event == "game_ended"
		}
		return kind == 0 && event == "action"
	}

	time.Sleep(2 * time.Second) // the server settles after the set-up
	// The worker and the scrapes read the database whatever the streams do: count them without
	// streams first, for as long, and set the streams' count against it.
	baseline, baselineCPU := c.acquires(), procstat.CPU(*pid)
	time.Sleep(*idle)
	baseline, baselineCPU = c.acquires()-baseline, procstat.CPU(*pid)-baselineCPU
	before, goBefore := procstat.RSS(*pid), c.goMemory()
	var opened, failed atomic.Int64
	arrivals := make(chan time.Time, *n)
	var wg sync.WaitGroup
	ready := make(chan struct{})
	for i := range *n {
		p := paths[i%len(paths)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			sse := (i/len(paths))%2 == 1
			if err := c.follow(p.path, p.token, sse, &opened, ready, func(event string) {
				if timed(i%len(paths), event) {
					arrivals <- time.Now()
				}
			}); err != nil {
				failed.Add(1)
			}
		}()
		if i%*batch == *batch-1 {
			// Not a connection storm: each batch is open before the next starts, so that what is
			// measured is the streams, not thousands of requests in flight at once.
			for opened.Load()+failed.Load() < int64(i+1) {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	for opened.Load()+failed.Load() < int64(*n) {
		time.Sleep(100 * time.Millisecond)
	}
	close(ready)
	time.Sleep(5 * time.Second)
	after, goAfter := procstat.RSS(*pid), c.goMemory()
	fmt.Printf("streams: %d open, %d refused or failed\n", opened.Load(), failed.Load())
	fmt.Printf("RSS: %.1f MB idle, %.1f MB with the streams: %.1f KB per stream\n",
		float64(before)/1024, float64(after)/1024, float64(after-before)/float64(max(1, opened.Load())))
	perStream := func(name string) float64 {
		return (goAfter[name] - goBefore[name]) / 1024 / float64(max(1, opened.Load()))
	}
	fmt.Printf("of which, per stream: heap in use %.1f KB, goroutine stacks %.1f KB, goroutines %.2f\n",
		perStream("go_memstats_heap_inuse_bytes"), perStream("go_memstats_stack_inuse_bytes"), perStream("go_goroutines")*1024)
	if *profiles != "" {
		saveProfiles(*admin, *profiles)
	}

	reads, cpu := c.acquires(), procstat.CPU(*pid)
	time.Sleep(*idle)
	fmt.Printf("database connections acquired in %s: %d with no stream, %d while %d streams sat idle\n", *idle, baseline, c.acquires()-reads, opened.Load())
	fmt.Printf("server CPU in %s: %s with no stream, %s while they sat idle\n", *idle, baselineCPU, procstat.CPU(*pid)-cpu)
	settled, goSettled := procstat.RSS(*pid), c.goMemory()
	fmt.Printf("RSS after %s more%s: %.1f MB: %.1f KB per stream (heap in use %.1f KB, stacks %.1f KB)\n",
		*idle, map[bool]string{true: " (and two collections)", false: ""}[*profiles != ""], float64(settled)/1024,
		float64(settled-before)/float64(max(1, opened.Load())),
		(goSettled["go_memstats_heap_inuse_bytes"]-goBefore["go_memstats_heap_inuse_bytes"])/1024/float64(max(1, opened.Load())),
		(goSettled["go_memstats_stack_inuse_bytes"]-goBefore["go_memstats_stack_inuse_bytes"])/1024/float64(max(1, opened.Load())))

	gameStreams := (opened.Load() + 2) / 3
	if *fanout == "all" {
		gameStreams = opened.Load()
	}
	profiled := make(chan struct{})
	if *profiles != "" { // the server's CPU profile of the fan-out (the second after the move)
		go func() {
			defer close(profiled)
			save(*admin+"/debug/pprof/profile?seconds=2", *profiles+"/fanout-cpu.pb.gz")
		}()
		time.Sleep(100 * time.Millisecond)
	} else {
		close(profiled)
	}
	sent := time.Now()
	if *fanout == "all" {
		c.post("/v1/games/"+game.ID+"/abort", teacher, "")
	} else {
		c.moveOnce(game)
	}
	var took []time.Duration
	timeout := time.After(30 * time.Second)
	for int64(len(took)) < gameStreams {
		select {
		case at := <-arrivals:
			took = append(took, at.Sub(sent))
		case <-timeout:
			gameStreams = int64(len(took))
		}
	}
	s := latency.Summarise(took)
	what := "one move fanned out to %d game streams"
	if *fanout == "all" {
		what = "one abort fanned out to %d streams of all kinds"
	}
	fmt.Printf(what+": p50 %s, p99 %s, max %s\n", s.N, s.P50.Round(time.Millisecond), s.P99.Round(time.Millisecond), s.Max.Round(time.Millisecond))
	<-profiled
	os.Exit(0) // the streams stay open until the process ends
}

type client struct {
	base string
	http *http.Client
}

type created struct {
	ID     string
	Tokens []string
}

func (c *client) post(path, token, body string) []byte {
	req, _ := http.NewRequest(http.MethodPost, c.base+path, strings.NewReader(body))
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
	if resp.StatusCode >= 300 {
		log.Fatalf("POST %s = %d: %s", path, resp.StatusCode, out)
	}
	return out
}

func (c *client) create(body string) created {
	var g struct {
		Game  struct{ ID string }
		Seats []struct{ Token string }
	}
	if err := json.Unmarshal(c.post("/v1/games", "", body), &g); err != nil {
		log.Fatal(err)
	}
	out := created{ID: g.Game.ID}
	for _, s := range g.Seats {
		out.Tokens = append(out.Tokens, s.Token)
	}
	return out
}

// classroom makes a classroom with two students: the teacher's token, its id and the students'
// tokens.
func (c *client) classroom() (teacher, id, student, other string) {
	var class struct {
		Classroom struct {
			ID       string
			JoinCode string `json:"join_code"`
		}
		TeacherToken string `json:"teacher_token"`
	}
	if err := json.Unmarshal(c.post("/v1/classrooms", "", `{"name":"Streams"}`), &class); err != nil {
		log.Fatal(err)
	}
	join := func(name string) string {
		var joined struct {
			Token string `json:"token"`
		}
		if err := json.Unmarshal(c.post("/v1/classrooms/join", "", `{"join_code":"`+class.Classroom.JoinCode+`","name":"`+name+`"}`), &joined); err != nil {
			log.Fatal(err)
		}
		return joined.Token
	}
	return class.TeacherToken, class.Classroom.ID, join("Ada"), join("Bo")
}

// classroomGame starts a game of Primed for the classroom's two students.
func (c *client) classroomGame(classroom, teacher string) created {
	var batch struct {
		Games []struct{ ID string }
	}
	if err := json.Unmarshal(c.post("/v1/classrooms/"+classroom+"/games", teacher, `{"game":"primed","group_size":2}`), &batch); err != nil || len(batch.Games) != 1 {
		log.Fatalf("classroom games: %v, %d games", err, len(batch.Games))
	}
	return created{ID: batch.Games[0].ID}
}

// follow opens a stream as NDJSON, or with sse as server-sent events, and calls seen with each
// event's name until it ends.
func (c *client) follow(path, token string, sse bool, opened *atomic.Int64, ready <-chan struct{}, seen func(string)) error {
	req, _ := http.NewRequest(http.MethodGet, c.base+path, nil)
	req.Header.Set("Accept", "application/x-ndjson")
	if sse {
		req.Header.Set("Accept", "text/event-stream")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %d", path, resp.StatusCode)
	}
	opened.Add(1)
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		var msg struct{ Event string }
		if sse {
			var ok bool
			if msg.Event, ok = strings.CutPrefix(lines.Text(), "event: "); !ok {
				continue
			}
		}
		if sse || json.Unmarshal(lines.Bytes(), &msg) == nil {
			select {
			case <-ready:
				seen(msg.Event)
			default: // the history replayed on opening
			}
		}
	}
	return lines.Err()
}

// moveOnce makes the first legal move of the seat to act.
func (c *client) moveOnce(g created) {
	for _, token := range g.Tokens {
		req, _ := http.NewRequest(http.MethodGet, c.base+"/v1/games/"+g.ID+"/legal-actions", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := c.http.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		var legal struct {
			Actions []struct{ Action json.RawMessage }
		}
		err = json.NewDecoder(resp.Body).Decode(&legal)
		resp.Body.Close()
		if err == nil && len(legal.Actions) > 0 {
			c.post("/v1/games/"+g.ID+"/actions", token, string(legal.Actions[0].Action))
			return
		}
	}
	log.Fatal("nobody may move")
}

// goMemory is the server's Go memory gauges from /metrics, by name.
func (c *client) goMemory() map[string]float64 {
	return c.metrics("go_memstats_heap_inuse_bytes", "go_memstats_stack_inuse_bytes", "go_goroutines")
}

// metrics reads the named samples (without labels) from /metrics.
func (c *client) metrics(names ...string) map[string]float64 {
	resp, err := c.http.Get(c.base + "/metrics")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	out := map[string]float64{}
	for _, line := range bytes.Split(body, []byte("\n")) {
		if name, value, ok := strings.Cut(string(line), " "); ok && slices.Contains(names, name) {
			out[name], _ = strconv.ParseFloat(value, 64)
		}
	}
	return out
}

// acquires is the pool's count of connections acquired so far, from /metrics.
func (c *client) acquires() int64 {
	return int64(c.metrics("db_pool_acquires_total")["db_pool_acquires_total"])
}

// saveProfiles saves the server's heap and goroutine profiles from its admin address into folder.
func saveProfiles(admin, folder string) {
	// Two collections first: what the first finds unreachable, and what sync.Pools let go of at it,
	// is freed by the second; the profile is the heap as of the last.
	for range 2 {
		resp, err := http.Get(admin + "/debug/pprof/heap?gc=1")
		if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
	}
	for _, name := range []string{"heap", "goroutine"} {
		save(admin+"/debug/pprof/"+name+"?gc=1", folder+"/"+name+".pb.gz")
	}
	fmt.Printf("profiles: %s/heap.pb.gz, %s/goroutine.pb.gz (and, of the move, fanout-cpu.pb.gz)\n", folder, folder)
}

// save writes what GET url answers to the file path.
func save(url, path string) {
	resp, err := http.Get(url)
	if err != nil {
		log.Fatal(err)
	}
	out, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	_, err = io.Copy(out, resp.Body)
	resp.Body.Close()
	if err := errors.Join(err, out.Close()); err != nil {
		log.Fatal(err)
	}
}
