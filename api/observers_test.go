package api_test

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/play/playclock"
	"primegames/repo/repotest"
)

// An observer token of a game outside classrooms, minted by a seat: it sees the game as a
// spectator (its event stream too), is named by GET /v1/me, acts on nothing, and stops working
// once another player revokes it.
func TestObserverTokenWatchesAndActsOnNothing(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	g := newPrimedGame(t, h)
	id := g.Game.Id.String()
	path := "/v1/games/" + id
	if resp := h.Post(path+"/observers", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("minting without a token = %d, want 401", resp.StatusCode)
	}
	if resp := h.Post(path+"/observers", nil, bearer(newPrimedGame(t, h).Seats[0].Token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("minting with another game's seat = %d, want 401", resp.StatusCode)
	}
	byCreator := mintObserver(t, h.Server, path+"/observers", g.CreatorToken)
	o := mintObserver(t, h.Server, path+"/observers?expires_in=3600", g.Seats[0].Token)
	if o.GameId == nil || *o.GameId != g.Game.Id || o.ExpiresAt == nil || byCreator.ExpiresAt != nil {
		t.Errorf("minted %+v and %+v, want this game's, the first expiring", o, byCreator)
	}
	watcher := bearer(o.Token)

	resp := h.Get(path, watcher...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the observer reads the game = %d: %s", resp.StatusCode, resp.Body)
	}
	if leaks := hiddenLeaks(-1, resp.Body); len(leaks) > 0 {
		t.Errorf("the observer sees hidden cards: %v", leaks)
	}
	stream := openEvStream(t, h.URL, path+"/events?access_token="+o.Token)
	stream.close()

	me := h.me(t, o.Token)
	if me.Kind != client.MeKindObserver || me.GameId == nil || *me.GameId != g.Game.Id || me.ExpiresAt == nil ||
		!slices.Equal(me.May, []client.MeMay{client.MeMayView}) {
		t.Errorf("GET /v1/me as the observer: %+v", me)
	}

	public := h.create(t, map[string]any{"game": "primed", "seats": 2, "public": true})
	for _, tc := range []struct{ method, path string }{
		{"POST", path + "/actions"}, {"GET", path + "/legal-actions"}, {"GET", path + "/hint"},
		{"POST", path + "/start"}, {"POST", path + "/abort"}, {"POST", path + "/leave"}, {"POST", path + "/resign"},
		{"POST", path + "/rematch"}, {"POST", path + "/observers"}, {"POST", "/v1/games"},
		{"GET", "/v1/me/games"},
	} {
		var body any
		switch tc.path {
		case path + "/actions":
			body = map[string]string{"type": "draw"}
		case "/v1/games":
			body = map[string]any{"game": "primed", "seats": 2}
		}
		if resp := h.Do(h.Request(tc.method, tc.path, body, watcher...)); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s %s as the observer = %d, want 403: %s", tc.method, tc.path, resp.StatusCode, resp.Body)
		}
	}
	// Another game's lobby does not know the token at all.
	join := "/v1/games/" + public.Game.Id.String() + "/players"
	if resp := h.Post(join, map[string]string{"name": "Eve"}, watcher...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the observer joins another game = %d, want 401: %s", resp.StatusCode, resp.Body)
	}

	// Another player revokes it; then it opens nothing, and it cannot be revoked twice.
	revoke := h.Request("DELETE", path+"/observers/"+o.Id.String(), nil, bearer(g.Seats[1].Token)...)
	if resp := h.Do(revoke); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := h.Get(path, watcher...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the revoked observer reads the game = %d, want 401", resp.StatusCode)
	}
	if resp := h.Get("/v1/me", watcher...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /v1/me with a revoked observer = %d, want 401", resp.StatusCode)
	}
	if resp := h.Do(h.Request("DELETE", path+"/observers/"+o.Id.String(), nil, bearer(g.Seats[1].Token)...)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a second revoke = %d, want 404", resp.StatusCode)
	}
	if resp := h.Get(path, bearer(byCreator.Token)...); resp.StatusCode != http.StatusOK {
		t.Errorf("the creator's observer after another was revoked = %d, want 200", resp.StatusCode)
	}
}

// An observer token stops working when it expires, by the service's clock.
func TestObserverTokenExpires(t *testing.T) {
	t.Parallel()
	clock := playclock.New(time.Now())
	srv, err := newAPIOn(testConfig(), repotest.NewDB(t), clock, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	s := apitest.Start(t, srv)
	g := createGame(t, s, map[string]any{"game": "primed", "players": names(2)})
	path := "/v1/games/" + g.Game.Id.String()
	o := mintObserver(t, s, path+"/observers?expires_in=60", g.Seats[0].Token)
	if resp := s.Get(path, bearer(o.Token)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("before it expires = %d", resp.StatusCode)
	}
	clock.Advance(61 * time.Second)
	if resp := s.Get(path, bearer(o.Token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("after it expired = %d, want 401", resp.StatusCode)
	}
}

// A game holds at most 20 observer tokens; revoking one makes room.
func TestObserverTokensAreBounded(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	g := newPrimedGame(t, h)
	path := "/v1/games/" + g.Game.Id.String() + "/observers"
	var first client.ObserverToken
	for i := range 20 {
		o := mintObserver(t, h.Server, path, g.CreatorToken)
		if i == 0 {
			first = o
		}
	}
	resp := h.Post(path, nil, bearer(g.CreatorToken)...)
	if resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "too_many_observers" {
		t.Fatalf("a 21st observer = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := h.Do(h.Request("DELETE", path+"/"+first.Id.String(), nil, bearer(g.CreatorToken)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d", resp.StatusCode)
	}
	mintObserver(t, h.Server, path, g.CreatorToken)
}

// A classroom's observer follows the classroom's games on its stream, as a spectator: the same
// entries as the teacher, without the hands or the random values the teacher sees.
func TestClassroomObserverFollowsTheClassroomStreamAsASpectator(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "5B", "Ada", "Bo")
	o := mintObserver(t, h.Server, "/v1/classrooms/"+class.id+"/observers", class.teacher)
	events := "/v1/classrooms/" + class.id + "/events"
	observed := openEvStream(t, h.URL, events+"?access_token="+o.Token)
	taught := openEvStream(t, h.URL, events+"?access_token="+class.teacher)
	resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
		{"student_id": class.students["Ada"].id}, {"student_id": class.students["Bo"].id}}}, bearer(class.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("a classroom game = %d: %s", resp.StatusCode, resp.Body)
	}
	seen, full := observed.next(t, evWait), taught.next(t, evWait)
	if seen.ID != full.ID || seen.Event != "action" {
		t.Fatalf("the observer's first event %q %q, the teacher's %q", seen.ID, seen.Event, full.ID)
	}
	if leaks := hiddenLeaks(-1, []byte(seen.Data)); len(leaks) > 0 {
		t.Errorf("the observer sees what is hidden: %v", leaks)
	}
	if leaks := hiddenLeaks(-1, []byte(full.Data)); len(leaks) == 0 {
		t.Error("the teacher's event shows nothing hidden: the check cannot tell")
	}
	observed.close()
	taught.close()
}
