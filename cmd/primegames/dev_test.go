package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"primegames/localpg"
)

// devRun is one `primegames dev` in the background, its output read line by line.
type devRun struct {
	lines  chan string
	cancel context.CancelFunc
	done   chan error
}

func startDev(t *testing.T, dir string) *devRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	d := &devRun{lines: make(chan string, 100), cancel: cancel, done: make(chan error, 1)}
	env := envOf(map[string]string{"LISTEN_ADDR": "127.0.0.1:0", "LOG_LEVEL": "error"})
	go func() {
		d.done <- run(ctx, []string{"dev", "-dir", dir}, env, w)
		w.Close()
	}()
	go func() {
		scan := bufio.NewScanner(r)
		for scan.Scan() {
			d.lines <- scan.Text()
		}
		close(d.lines)
	}()
	return d
}

// until reads lines until one starts with prefix and returns it.
func (d *devRun) until(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(3 * time.Minute)
	for {
		select {
		case line, ok := <-d.lines:
			if !ok {
				t.Fatalf("dev ended (%v) before printing %q", <-d.done, prefix)
			}
			if strings.HasPrefix(line, prefix) {
				return line
			}
		case <-timeout:
			t.Fatalf("dev did not print %q", prefix)
		}
	}
}

func (d *devRun) stop(t *testing.T) {
	t.Helper()
	d.cancel()
	if err := <-d.done; err != nil {
		t.Fatalf("dev: %v", err)
	}
}

func get(t *testing.T, url, token string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// exports reads `export A=1 B=2` into a map.
func exports(line string) map[string]string {
	vars := map[string]string{}
	for _, f := range strings.Fields(strings.TrimPrefix(line, "export ")) {
		if k, v, ok := strings.Cut(f, "="); ok {
			vars[k] = v
		}
	}
	return vars
}

func TestDevServesASeededClusterAndKeepsIt(t *testing.T) {
	if _, err := localpg.FindBinaries(); errors.Is(err, localpg.ErrNoBinaries) {
		t.Skip("dev needs PostgreSQL's server binaries, which this machine lacks")
	}
	// Not t.TempDir: as root, postgres runs as another user, who cannot enter it.
	parent, err := os.MkdirTemp("", "primegames-dev-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "dev")

	d := startDev(t, dir)
	api := exports(d.until(t, "export API="))["API"]
	devSignIn(t, d.until(t, "Teacher sign-in"), api)
	class := exports(d.until(t, "export CLASS="))
	students := exports(d.until(t, "export ADA="))
	games := exports(d.until(t, "export CLIMB_GAME="))
	if len(students) != 4 || games["CLIMB_GAME"] == "" || games["PRIMED_GAME"] == "" {
		t.Fatalf("demo students %v, games %v", students, games)
	}
	if code := get(t, api+"/v1/classrooms/"+class["CLASS"], class["TEACHER"]); code != http.StatusOK {
		t.Errorf("the demo classroom with the printed teacher token = %d", code)
	}
	if code := get(t, api+"/v1/games/"+games["CLIMB_GAME"]+"/legal-actions", students["ADA"]); code != http.StatusOK {
		t.Errorf("Ada's legal actions in the demo Prime Climb game = %d", code)
	}
	if code := get(t, api+"/v1/games/"+games["PRIMED_GAME"], students["DEE"]); code != http.StatusOK {
		t.Errorf("Dee's view of the demo Primed game = %d", code)
	}
	pidFile := filepath.Join(dir, "data", "postmaster.pid")
	if _, err := os.Stat(pidFile); err != nil {
		t.Fatalf("postgres runs without %s: %v", pidFile, err)
	}
	d.stop(t)
	if _, err := os.Stat(pidFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after dev stopped, %s is still there (%v): postgres still runs", pidFile, err)
	}

	// The second start finds the data and prints the same demo instead of seeding another.
	d = startDev(t, dir)
	api = exports(d.until(t, "export API="))["API"]
	devSignIn(t, d.until(t, "Teacher sign-in"), api) // a provider again, on this start's port
	if again := exports(d.until(t, "export CLASS=")); again["CLASS"] != class["CLASS"] || again["TEACHER"] != class["TEACHER"] {
		t.Errorf("second start printed classroom %v, want the first one's %v", again, class)
	}
	if code := get(t, api+"/v1/classrooms/"+class["CLASS"], class["TEACHER"]); code != http.StatusOK {
		t.Errorf("the demo classroom after a restart = %d", code)
	}
	d.stop(t)
}

// devSignIn does what dev's sign-in line says (curl -sL on the login: through the development
// provider and back) and checks the account token it answers with GET /v1/me.
func devSignIn(t *testing.T, line, api string) {
	t.Helper()
	login := ""
	for _, f := range strings.Fields(line) {
		if strings.HasPrefix(f, api+"/v1/auth/oidc/login") {
			login = f
		}
	}
	if login == "" || !strings.Contains(line, "curl -sL") {
		t.Fatalf("the sign-in line names no curl of %s/v1/auth/oidc/login: %q", api, line)
	}
	resp, err := http.Get(login) // follows the provider's redirects, as curl -L does
	if err != nil {
		t.Fatal(err)
	}
	var signed struct {
		Account struct{ Name string }
		Token   string
	}
	err = json.NewDecoder(resp.Body).Decode(&signed)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(signed.Token, "pga_") || signed.Account.Name != devTeacher {
		t.Fatalf("dev sign-in = %d %+v %v", resp.StatusCode, signed, err)
	}
	if code := get(t, api+"/v1/me", signed.Token); code != http.StatusOK {
		t.Fatalf("/v1/me with the dev sign-in's token = %d", code)
	}
}
