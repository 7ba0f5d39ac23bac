package api_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/domain/games"
	"primegames/domain/games/gametest/tinygame"
)

var reviewLabels = []client.ReviewLabel{"best", "good", "inaccuracy", "mistake", "blunder"}

// takeOne is the tiny game's best first action from a pile of 7: it leaves 6, a multiple of 3.
const takeOne, takeTwo = `{"type":"take","count":1}`, `{"type":"take","count":2}`

// A classroom's tiny game: the seat to act gets the expert's action, the same each time it asks,
// and nobody else gets one; a blunder played shows in the teacher's review during play; the game
// is played out by following hints; the review is then everyone's, and the class statistics count
// the hints and the review's figures, in JSON and CSV.
func TestHintsAndReviewOfAClassroomGame(t *testing.T) {
	t.Parallel()
	s, db, kinds := startHostingOver(t, tinygame.Kind)
	tg := &tinyTable{t: t, s: s}
	class := newClassroomOn(t, s, "Hinted class", "Ada", "Ben")
	teacher := bearer(class.teacher)
	var created client.ClassroomGames
	tg.expect(s.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "tiny", "group_size": 2, "options": map[string]any{"pile": 7}}, teacher...),
		http.StatusCreated, &created)
	game := created.Games[0]
	path := "/v1/games/" + game.Id.String()
	tokenOf := map[int]string{}
	studentOf := map[int]string{}
	for _, seat := range game.Seats {
		for _, st := range class.students {
			if st.id == seat.StudentId.String() {
				tokenOf[seat.Seat], studentOf[seat.Seat] = st.token, st.id
			}
		}
	}
	first := game.Turn.ToAct[0]

	refused := func(resp *apitest.Response, status int, code string) {
		t.Helper()
		if p := resp.Problem(t); resp.StatusCode != status || p.Code != code {
			t.Errorf("%s: %d %s, want %d %s", resp.Request.URL.Path, resp.StatusCode, p.Code, status, code)
		}
	}
	refused(s.Get(path+"/hint", bearer(tokenOf[1-first])...), http.StatusConflict, "not_your_turn")
	refused(s.Get(path+"/hint", teacher...), http.StatusForbidden, "forbidden")
	refused(s.Get(path+"/hint"), http.StatusNotFound, "game_not_found")

	var hint, again client.Hint
	tg.expect(s.Get(path+"/hint", bearer(tokenOf[first])...), http.StatusOK, &hint)
	tg.expect(s.Get(path+"/hint", bearer(tokenOf[first])...), http.StatusOK, &again)
	if !jsonEqual(hint.Action, []byte(takeOne)) || hint.Seat != first || hint.Seq != 1 || hint.Version != game.Version || hint.Explanation == "" {
		t.Errorf("hint from a pile of 7 = %+v, want take 1 at seq 1, version %d", hint, game.Version)
	}
	if !jsonEqual(hint.Action, again.Action) || hint.Explanation != again.Explanation || hint.Seq != again.Seq {
		t.Errorf("the same position gave two hints: %+v and %+v", hint, again)
	}

	// The first player blunders: taking 2 leaves 5, from which the other wins.
	var result client.ActionResult
	tg.expect(s.Post(path+"/actions", json.RawMessage(takeTwo), bearer(tokenOf[first])...), http.StatusCreated, &result)
	refused(s.Get(path+"/review", bearer(tokenOf[first])...), http.StatusForbidden, "forbidden")
	var during client.Review
	tg.expect(s.Get(path+"/review", teacher...), http.StatusOK, &during)
	if during.Final || len(during.Entries) != 1 {
		t.Fatalf("review during play = %+v, want one entry, not final", during)
	}
	if e := during.Entries[0]; e.Seq != 1 || e.Seat != first || e.Label != "blunder" || e.Loss != 1 || !jsonEqual(e.Best, []byte(takeOne)) || !jsonEqual(e.Played, []byte(takeTwo)) {
		t.Errorf("the blunder is reviewed as %+v", e)
	}

	// Both follow the hints to the end.
	hints := map[int]int{first: 1}
	for game = result.Game; game.Status == "active"; game = result.Game {
		seat := game.Turn.ToAct[0]
		tg.expect(s.Get(path+"/hint", bearer(tokenOf[seat])...), http.StatusOK, &hint)
		hints[seat]++
		tg.expect(s.Post(path+"/actions", hint.Action, bearer(tokenOf[seat])...), http.StatusCreated, &result)
	}
	if game.Winners[0] != 1-first {
		t.Errorf("winners %v: the hints should have won it for seat %d after the blunder", game.Winners, 1-first)
	}
	refused(s.Get(path+"/hint", bearer(tokenOf[first])...), http.StatusConflict, "game_over")

	var final client.Review
	tg.expect(s.Get(path+"/review", bearer(tokenOf[first])...), http.StatusOK, &final)
	actions := int(result.Entry.Seq)
	if !final.Final || len(final.Entries) != actions || len(final.Seats) != 2 {
		t.Fatalf("final review: final %v, %d entries for %d actions, %d seats", final.Final, len(final.Entries), actions, len(final.Seats))
	}
	for _, summary := range final.Seats {
		want := map[string]int{"best": summary.Judged}
		if summary.Seat == first {
			want = map[string]int{"best": summary.Judged - 1, "blunder": 1}
		}
		if !equalCounts(summary.Labels, want) || summary.HintsUsed != hints[summary.Seat] || summary.Forced != 0 || summary.Accuracy == nil {
			t.Errorf("seat %d summary %+v, want labels %v and %d hints", summary.Seat, summary, want, hints[summary.Seat])
		}
	}

	var stats client.ClassroomStats
	tg.expect(s.Get("/v1/classrooms/"+class.id+"/stats", teacher...), http.StatusOK, &stats)
	if stats.ReviewsPending != 1 || stats.Class.JudgedActions != 0 {
		t.Errorf("before the worker's review: %d pending, %d judged; want 1, 0", stats.ReviewsPending, stats.Class.JudgedActions)
	}
	if n := reviewQueued(t, db, kinds); n != 1 {
		t.Fatalf("the worker reviewed %d games, want 1", n)
	}
	tg.expect(s.Get("/v1/classrooms/"+class.id+"/stats", teacher...), http.StatusOK, &stats)
	for _, st := range stats.Students {
		seat := slices.IndexFunc(final.Seats, func(r client.ReviewSummary) bool { return studentOf[r.Seat] == st.StudentId.String() })
		summary := final.Seats[seat]
		tiny := st.Games["tiny"].Review
		if st.HintsUsed != summary.HintsUsed || st.JudgedActions != summary.Judged || *st.Accuracy != *summary.Accuracy ||
			tiny.Judged != summary.Judged || !equalCounts(tiny.Labels, summary.Labels) {
			t.Errorf("%s's stats: hints %d, judged %d, accuracy %v, tiny review %+v; their seat's review %+v",
				st.Name, st.HintsUsed, st.JudgedActions, *st.Accuracy, tiny, summary)
		}
	}
	if stats.Class.HintsUsed != hints[0]+hints[1] || stats.Class.JudgedActions != actions || stats.ReviewsPending != 0 {
		t.Errorf("class: %d hints, %d judged, %d pending; want %d, %d, 0", stats.Class.HintsUsed, stats.Class.JudgedActions, stats.ReviewsPending, hints[0]+hints[1], actions)
	}
	resp := s.Get("/v1/classrooms/"+class.id+"/stats", append(teacher, "Accept", "text/csv")...)
	rows, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range [][]string{
		{"", "(class)", "hints_used", fmt.Sprint(hints[0] + hints[1])},
		{"", "(class)", "tiny.review.labels.blunder", "1"},
		{"", "(class)", "judged_actions", fmt.Sprint(actions)},
	} {
		if !containsRow(rows, want) {
			t.Errorf("stats CSV has no row %v:\n%s", want, resp.Body)
		}
	}
}

