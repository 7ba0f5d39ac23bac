package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"primegames.dev/client"
)

// What the teacher reviews once the classroom's games are over: the games lists with their filters
// and pagination, replay steps, refused attempts, and each student's own lists.

// listed reads the classroom's games with query, walking every page.
func (r *review) listed(query string) []client.GameSummary {
	r.t.Helper()
	var out []client.GameSummary
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 20 {
			r.t.Fatalf("list %q does not end", query)
		}
		q, err := url.ParseQuery(query)
		if err != nil {
			r.t.Fatal(err)
		}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page client.GameList
		r.get("/v1/classrooms/"+r.class.id+"/games?"+q.Encode(), &page)
		if limit, err := strconv.Atoi(q.Get("limit")); err == nil && len(page.Items) > limit {
			r.t.Errorf("list %q: a page of %d, more than the limit", query, len(page.Items))
		}
		out = append(out, page.Items...)
		if page.NextCursor == nil {
			return out
		}
		if len(page.Items) == 0 {
			r.t.Fatalf("list %q: an empty page with a next cursor", query)
		}
		cursor = *page.NextCursor
	}
}

// checkListed wants the list for query to hold exactly the games want (any order), and order to be
// its order when order is not nil.
func (r *review) checkListed(query string, want []client.Game, order []string) []client.GameSummary {
	r.t.Helper()
	got := r.listed(query)
	var gotIDs, wantIDs []string
	for _, g := range got {
		gotIDs = append(gotIDs, g.Id.String())
	}
	for _, g := range want {
		wantIDs = append(wantIDs, g.Id.String())
	}
	if order != nil && !slices.Equal(gotIDs, order) {
		r.t.Errorf("GET classroom games?%s = %v, want in this order %v", query, gotIDs, order)
	}
	slices.Sort(gotIDs)
	slices.Sort(wantIDs)
	if !slices.Equal(gotIDs, wantIDs) {
		r.t.Errorf("GET classroom games?%s = %v, want %v", query, gotIDs, wantIDs)
	}
	return got
}

func (r *review) checkLists(primed []client.Game, climb client.Game, final map[string]client.Game) {
	t := r.t
	t.Helper()
	all := append(slices.Clone(primed), climb)
	// Newest first: (created_at, id) descending.
	order := slices.Clone(all)
	slices.SortFunc(order, func(a, b client.Game) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.Id.String(), a.Id.String())
	})
	var newest []string
	for _, g := range order {
		newest = append(newest, g.Id.String())
	}
	if newest[0] != climb.Id.String() {
		t.Errorf("the Prime Climb game, created after the batch, is not the newest: %v", newest)
	}
	summaries := r.checkListed("", all, newest)
	for _, s := range summaries {
		f := final[s.Id.String()]
		var players []string
		for _, seat := range f.Seats {
			players = append(players, seat.Name)
		}
		if s.Game != f.Game || s.Status != "finished" || !slices.Equal(s.Players, players) || !slices.Equal(s.Winners, f.Winners) || !s.CreatedAt.Equal(f.CreatedAt) {
			t.Errorf("list summary %+v; the game is %s %s players %v winners %v created %v", s, f.Game, f.Status, players, f.Winners, f.CreatedAt)
		}
	}
	// One at a time and three at a time, the cursor gives each game once, newest first.
	r.checkListed("limit=1", all, newest)
	r.checkListed("limit=3", all, newest)
	// Filters.
	r.checkListed("game=primed", primed, nil)
	r.checkListed("game=prime-climb", []client.Game{climb}, nil)
	r.checkListed("status=finished", all, newest)
	r.checkListed("status=active", nil, nil)
	r.checkListed("game=primed&status=finished&limit=2", primed, nil)
	for _, n := range r.names {
		id := r.class.students[n].id
		var theirs []client.Game
		for _, g := range all {
			if slices.Contains(r.seatIDs[g.Id.String()], id) {
				theirs = append(theirs, g)
			}
		}
		r.checkListed("student="+id, theirs, nil)
	}
	// Date range: from is inclusive, to exclusive.
	at := func(tm time.Time) string { return tm.UTC().Format(time.RFC3339Nano) }
	batchAt := primed[0].CreatedAt
	for _, g := range primed {
		if g.CreatedAt.Before(batchAt) {
			batchAt = g.CreatedAt
		}
	}
	r.checkListed(url.Values{"from": {at(climb.CreatedAt)}}.Encode(), []client.Game{climb}, nil)
	india := time.FixedZone("+05:30", 5*3600+1800) // the same instants written with an offset
	r.checkListed(url.Values{"from": {climb.CreatedAt.In(india).Format(time.RFC3339Nano)}}.Encode(), []client.Game{climb}, nil)
	r.checkListed(url.Values{"to": {climb.CreatedAt.In(india).Format(time.RFC3339Nano)}}.Encode(), primed, nil)
	r.checkListed(url.Values{"to": {at(climb.CreatedAt)}}.Encode(), primed, nil)
	r.checkListed(url.Values{"from": {at(batchAt)}, "to": {at(climb.CreatedAt)}}.Encode(), primed, nil)
	r.checkListed(url.Values{"from": {at(batchAt.Add(-time.Hour))}, "to": {at(batchAt)}}.Encode(), nil, nil)
	r.checkListed(url.Values{"from": {at(climb.CreatedAt.Add(time.Hour))}}.Encode(), nil, nil)
	// The teacher's token on GET /v1/games lists the same games.
	var page client.GameList
	r.get("/v1/games", &page)
	var ids []string
	for _, s := range page.Items {
		ids = append(ids, s.Id.String())
	}
	if !slices.Equal(ids, newest) {
		t.Errorf("GET /v1/games as the teacher = %v, want %v", ids, newest)
	}
}

