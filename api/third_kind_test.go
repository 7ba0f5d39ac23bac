package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/contract"
	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/games/gametest/tinygame"
	"primegames/domain/players"
	"primegames/repo"
	"primegames/repo/repotest"
)

// A kind of game is one package plus one registry entry: the tiny game of a test package, added to
// the catalogue, is played over HTTP from creation to statistics, and every response is checked
// against openapi.yaml merged with the tiny game's own schemas.
func TestAThirdKindOfGameNeedsOnlyItsPackageAndARegistryEntry(t *testing.T) {
	t.Parallel()
	s, db, kinds := startHostingOver(t, tinygame.Kind)
	tg := &tinyTable{t: t, s: s}

	// A class of two, and the teacher starts a tiny game for them.
	var class client.CreatedClassroom
	tg.expect(s.Post("/v1/classrooms", map[string]any{"name": "Tiny class"}), http.StatusCreated, &class)
	teacher := bearer(class.TeacherToken)
	tokens := map[string]string{} // student id → token
	for _, name := range []string{"Ada", "Ben"} {
		var joined client.JoinedClassroom
		tg.expect(s.Post("/v1/classrooms/join", map[string]any{"join_code": class.Classroom.JoinCode, "name": name}), http.StatusCreated, &joined)
		tokens[joined.Student.Id.String()] = joined.Token
	}
	var created client.ClassroomGames
	tg.expect(s.Post("/v1/classrooms/"+class.Classroom.Id.String()+"/games",
		map[string]any{"game": "tiny", "group_size": 2, "options": map[string]any{"pile": 6}}, teacher...), http.StatusCreated, &created)
	// The options every kind shares (bot_delay_ms, hints) come with it, in the contract and in views.
	if len(created.Games) != 1 || created.Games[0].Game != "tiny" || string(created.Games[0].Options) != `{"bot_delay_ms":800,"hints":true,"pile":6}` {
		t.Fatalf("created %+v", created.Games)
	}
	game := created.Games[0]
	path := "/v1/games/" + game.Id.String()
	seatToken := func(seat int) string { return tokens[game.Seats[seat].StudentId.String()] }

	// Acting out of turn is refused; then the driver every kind shares plays it out with the legal
	// actions. The views after each step are kept for the replay.
	first := game.Turn.ToAct[0]
	resp := s.Post(path+"/actions", map[string]any{"type": "take", "count": 1}, bearer(seatToken(1-first))...)
	if p := resp.Problem(t); resp.StatusCode != http.StatusConflict || p.Code != "not_your_turn" {
		t.Fatalf("acting out of turn: %d %s", resp.StatusCode, p.Code)
	}
	views := []json.RawMessage{game.State}
	kit := tinyKit(t, 6)
	kit.actorView = func(_ *playthrough, _ int, _ json.RawMessage, _ client.HistoryEntry, g client.Game, _ json.RawMessage) {
		views = append(views, g.State)
	}
	tb := tableOf(t, s, db, kinds, game, []string{seatToken(0), seatToken(1)}, 40)
	tb.public = class.TeacherToken
	game = playToEnd(t, tb, kit)
	if game.Status != "finished" || len(game.Winners) != 1 {
		t.Fatalf("game ended %s, winners %v", game.Status, game.Winners)
	}

	// The history holds the start and every action; each step replays to the view the game had then.
	var history client.HistoryPage
	tg.expect(s.Get(path+"/actions", teacher...), http.StatusOK, &history)
	if len(history.Items) != len(views) || !strings.Contains(string(history.Items[0].Outcome), `"type":"start"`) {
		t.Fatalf("history has %d entries for %d views, the first %s", len(history.Items), len(views), history.Items[0].Outcome)
	}
	for seq, want := range views {
		var step client.ReplayStep
		tg.expect(s.Get(fmt.Sprintf("%s/states/%d", path, seq), teacher...), http.StatusOK, &step)
		if !bytes.Equal(step.State, want) {
			t.Errorf("state %d replays to %s, the game showed %s", seq, step.State, want)
		}
	}
	tg.expect(s.Get(path+"/scores", teacher...), http.StatusOK, nil)
	if resp := s.Get("/v1/boards/tiny"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("board of a kind without one: %d", resp.StatusCode)
	}

	// The class's statistics count the tiny game's takes with its tally and average them with its
	// measures, beside the service's own kinds.
	var stats client.ClassroomStats
	tg.expect(s.Get("/v1/classrooms/"+class.Classroom.Id.String()+"/stats", teacher...), http.StatusOK, &stats)
	tiny, takes := stats.Class.Games["tiny"], len(views)-1
	if tiny.Counts["takes"] != takes || tiny.Counts["taken"] != 6 || tiny.Measures["average_take"] != 6/float64(takes) {
		t.Errorf("class stats of tiny = %+v after %d takes of 6", tiny, takes)
	}
	if _, ok := stats.Class.Games["primed"]; !ok || len(stats.Class.Games) != 3 {
		t.Errorf("class stats name %d kinds, want all three", len(stats.Class.Games))
	}
	resp = s.Get("/v1/classrooms/"+class.Classroom.Id.String()+"/stats", append(teacher, "Accept", "text/csv")...)
	rows, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "(class)", "tiny.takes", fmt.Sprint(takes)}
	if !containsRow(rows, want) {
		t.Errorf("stats CSV has no row %v:\n%s", want, resp.Body)
	}
}