// A public game's review is nobody's during play, everyone's once it is over, made once and kept:
// two first requests at once get the same review, and later ones the same bytes.
func TestAFinishedGamesReviewIsPublicAndKept(t *testing.T) {
	t.Parallel()
	s := startHosting(t, tinygame.Kind)
	tg := &tinyTable{t: t, s: s}
	var created client.CreatedGame
	tg.expect(s.Post("/v1/games", map[string]any{"game": "tiny", "options": map[string]any{"pile": 4},
		"players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}}), http.StatusCreated, &created)
	path := "/v1/games/" + created.Game.Id.String()
	for _, token := range []string{"", created.Seats[0].Token, created.CreatorToken} {
		if resp := s.Get(path+"/review", auth(token)...); resp.StatusCode != http.StatusForbidden || resp.Problem(t).Code != "forbidden" {
			t.Errorf("review during play with token %q: %d %s", token, resp.StatusCode, resp.Body)
		}
	}
	game := created.Game
	for game.Status == "active" {
		seat := game.Turn.ToAct[0]
		var result client.ActionResult
		tg.expect(s.Post(path+"/actions", json.RawMessage(takeOne), bearer(created.Seats[seat].Token)...), http.StatusCreated, &result)
		game = result.Game
	}

	bodies := make([][]byte, 2)
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if resp := s.Get(path + "/review"); resp.StatusCode == http.StatusOK {
				bodies[i] = resp.Body
			}
		}()
	}
	wg.Wait()
	later := s.Get(path + "/review")
	if bodies[0] == nil || !bytes.Equal(bodies[0], bodies[1]) || !bytes.Equal(bodies[0], later.Body) {
		t.Fatalf("the kept review changed:\n%s\n%s\n%s", bodies[0], bodies[1], later.Body)
	}
	var review client.Review
	later.JSON(t, &review)
	if !review.Final || len(review.Entries) != 4 {
		t.Errorf("review of four takes of one: %s", later.Body)
	}
	// From a pile of 2, taking 1 gave the win away: the review names the win missed.
	for _, e := range review.Entries {
		if e.Seq == 3 && (e.Label != "blunder" || len(e.Missed) != 1 || e.Missed[0].Kind != "win" || !jsonEqual(e.Missed[0].Action, []byte(takeTwo))) {
			t.Errorf("taking 1 of 2 reviewed as %+v", e)
		}
	}
}

// A kind without an advisor offers neither hints nor review, and says so.
func TestAKindWithoutAnAdvisorOffersNoHintsNorReview(t *testing.T) {
	t.Parallel()
	unadvised := tinygame.Kind
	unadvised.Advisor = nil
	s := startHosting(t, unadvised)
	tg := &tinyTable{t: t, s: s}
	var created client.CreatedGame
	tg.expect(s.Post("/v1/games", map[string]any{"game": "tiny", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}}),
		http.StatusCreated, &created)
	path := "/v1/games/" + created.Game.Id.String()
	resp := s.Get(path+"/hint", bearer(created.Seats[created.Game.Turn.ToAct[0]].Token)...)
	if p := resp.Problem(t); resp.StatusCode != http.StatusNotFound || p.Code != "hints_unavailable" {
		t.Errorf("hint: %d %s", resp.StatusCode, p.Code)
	}
	tg.expect(s.Post(path+"/abort", nil, bearer(created.CreatorToken)...), http.StatusOK, nil)
	resp = s.Get(path + "/review")
	if p := resp.Problem(t); resp.StatusCode != http.StatusNotFound || p.Code != "review_unavailable" {
		t.Errorf("review: %d %s", resp.StatusCode, p.Code)
	}
}