// checkReplay asks the state after each kept entry as the teacher: it must be what the teacher saw
// then. With hands, the step in the middle must show every hand.
func (r *review) checkReplay(id string, snaps []crSnapshot, hands bool) {
	t := r.t
	t.Helper()
	if len(snaps) == 0 {
		t.Fatalf("game %s: no snapshots kept", id)
	}
	mid := snaps[len(snaps)/2]
	var count int64
	for _, s := range []crSnapshot{snaps[0], mid, snaps[len(snaps)-1]} {
		var step struct {
			Seq      int64           `json:"seq"`
			SeqCount int64           `json:"seq_count"`
			State    json.RawMessage `json:"state"`
		}
		r.get(fmt.Sprintf("/v1/games/%s/states/%d", id, s.seq), &step)
		if step.Seq != s.seq || !jsonEqual(step.State, s.state) {
			t.Errorf("game %s: the teacher's replay of step %d differs from the view then:\nreplay: %s\nthen:   %s", id, s.seq, step.State, s.state)
		}
		count = step.SeqCount
	}
	if hands {
		var v client.PrimedView
		if err := json.Unmarshal(mid.state, &v); err != nil {
			t.Fatal(err)
		}
		for _, h := range v.Hands {
			if h.Cards == nil {
				t.Errorf("game %s step %d: the teacher's replay hides seat %d's hand", id, mid.seq, h.Seat)
			}
		}
	}
	// The whole history as the teacher reads it has seq_count entries, and the step past the end is 404.
	if resp := r.h.Get(fmt.Sprintf("/v1/games/%s/states/%d", id, count), r.teacher()...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET states/%d (past the end) = %d, want 404", count, resp.StatusCode)
	}
}

// checkAttempts compares a game's refused actions, as the teacher lists them, with those sent.
func (r *review) checkAttempts(id, token string) {
	t := r.t
	t.Helper()
	var list client.AttemptList
	resp := r.h.Get("/v1/games/"+id+"/attempts", bearer(token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET attempts of game %s = %d: %s", id, resp.StatusCode, resp.Body)
	}
	resp.JSON(t, &list)
	sent := r.refused[id]
	if len(list.Items) != len(sent) {
		t.Errorf("game %s: %d attempts listed, %d refused actions sent", id, len(list.Items), len(sent))
	}
	for i := range min(len(list.Items), len(sent)) {
		got, want := list.Items[i], sent[i]
		if got.Seat != want.seat || got.StudentId == nil || got.StudentId.String() != want.student || got.Version != want.version ||
			!jsonEqual(got.Action, want.action) || got.Code != want.code || got.Detail != want.detail ||
			got.Facts == nil || !jsonEqual(*got.Facts, want.facts) {
			t.Errorf("game %s attempt %d = %+v (student %v, facts %s), want seat %d student %s version %d action %s code %s detail %q facts %s",
				id, i, got, got.StudentId, got.Facts, want.seat, want.student, want.version, want.action, want.code, want.detail, want.facts)
		}
		if i > 0 && got.Id <= list.Items[i-1].Id {
			t.Errorf("game %s attempts are not oldest first: id %d after %d", id, got.Id, list.Items[i-1].Id)
		}
	}
}

// checkStudentLists: each student's token lists exactly their own games.
func (r *review) checkStudentLists(all []client.Game) {
	t := r.t
	t.Helper()
	for _, n := range r.names {
		st := r.class.students[n]
		var page client.GameList
		resp := r.h.Get("/v1/games", bearer(st.token)...)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /v1/games as %s = %d", n, resp.StatusCode)
		}
		resp.JSON(t, &page)
		var got, want []string
		for _, s := range page.Items {
			got = append(got, s.Id.String())
		}
		for _, g := range all {
			if slices.Contains(r.seatIDs[g.Id.String()], st.id) {
				want = append(want, g.Id.String())
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("GET /v1/games as %s = %v, want their games %v", n, got, want)
		}
	}
}