// tinyKit plays the tiny game with uniform picks and reads its scores on their own: the counters
// taken add up to the pile, and the one winner took the last of them.
func tinyKit(t *testing.T, pile int) kindKit {
	return kindKit{
		maxActions: 2 * pile,
		player:     players.Random,
		closed:     `{"type":"take","count":1}`,
		finished: func(p *playthrough, g client.Game, scoresRaw json.RawMessage, entries []client.HistoryEntry) {
			var scores []struct {
				Seat   int  `json:"seat"`
				Taken  int  `json:"taken"`
				Winner bool `json:"winner"`
			}
			if err := json.Unmarshal(scoresRaw, &scores); err != nil {
				t.Fatalf("scores: %v: %s", err, scoresRaw)
			}
			taken := 0
			for i, sc := range scores {
				taken += sc.Taken
				if sc.Seat != i || sc.Winner != slices.Contains(g.Winners, i) {
					t.Errorf("scores[%d] = %+v, winners %v", i, sc, g.Winners)
				}
			}
			var last struct {
				Seat int `json:"seat"`
				Pile int `json:"pile"`
			}
			if err := json.Unmarshal(entries[len(entries)-1].Outcome, &last); err != nil {
				t.Fatal(err)
			}
			if taken != pile || len(g.Winners) != 1 || last.Pile != 0 || last.Seat != g.Winners[0] {
				t.Errorf("%d of %d counters taken, winners %v; the last take %s", taken, pile, g.Winners, entries[len(entries)-1].Outcome)
			}
		},
	}
}

// startHosting starts a server over a fresh database that hosts the service's kinds and more, and
// checks every answer against openapi.yaml merged with their schemas.
func startHosting(t *testing.T, more ...domain.GameKind) *apitest.Server {
	t.Helper()
	s, _, _ := startHostingOver(t, more...)
	return s
}

// startHostingOver is startHosting that also returns its database and the kinds it hosts.
func startHostingOver(t *testing.T, more ...domain.GameKind) (*apitest.Server, *repo.DB, *domain.Catalogue) {
	t.Helper()
	kinds, err := games.All().With(more...)
	if err != nil {
		t.Fatal(err)
	}
	db := repotest.NewDB(t)
	srv, err := newAPIHosting(kinds, testConfig(), db, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	merged, err := contract.ForKinds(kinds.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	contract, err := apitest.NewContract(merged)
	if err != nil {
		t.Fatalf("openapi.yaml with the added kinds: %v", err)
	}
	return apitest.StartWith(t, srv, contract), db, kinds
}

type tinyTable struct {
	t *testing.T
	s *apitest.Server
}

func (tg *tinyTable) expect(resp *apitest.Response, status int, into any) {
	tg.t.Helper()
	if resp.StatusCode != status {
		tg.t.Fatalf("%s %s: %d, want %d\n%s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, status, resp.Body)
	}
	if into != nil {
		resp.JSON(tg.t, into)
	}
}

func containsRow(rows [][]string, want []string) bool {
	for _, row := range rows {
		if strings.Join(row, ",") == strings.Join(want, ",") {
			return true
		}
	}
	return false
}