// Every kind with an advisor, the service's own once they have one: a game played with random
// legal actions (aborted after 40 if it has not ended) is reviewed action by action, with labels
// from the set, losses of at least 0 and best actions that were legal where they are offered; a
// hint is one of the seat's legal actions and the same when asked again.
func TestEveryAdvisedKindReviewsARandomGame(t *testing.T) {
	t.Parallel()
	s := startHosting(t, tinygame.Kind)
	kinds, err := games.All().With(tinygame.Kind)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range kinds.Kinds() {
		if kind.Advisor == nil {
			continue
		}
		t.Run(kind.Name(), func(t *testing.T) {
			tg := &tinyTable{t: t, s: s}
			var created client.CreatedGame
			tg.expect(s.Post("/v1/games", map[string]any{"game": kind.Name(), "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}}),
				http.StatusCreated, &created)
			path := "/v1/games/" + created.Game.Id.String()
			rng := rand.New(rand.NewPCG(13, 13))
			legalAt := map[int64][]json.RawMessage{} // by the seq the action made
			played := map[int64]json.RawMessage{}
			game := created.Game
			for n := 0; n < 40 && game.Status == "active"; n++ {
				seat := game.Turn.ToAct[0]
				token := bearer(created.Seats[seat].Token)
				var legal client.LegalActions
				tg.expect(s.Get(path+"/legal-actions", token...), http.StatusOK, &legal)
				var entries []struct{ Action json.RawMessage }
				if err := json.Unmarshal(legal.Actions, &entries); err != nil || len(entries) == 0 {
					t.Fatalf("legal actions %s: %v", legal.Actions, err)
				}
				actions := make([]json.RawMessage, len(entries))
				for i, e := range entries {
					actions[i] = e.Action
				}
				move := actions[rng.IntN(len(actions))]
				if n < 2 {
					var hint, again client.Hint
					tg.expect(s.Get(path+"/hint", token...), http.StatusOK, &hint)
					tg.expect(s.Get(path+"/hint", token...), http.StatusOK, &again)
					if !jsonEqual(hint.Action, again.Action) || !sameTypeAsOneOf(actions, hint.Action) {
						t.Errorf("hint %s, then %s, among %s", hint.Action, again.Action, legal.Actions)
					}
					if !containsJSON(actions, hint.Action) {
						move = hint.Action // a complete move legal-actions does not list (keepers among the dice): posted, it must be accepted
					}
				}
				var result client.ActionResult
				tg.expect(s.Post(path+"/actions", move, token...), http.StatusCreated, &result)
				legalAt[result.Entry.Seq], played[result.Entry.Seq] = actions, result.Entry.Action
				game = result.Game
			}
			if game.Status == "active" {
				tg.expect(s.Post(path+"/abort", nil, bearer(created.CreatorToken)...), http.StatusOK, nil)
			}
			var review client.Review
			tg.expect(s.Get(path+"/review"), http.StatusOK, &review)
			judged := 0
			for _, e := range review.Entries {
				if !slices.Contains(reviewLabels, e.Label) || e.Loss < 0 || !sameTypeAsOneOf(legalAt[e.Seq], e.Best) || !jsonEqual(e.Played, played[e.Seq]) {
					t.Errorf("entry %d: label %s, loss %v, best %s among %s, played %s (posted %s)", e.Seq, e.Label, e.Loss, e.Best, legalAt[e.Seq], e.Played, played[e.Seq])
				}
				if (e.Loss == 0) != (e.Label == "best") {
					t.Errorf("entry %d: loss %v labelled %s", e.Seq, e.Loss, e.Label)
				}
				judged++
			}
			forced := 0
			for _, summary := range review.Seats {
				forced += summary.Forced
			}
			if judged+forced != len(played) || !review.Final {
				t.Errorf("%d judged and %d forced of %d actions; final %v", judged, forced, len(played), review.Final)
			}
		})
	}
}

// The service's own kinds judge play: computer players, hints and review need it. (This fails
// until the Prime Climb and Primed advisors are merged.)
func TestEveryHostedKindHasAnAdvisor(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"prime-climb", "primed"} {
		if kind, ok := games.All().Lookup(name); !ok || kind.Advisor == nil {
			t.Errorf("%s has no advisor", name)
		}
	}
}

// sameTypeAsOneOf reports whether v is one of list, or an action of the same type as one of them:
// an advisor's move may be a complete move legal-actions does not list (a Prime Climb move with
// keeper steps among the dice), which is legal all the same.
func sameTypeAsOneOf(list []json.RawMessage, v json.RawMessage) bool {
	if containsJSON(list, v) {
		return true
	}
	typeOf := func(a json.RawMessage) string {
		var typed struct{ Type string }
		_ = json.Unmarshal(a, &typed)
		return typed.Type
	}
	return slices.ContainsFunc(list, func(e json.RawMessage) bool { return typeOf(e) != "" && typeOf(e) == typeOf(v) })
}

func containsJSON(list []json.RawMessage, v json.RawMessage) bool {
	return slices.ContainsFunc(list, func(e json.RawMessage) bool { return jsonEqual(e, v) })
}

func equalCounts(got, want map[string]int) bool {
	for k, n := range want {
		if n == 0 {
			delete(want, k)
		}
	}
	if len(got) != len(want) {
		return false
	}
	for k, n := range want {
		if got[k] != n {
			return false
		}
	}
	return true
}

// The class statistics make no review: with twelve finished games the worker has not reviewed,
// every request counts twelve pending and nothing judged; the worker's reviews, one game a pass,
// then join the statistics.
func TestClassStatisticsReadOnlyTheWorkersReviews(t *testing.T) {
	t.Parallel()
	s, db, kinds := startHostingOver(t, tinygame.Kind)
	tg := &tinyTable{t: t, s: s}
	class := newClassroomOn(t, s, "Busy class", "Ada", "Ben")
	teacher := bearer(class.teacher)
	tokens := map[string]string{}
	for _, st := range class.students {
		tokens[st.id] = st.token
	}
	const finished = 12
	for range finished {
		var created client.ClassroomGames
		tg.expect(s.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "tiny", "group_size": 2, "options": map[string]any{"pile": 1}}, teacher...),
			http.StatusCreated, &created)
		game := created.Games[0]
		mover := tokens[game.Seats[game.Turn.ToAct[0]].StudentId.String()]
		tg.expect(s.Post("/v1/games/"+game.Id.String()+"/actions", json.RawMessage(takeOne), bearer(mover)...), http.StatusCreated, nil)
	}
	worker := newServiceOn(db, kinds, nil)
	for _, want := range []struct{ reviews, pending, judged int }{{0, finished, 0}, {0, finished, 0}, {5, finished - 5, 5}, {finished - 5, 0, finished}} {
		for range want.reviews {
			if acted, err := worker.ReviewQueuedGame(context.Background()); !acted || err != nil {
				t.Fatalf("the worker's review: acted %v, %v", acted, err)
			}
		}
		var stats client.ClassroomStats
		tg.expect(s.Get("/v1/classrooms/"+class.id+"/stats", teacher...), http.StatusOK, &stats)
		if stats.ReviewsPending != want.pending || stats.Class.JudgedActions != want.judged {
			t.Errorf("after %d more reviews: %d pending, %d judged; want %d and %d", want.reviews, stats.ReviewsPending, stats.Class.JudgedActions, want.pending, want.judged)
		}
	}
	if acted, err := worker.ReviewQueuedGame(context.Background()); acted || err != nil {
		t.Errorf("the worker found a review to make after the last: %v, %v", acted, err)
	}
}
