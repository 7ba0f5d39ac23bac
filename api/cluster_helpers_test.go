package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"primegames/api/apitest"
	"primegames/repo"
)

// The tests over a running cluster of scripts/cluster.sh, whose directory TEST_CLUSTER_DIR names;
// scripts/cluster-test.sh starts one, runs them and stops it. They talk to the instances over
// real HTTP, and to the primary Postgres only to fold the stored histories.
//
// The helpers that the tests' goroutines call (send, failover, createGame, legalActions, accept)
// return errors instead of failing the test: only the test's own goroutine may end it, so each
// goroutine hands its error back and the test fails with it.

const clusterEnv = "TEST_CLUSTER_DIR"

type cluster struct {
	dir       string
	proxy     string
	instances []string // base URLs of the API instances, api1 first
	primary   string   // the primary's address
	contract  *apitest.Contract
	http      *http.Client
	// proxyFailures counts HAProxy's own 5xx pages.
	proxyFailures atomic.Int64

	mu sync.Mutex
	// violations are the answers found against the contract, by whichever goroutine sent the
	// request; failOnViolations fails the test with them.
	violations []error
}

func openCluster(t *testing.T) *cluster {
	t.Helper()
	dir := os.Getenv(clusterEnv)
	if dir == "" {
		t.Skipf("%s is not set, so there is no cluster to test: scripts/cluster-test.sh starts one and runs these tests", clusterEnv)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ports"))
	if err != nil {
		t.Fatalf("%s=%s: %v (is `scripts/cluster.sh up` done?)", clusterEnv, dir, err)
	}
	ports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, value, _ := strings.Cut(line, "=")
		ports[name] = value
	}
	c := &cluster{
		dir:      dir,
		proxy:    "http://127.0.0.1:" + ports["proxy"],
		primary:  "postgres://postgres@127.0.0.1:" + ports["primary"] + "/primegames?sslmode=disable",
		contract: apitest.LoadContract(t),
		http:     &http.Client{Timeout: 15 * time.Second},
	}
	for _, p := range strings.Fields(ports["instances"]) {
		c.instances = append(c.instances, "http://127.0.0.1:"+p)
	}
	for _, base := range append([]string{c.proxy}, c.instances...) {
		if r, err := c.http.Get(base + "/readyz"); err != nil || r.StatusCode != http.StatusOK {
			t.Fatalf("%s/readyz: %v; the cluster must be whole (scripts/cluster.sh down, then scripts/cluster-test.sh)", base, err)
		} else {
			r.Body.Close()
		}
	}
	t.Cleanup(func() { c.failOnViolations(t) })
	return c
}

// failOnViolations fails the test with each answer against the contract found since its last call;
// openCluster's cleanup calls it when the test ends. Call it from the test's goroutine.
func (c *cluster) failOnViolations(t *testing.T) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, err := range c.violations {
		t.Error(err)
	}
	c.violations = nil
}

