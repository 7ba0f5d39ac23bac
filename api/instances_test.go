package api_test

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// twoInstances is the rig the sign-in and LTI tests share: two instances of the service over one
// database (a flow begun on one is finished on the other), reading one clock the test moves and
// writing one log it reads, a browser that follows no redirect (a test must see each) and the
// contract every answer browsed is checked against.
type twoInstances struct {
	t        *testing.T
	clock    *playclock.Clock
	a, b     *apitest.Server
	services []*play.Service // a's and b's
	db       *repo.DB        // theirs
	logs     *lockedBuffer
	browser  *http.Client
	contract *apitest.Contract
}

// newTwoInstances starts the two instances, configured by cfg, over a new database.
func newTwoInstances(t *testing.T, cfg api.Config) *twoInstances {
	t.Helper()
	r := &twoInstances{t: t, clock: playclock.New(time.Now()), logs: &lockedBuffer{},
		browser:  &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second},
		contract: apitest.LoadContract(t)}
	db := repotest.NewDB(t)
	r.db = db
	logger := slog.New(slog.NewJSONHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	for _, s := range []**apitest.Server{&r.a, &r.b} {
		service := newServiceOn(db, games.All(), r.clock)
		r.services = append(r.services, service)
		srv, err := api.New(cfg, api.Deps{Play: service, Database: db, Feed: db}, logger)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		*s = apitest.Start(t, srv)
	}
	return r
}

// browse sends req as the browser does (no redirect followed) and checks the answer against the
// contract.
func (r *twoInstances) browse(req *http.Request) (*http.Response, []byte) {
	r.t.Helper()
	resp, err := r.browser.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err := r.contract.Check(req, resp.StatusCode, resp.Header, body); err != nil {
		r.t.Errorf("%s %s against the contract: %v", req.Method, req.URL.Path, err)
	}
	return resp, body
}

// noErrorLines fails the test when the log holds an ERROR line: refusals are not errors.
func (r *twoInstances) noErrorLines() {
	r.t.Helper()
	noErrorLine(r.t, r.logs)
}

// noErrorLine fails t when logs hold an ERROR line.
func noErrorLine(t *testing.T, logs *lockedBuffer) {
	t.Helper()
	if n := strings.Count(logs.String(), `"level":"ERROR"`); n > 0 {
		t.Errorf("%d ERROR lines in the log:\n%s", n, logs.String())
	}
}