// primaryDB opens the primary directly, to fold what it stored.
func (c *cluster) primaryDB(t *testing.T) *repo.DB {
	t.Helper()
	db, err := repo.Open(context.Background(), c.primary, repo.PoolOptions{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// clusterCall is one request, sent as it is to one base URL after another until an answer that is
// neither a connection error nor a 5xx.
type clusterCall struct {
	method, path, token, key, ifMatch string
	body                              []byte
}

type clusterAnswer struct {
	status int
	body   []byte
}

// send sends call to base once; err is a connection error. The answer is checked against the
// contract; a violation fails the test when it ends (failOnViolations).
func (c *cluster) send(base string, call clusterCall) (clusterAnswer, error) {
	var body io.Reader
	if call.body != nil {
		body = bytes.NewReader(call.body)
	}
	req, err := http.NewRequest(call.method, base+call.path, body)
	if err != nil {
		return clusterAnswer{}, err
	}
	if call.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if call.token != "" {
		req.Header.Set("Authorization", "Bearer "+call.token)
	}
	if call.key != "" {
		req.Header.Set("Idempotency-Key", call.key)
	}
	if call.ifMatch != "" {
		req.Header.Set("If-Match", call.ifMatch)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return clusterAnswer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return clusterAnswer{}, err
	}
	if resp.StatusCode >= 500 && base == c.proxy && !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/problem+json") {
		// HAProxy's own page: the instance it chose did not answer.
		c.proxyFailures.Add(1)
		return clusterAnswer{resp.StatusCode, data}, nil
	}
	if err := c.contract.Check(req, resp.StatusCode, resp.Header, data); err != nil {
		c.mu.Lock()
		c.violations = append(c.violations, fmt.Errorf("%s %s%s answered %d against the contract: %w\n%s", call.method, base, call.path, resp.StatusCode, err, data))
		c.mu.Unlock()
	}
	return clusterAnswer{resp.StatusCode, data}, nil
}

// failoverStats counts what failover did.
type failoverStats struct {
	retries   atomic.Int64 // attempts after the first
	recovered atomic.Int64 // calls that needed a retry and got an answer
	// serverErrors counts the attempts answered with a 5xx, by an instance or by HAProxy itself
	// (the cluster's proxyFailures); the other failed attempts met a connection error.
	serverErrors atomic.Int64

	mu sync.Mutex
	// slowest is the longest time from a retried call's first attempt to its answer, and what the
	// call was.
	slowest     time.Duration
	slowestCall string
}

func (s *failoverStats) note(took time.Duration, call string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if took > s.slowest {
		s.slowest, s.slowestCall = took, call
	}
}

// failover sends call to targets[first], then, after a connection error or a 5xx, the SAME call
// (same Idempotency-Key) to the next target, and so on for up to 30 s.
func (c *cluster) failover(targets []string, first int, call clusterCall, stats *failoverStats) (clusterAnswer, error) {
	began := time.Now()
	deadline := began.Add(30 * time.Second)
	var last string
	for attempt := 0; time.Now().Before(deadline); attempt++ {
		if attempt > 0 {
			stats.retries.Add(1)
			time.Sleep(time.Duration(min(attempt, 10)) * 20 * time.Millisecond)
		}
		base := targets[(first+attempt)%len(targets)]
		a, err := c.send(base, call)
		switch {
		case err != nil:
			last = err.Error()
		case a.status >= 500:
			last = fmt.Sprintf("%d %s", a.status, a.body)
			stats.serverErrors.Add(1)
		default:
			if attempt > 0 {
				stats.recovered.Add(1)
				stats.note(time.Since(began), fmt.Sprintf("%s %s, %d attempts, the last failure %s", call.method, call.path, attempt+1, last))
			}
			return a, nil
		}
	}
	return clusterAnswer{}, fmt.Errorf("%s %s: no answer but failures for 30 s, the last: %s", call.method, call.path, last)
}

func decodeJSON(t *testing.T, data []byte, v any) {
	t.Helper()
	if err := decode(data, v); err != nil {
		t.Fatal(err)
	}
}

func decode(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %w", data, err)
	}
	return nil
}

func quotedVersion(v int64) string { return strconv.Quote(strconv.FormatInt(v, 10)) }

// clusterEntry is the part of a history entry the cluster tests compare.
type clusterEntry struct {
	Seq    int64           `json:"seq"`
	Seat   *int            `json:"seat"`
	Action json.RawMessage `json:"action"`
}

// clusterHistory reads a game's whole history through base, 500 entries a page.
func (c *cluster) clusterHistory(t *testing.T, base, id, token string) []clusterEntry {
	t.Helper()
	var all []clusterEntry
	path := "/v1/games/" + id + "/actions?limit=500"
	for {
		a, err := c.send(base, clusterCall{method: "GET", path: path, token: token})
		if err != nil || a.status != http.StatusOK {
			t.Fatalf("GET %s = %d %v: %s", path, a.status, err, a.body)
		}
		var page struct {
			Items      []clusterEntry `json:"items"`
			NextCursor *string        `json:"next_cursor"`
		}
		decodeJSON(t, a.body, &page)
		all = append(all, page.Items...)
		if page.NextCursor == nil {
			return all
		}
		path = "/v1/games/" + id + "/actions?limit=500&cursor=" + url.QueryEscape(*page.NextCursor)
	}
}

// sameJSON says whether a and b are the same JSON value, whatever the order of their keys.
func sameJSON(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	decodeJSON(t, a, &x)
	decodeJSON(t, b, &y)
	return reflect.DeepEqual(x, y)
}

// kill sends SIGKILL to the process whose id is the first line of pidFile.
func (c *cluster) kill(t *testing.T, pidFile string) {
	t.Helper()
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0]))
	if err != nil {
		t.Fatalf("%s: %v", pidFile, err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill -9 %d (%s): %v", pid, pidFile, err)
	}
}
