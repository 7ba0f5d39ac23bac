package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"

	"github.com/google/uuid"
)

// This file holds the scripted client of the end-to-end game tests in play_test.go: it creates a
// game over HTTP, posts actions picked from GET /legal-actions and checks, after every accepted
// action, the response, the replay step (GET /states/{seq}) and the fold of the stored history (G-2).

// wirePage is the HistoryPage schema with its entries left raw, to compare them byte for byte
// with other ways of reading the history.
type wirePage struct {
	Items      []json.RawMessage `json:"items"`
	NextCursor *string           `json:"next_cursor"`
}

// table is one game being played by the scripted client.
type table struct {
	t      *testing.T
	s      *apitest.Server
	api    *client.ClientWithResponses
	db     *repo.DB
	kinds  *domain.Catalogue // the kinds the server hosts
	kind   string
	id     string
	tokens []string // by seat
	public string   // the token of a reader holding no seat: none for an open game, a classroom's teacher's
	rng    *rand.Rand

	version int64 // the game's version as last seen
	seq     int64 // the last history entry's seq
	game    client.Game
	posted  []json.RawMessage // posted[seq] is the action accepted as entry seq (nil for the start)
}

// versionTag is a response's ETag in its strong form: Go's client asks for gzip by itself, and a
// compressed body carries the weak form (W/"7" for "7").
func versionTag(h http.Header) string { return strings.TrimPrefix(h.Get("ETag"), "W/") }

func auth(token string) []string {
	if token == "" {
		return nil
	}
	return []string{"Authorization", "Bearer " + token}
}

// newTable creates a game of kind for the named players over HTTP; it starts at once.
func newTable(t *testing.T, s *apitest.Server, db *repo.DB, kind string, options any, players int, seed uint64) *table {
	t.Helper()
	req := map[string]any{"game": kind}
	if options != nil {
		req["options"] = options
	}
	names := make([]map[string]string, players)
	for i := range names {
		names[i] = map[string]string{"name": fmt.Sprintf("Bot %d", i)}
	}
	req["players"] = names
	body, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	api := s.Client()
	resp, err := api.CreateGameWithBodyWithResponse(context.Background(), nil, "application/json", bytes.NewReader(body))
	if err != nil || resp.JSON201 == nil {
		t.Fatalf("POST /v1/games = %d, want 201: %v %s", resp.StatusCode(), err, resp.Body)
	}
	created := resp.JSON201
	if got := resp.HTTPResponse.Header.Get("Location"); got != "/v1/games/"+created.Game.Id.String() {
		t.Errorf("Location = %q, want /v1/games/%s", got, created.Game.Id)
	}
	if len(created.Seats) != players {
		t.Fatalf("created game has %d seat tokens, want %d", len(created.Seats), players)
	}
	tokens := make([]string, players)
	for i, st := range created.Seats {
		if st.Seat != i || st.Token == "" {
			t.Fatalf("seat token %d = %+v", i, st)
		}
		tokens[i] = st.Token
	}
	return tableOf(t, s, db, games.All(), created.Game, tokens, seed)
}

// tableOf takes over a game that has just started however it was made (POST /v1/games, a classroom,
// a rematch), played by tokens (by seat) on a server hosting kinds over db.
func tableOf(t *testing.T, s *apitest.Server, db *repo.DB, kinds *domain.Catalogue, g client.Game, tokens []string, seed uint64) *table {
	t.Helper()
	tb := &table{t: t, s: s, api: s.Client(), db: db, kinds: kinds, kind: string(g.Game), id: g.Id.String(), tokens: tokens,
		rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), version: g.Version, game: g, posted: []json.RawMessage{nil}}
	if g.Status != "active" || g.Turn == nil || len(g.Turn.ToAct) != 1 {
		t.Fatalf("the game should be active with one seat to act: %+v", g)
	}
	tb.checkFold()
	return tb
}

func (tb *table) path(suffix string) string { return "/v1/games/" + tb.id + suffix }

// gameID is the game's id as the typed client takes it.
func (tb *table) gameID() client.GameID { return uuid.MustParse(tb.id) }

// get reads the game as token sees it.
func (tb *table) get(token string) client.Game {
	tb.t.Helper()
	resp, err := tb.api.GetGameWithResponse(context.Background(), tb.gameID(), nil, apitest.Bearer(token))
	if err != nil || resp.JSON200 == nil {
		tb.t.Fatalf("GET %s = %d: %v %s", tb.path(""), resp.StatusCode(), err, resp.Body)
	}
	g := *resp.JSON200
	if g.Version != tb.version {
		tb.t.Fatalf("GET %s: version %d, want %d", tb.path(""), g.Version, tb.version)
	}
	if etag := versionTag(resp.HTTPResponse.Header); etag != strconv.Quote(strconv.FormatInt(g.Version, 10)) {
		tb.t.Errorf("GET %s: ETag %q for version %d", tb.path(""), etag, g.Version)
	}
	return g
}

// legal lists the legal actions of seat; the list must be current.
func (tb *table) legal(seat int) []json.RawMessage {
	tb.t.Helper()
	resp, err := tb.api.GetLegalActionsWithResponse(context.Background(), tb.gameID(), apitest.Bearer(tb.tokens[seat]))
	if err != nil || resp.JSON200 == nil {
		tb.t.Fatalf("GET legal-actions (seat %d) = %d: %v %s", seat, resp.StatusCode(), err, resp.Body)
	}
	l := resp.JSON200
	var actions []json.RawMessage
	if err := json.Unmarshal(l.Actions, &actions); err != nil {
		tb.t.Fatalf("GET legal-actions: actions %s: %v", l.Actions, err)
	}
	if etag := versionTag(resp.HTTPResponse.Header); etag != strconv.Quote(strconv.FormatInt(l.Version, 10)) {
		tb.t.Errorf("GET legal-actions: ETag %q, version %d", etag, l.Version)
	}
	if l.Seat != seat || l.Version != tb.version {
		tb.t.Fatalf("GET legal-actions (seat %d): seat %d version %d, want version %d", seat, l.Seat, l.Version, tb.version)
	}
	tb.checkWhyNoActions(seat, l, actions)
	return actions
}

// checkWhyNoActions checks that a legal-actions answer says whose turn it is, and why a seat that may
// do nothing has nothing listed: the seats to act are those of the game's turn; a seat among them
// has actions and no reason; any other gets not_your_turn, or game_over once the game is finished.
func (tb *table) checkWhyNoActions(seat int, l *client.LegalActions, actions []json.RawMessage) {
	tb.t.Helper()
	var turn []int
	if tb.game.Turn != nil {
		turn = tb.game.Turn.ToAct
	}
	if !slices.Equal(l.ToAct, turn) && len(l.ToAct)+len(turn) > 0 {
		tb.t.Errorf("GET legal-actions (seat %d): to_act %v, the game's turn says %v", seat, l.ToAct, turn)
	}
	var want client.LegalActionsBaseReason
	switch {
	case tb.game.Status == "finished":
		want = client.LegalActionsBaseReasonGameOver
	case !slices.Contains(turn, seat):
		want = client.LegalActionsBaseReasonNotYourTurn
	}
	switch {
	case want == "" && (len(actions) == 0 || l.Reason != nil || l.Detail != nil):
		tb.t.Errorf("GET legal-actions (seat %d, to act): %d actions, reason %v, want actions and no reason", seat, len(actions), l.Reason)
	case want != "" && (len(actions) != 0 || l.Reason == nil || *l.Reason != want || l.Detail == nil || *l.Detail == ""):
		tb.t.Errorf("GET legal-actions (seat %d of %v to act, %s): %d actions, reason %v detail %v, want none, %s and a sentence",
			seat, turn, tb.game.Status, len(actions), l.Reason, l.Detail, want)
	}
}

// toAct is the one seat whose turn it is, from the last game body seen.
func (tb *table) toAct() int {
	tb.t.Helper()
	if tb.game.Turn == nil || len(tb.game.Turn.ToAct) != 1 {
		tb.t.Fatalf("after seq %d: want exactly one seat to act, game turn is %+v", tb.seq, tb.game.Turn)
	}
	return tb.game.Turn.ToAct[0]
}

// act posts one action of seat and checks the 201 response: the next seq, the version grown by one,
// the action recorded as sent, no random values while the game runs.
func (tb *table) act(seat int, action json.RawMessage) (client.HistoryEntry, client.Game) {
	tb.t.Helper()
	resp, err := tb.api.PostActionWithBodyWithResponse(context.Background(), tb.gameID(), nil, "application/json", bytes.NewReader(action), apitest.Bearer(tb.tokens[seat]))
	if err != nil || resp.JSON201 == nil {
		tb.t.Fatalf("after seq %d, seat %d: POST actions %s = %d, want 201: %v %s", tb.seq, seat, action, resp.StatusCode(), err, resp.Body)
	}
	e, g := resp.JSON201.Entry, resp.JSON201.Game
	if e.Seq != tb.seq+1 {
		tb.t.Fatalf("POST actions %s: entry.seq = %d, want %d", action, e.Seq, tb.seq+1)
	}
	if g.Version != tb.version+1 {
		tb.t.Fatalf("POST actions %s: game.version = %d, want %d", action, g.Version, tb.version+1)
	}
	if etag := versionTag(resp.HTTPResponse.Header); etag != strconv.Quote(strconv.FormatInt(g.Version, 10)) {
		tb.t.Errorf("POST actions: ETag %q, game.version %d", etag, g.Version)
	}
	if e.Seat == nil || *e.Seat != seat {
		tb.t.Errorf("POST actions: entry.seat = %v, want %d", e.Seat, seat)
	}
	if !jsonEqual(e.Action, action) {
		tb.t.Errorf("POST actions: entry.action = %s, want %s as sent", e.Action, action)
	}
	if g.You.Seat == nil || *g.You.Seat != seat {
		tb.t.Errorf("POST actions: game.you.seat = %v, want %d", g.You.Seat, seat)
	}
	if g.Status == "active" && e.Random != nil {
		tb.t.Errorf("POST actions: entry %d shows random values %v while the game runs (G-1)", e.Seq, *e.Random)
	}
	tb.seq, tb.version, tb.game = e.Seq, g.Version, g
	tb.posted = append(tb.posted, action)
	return e, g
}

// checkReplay compares the replay step of the last entry with the current game, both as token sees
// them (G-2). It returns the current view.
func (tb *table) checkReplay(token string) json.RawMessage {
	tb.t.Helper()
	g := tb.get(token)
	p := tb.path("/states/" + strconv.FormatInt(tb.seq, 10))
	step := tb.replayStep(token, tb.seq)
	if step.Seq != tb.seq || step.SeqCount != tb.seq+1 {
		tb.t.Errorf("GET %s: seq %d seq_count %d, want %d and %d", p, step.Seq, step.SeqCount, tb.seq, tb.seq+1)
	}
	if !jsonEqual(step.State, stateOf(g)) {
		tb.t.Fatalf("G-2: replay step %d differs from the game as seen with the same token:\nreplay: %s\ngame:   %s", tb.seq, step.State, stateOf(g))
	}
	return stateOf(g)
}

// stateAt is the replay step seq as token sees it.
func (tb *table) stateAt(token string, seq int64) json.RawMessage {
	tb.t.Helper()
	return tb.replayStep(token, seq).State
}

// replayStep is GET /states/{seq} as token sees it.
func (tb *table) replayStep(token string, seq int64) client.ReplayStep {
	tb.t.Helper()
	resp, err := tb.api.GetStateAtWithResponse(context.Background(), tb.gameID(), seq, apitest.Bearer(token))
	if err != nil || resp.JSON200 == nil {
		tb.t.Fatalf("GET %s = %d: %v %s", tb.path("/states/"+strconv.FormatInt(seq, 10)), resp.StatusCode(), err, resp.Body)
	}
	return *resp.JSON200
}

// checkFold loads the stored game and its whole history and checks that folding the history gives
// exactly the stored snapshot (G-2), and that the history holds every accepted action in order.
func (tb *table) checkFold() {
	tb.t.Helper()
	g, entries := checkStoredFoldOf(tb.t, tb.db, tb.kinds, tb.id)
	if g.Version != tb.version {
		tb.t.Fatalf("stored version %d, want %d", g.Version, tb.version)
	}
	if int64(len(entries)) != tb.seq+1 {
		tb.t.Fatalf("stored history has %d entries, want %d", len(entries), tb.seq+1)
	}
	if last := entries[len(entries)-1]; tb.seq > 0 && !jsonEqual(last.Action, tb.posted[tb.seq]) {
		tb.t.Errorf("stored entry %d action = %s, posted %s", tb.seq, last.Action, tb.posted[tb.seq])
	}
}

// checkFoldNowAndThen is checkFold after entries 1, 2, 4, 8, … and once the game is over: each
// check folds the whole history, so checking after every entry would make a game's test quadratic in
// its length, where these checks add up to about two folds of the whole game.
func (tb *table) checkFoldNowAndThen() {
	tb.t.Helper()
	if tb.seq&(tb.seq-1) == 0 || tb.game.Status != "active" {
		tb.checkFold()
	}
}

// checkStoredFold loads a stored game and its whole history, checks that the entries come once
// each in order and that folding them gives exactly the stored snapshot (G-2), and returns both.
func checkStoredFold(t *testing.T, db *repo.DB, id string) (*play.Game, []play.Entry) {
	t.Helper()
	return checkStoredFoldOf(t, db, games.All(), id)
}

// checkStoredFoldOf is checkStoredFold for a server hosting kinds.
func checkStoredFoldOf(t *testing.T, db *repo.DB, kinds *domain.Catalogue, id string) (*play.Game, []play.Entry) {
	t.Helper()
	ctx := context.Background()
	g, err := play.New(db.Games().Stores(), kinds).Load(ctx, id)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	entries, err := db.Games().Entries(ctx, id, -1, 1_000_000)
	if err != nil {
		t.Fatalf("Entries: %v", err)
	}
	for i, e := range entries {
		if e.Seq != int64(i) {
			t.Fatalf("stored entry %d has seq %d", i, e.Seq)
		}
	}
	folded, err := play.Fold(g, entries)
	if err != nil {
		t.Fatalf("G-2: fold of the stored history (%d entries): %v", len(entries), err)
	}
	stored, err := json.Marshal(g.State)
	if err != nil {
		t.Fatal(err)
	}
	replayed, err := json.Marshal(folded)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(stored, replayed) {
		t.Fatalf("G-2: after seq %d the stored snapshot differs from the fold of the stored history:\nstored: %s\nfolded: %s", len(entries)-1, stored, replayed)
	}
	return g, entries
}

// history reads the whole history as token sees it, page by page with limit.
func (tb *table) history(token string, limit int) []json.RawMessage {
	tb.t.Helper()
	var all []json.RawMessage
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 10_000 {
			tb.t.Fatal("history paging does not end")
		}
		q := url.Values{"limit": {strconv.Itoa(limit)}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		p := tb.path("/actions?" + q.Encode())
		resp := tb.s.Get(p, auth(token)...)
		if resp.StatusCode != http.StatusOK {
			tb.t.Fatalf("GET %s = %d: %s", p, resp.StatusCode, resp.Body)
		}
		var page wirePage
		resp.JSON(tb.t, &page)
		if len(page.Items) > limit {
			tb.t.Fatalf("GET %s: %d items, more than limit %d", p, len(page.Items), limit)
		}
		all = append(all, page.Items...)
		if page.NextCursor == nil {
			return all
		}
		if len(page.Items) == 0 {
			tb.t.Fatalf("GET %s: empty page with next_cursor %q", p, *page.NextCursor)
		}
		cursor = *page.NextCursor
	}
}

// tail follows the history as one viewer sees it, one entry per page, using only cursors the server
// gave out: it re-reads the last entry it saw to learn the cursor of the next one.
type tail struct {
	token  string
	seen   int64   // seq of the last entry read; -1 before the first
	before *string // the cursor whose page holds that entry (nil: the first page)
}

func (tb *table) historyPage(token string, cursor *string, limit int) wirePage {
	tb.t.Helper()
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	if cursor != nil {
		q.Set("cursor", *cursor)
	}
	p := tb.path("/actions?" + q.Encode())
	resp := tb.s.Get(p, auth(token)...)
	if resp.StatusCode != http.StatusOK {
		tb.t.Fatalf("GET %s = %d: %s", p, resp.StatusCode, resp.Body)
	}
	var page wirePage
	resp.JSON(tb.t, &page)
	if len(page.Items) != 1 {
		tb.t.Fatalf("GET %s: %d items, want 1 (the history has %d entries)", p, len(page.Items), tb.seq+1)
	}
	return page
}

func seqOf(t *testing.T, raw json.RawMessage) int64 {
	t.Helper()
	var e client.HistoryEntry
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return e.Seq
}

// next returns the entries added since the last call, in order.
func (tl *tail) next(tb *table) []json.RawMessage {
	tb.t.Helper()
	var out []json.RawMessage
	page := tb.historyPage(tl.token, tl.before, 1)
	switch got := seqOf(tb.t, page.Items[0]); {
	case tl.seen < 0 && got == 0:
		out, tl.seen = append(out, page.Items[0]), 0
	case got != tl.seen:
		tb.t.Fatalf("history re-read with the same cursor gave entry %d, before entry %d", got, tl.seen)
	}
	for c := page.NextCursor; c != nil; c = page.NextCursor {
		page = tb.historyPage(tl.token, c, 1)
		if got := seqOf(tb.t, page.Items[0]); got != tl.seen+1 {
			tb.t.Fatalf("history after entry %d continues with entry %d", tl.seen, got)
		}
		out, tl.seen, tl.before = append(out, page.Items[0]), tl.seen+1, c
	}
	if tl.seen != tb.seq {
		tb.t.Fatalf("history as seen by a viewer ends at entry %d, want %d", tl.seen, tb.seq)
	}
	return out
}

// ndjson reads the whole history as NDJSON.
func (tb *table) ndjson(token string) []json.RawMessage {
	tb.t.Helper()
	resp := tb.s.Get(tb.path("/actions"), append(auth(token), "Accept", "application/x-ndjson")...)
	if resp.StatusCode != http.StatusOK {
		tb.t.Fatalf("GET actions as NDJSON = %d: %s", resp.StatusCode, resp.Body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-ndjson") {
		tb.t.Errorf("GET actions as NDJSON: Content-Type %q", ct)
	}
	var lines []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(resp.Body))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			tb.t.Errorf("NDJSON history has an empty line after %d entries", len(lines))
			continue
		}
		if !json.Valid(line) {
			tb.t.Fatalf("NDJSON line %d is not JSON: %s", len(lines), line)
		}
		lines = append(lines, json.RawMessage(bytes.Clone(line)))
	}
	if err := sc.Err(); err != nil {
		tb.t.Fatal(err)
	}
	return lines
}

// checkFinalHistory checks, once the game is over, that the public history (paged with a small
// limit) holds every entry once and in order with its random values, that it matches the stored
// history, and that NDJSON gives the same entries line by line.
func (tb *table) checkFinalHistory() []client.HistoryEntry {
	tb.t.Helper()
	stored, err := tb.db.Games().Entries(context.Background(), tb.id, -1, 1_000_000)
	if err != nil {
		tb.t.Fatal(err)
	}
	paged := tb.history(tb.public, 7)
	if int64(len(paged)) != tb.seq+1 || len(paged) != len(stored) {
		tb.t.Fatalf("public history has %d entries, want %d (stored %d)", len(paged), tb.seq+1, len(stored))
	}
	entries := make([]client.HistoryEntry, len(paged))
	for i, raw := range paged {
		var e client.HistoryEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			tb.t.Fatal(err)
		}
		entries[i] = e
		if e.Seq != int64(i) {
			tb.t.Fatalf("public history item %d has seq %d: entries must come once each, in order", i, e.Seq)
		}
		if (i == 0) != (e.Seat == nil) {
			tb.t.Errorf("entry %d: seat %v (null only for the start)", i, e.Seat)
		}
		if i > 0 && !jsonEqual(e.Action, tb.posted[i]) {
			tb.t.Errorf("entry %d: action %s, posted %s", i, e.Action, tb.posted[i])
		}
		if e.Random == nil {
			tb.t.Errorf("entry %d: no random values once the game is over (G-1)", i)
		} else if !reflect.DeepEqual(*e.Random, stored[i].Random) {
			tb.t.Errorf("entry %d: random %v, stored %v", i, *e.Random, stored[i].Random)
		}
		if !jsonEqual(e.Outcome, stored[i].Outcome) {
			tb.t.Errorf("entry %d: public outcome once the game is over differs from the stored one:\npublic: %s\nstored: %s", i, e.Outcome, stored[i].Outcome)
		}
	}
	if entries[0].Random == nil || len(*entries[0].Random) == 0 {
		tb.t.Errorf("the start entry should carry the random values of its setup (G-1)")
	}
	lines := tb.ndjson(tb.public)
	if len(lines) != len(paged) {
		tb.t.Fatalf("NDJSON history has %d lines, paged history %d entries", len(lines), len(paged))
	}
	for i := range lines {
		if !jsonEqual(lines[i], paged[i]) {
			tb.t.Errorf("NDJSON line %d differs from paged entry %d:\nndjson: %s\npaged:  %s", i, i, lines[i], paged[i])
		}
	}
	return entries
}

// checkFinished checks the final game body and returns the scores body; closed is an action of the
// kind, refused with game_over.
func (tb *table) checkFinished(closed string) (client.Game, json.RawMessage) {
	tb.t.Helper()
	g := tb.get(tb.public)
	if g.Status != "finished" || g.Turn != nil || g.FinishedAt == nil || len(g.Winners) == 0 {
		tb.t.Fatalf("finished game: status %q turn %+v finished_at %v winners %v", g.Status, g.Turn, g.FinishedAt, g.Winners)
	}
	scores, err := tb.api.GetScoresWithResponse(context.Background(), tb.gameID(), apitest.Bearer(tb.public))
	if err != nil || scores.JSON200 == nil || len(scores.JSON200.Scores) == 0 || string(scores.JSON200.Scores) == "null" {
		tb.t.Fatalf("GET scores = %d: %v %s", scores.StatusCode(), err, scores.Body)
	}
	sc := scores.JSON200
	if string(sc.Game) != tb.kind || sc.Status != "finished" || !reflect.DeepEqual(sc.Winners, g.Winners) {
		tb.t.Errorf("GET scores: game %q status %q winners %v; the game has winners %v", sc.Game, sc.Status, sc.Winners, g.Winners)
	}
	for seat := range tb.tokens {
		if l := tb.legal(seat); len(l) != 0 {
			tb.t.Errorf("seat %d has %d legal actions in a finished game", seat, len(l))
		}
	}
	// A finished game takes no more actions.
	seat := g.Winners[0]
	resp := tb.s.Post(tb.path("/actions"), []byte(closed), auth(tb.tokens[seat])...)
	if resp.StatusCode != http.StatusConflict || resp.Problem(tb.t).Code != "game_over" {
		tb.t.Errorf("POST actions on a finished game = %d, want 409 game_over (PC-14, PR-7): %s", resp.StatusCode, resp.Body)
	}
	// Its facts name the winners, as the engines' game_over did before the 409.
	if want, _ := json.Marshal(map[string][]int{"winners": g.Winners}); !jsonEqual(resp.Problem(tb.t).Facts, want) {
		tb.t.Errorf("game_over facts = %s, want %s", resp.Problem(tb.t).Facts, want)
	}
	// A typed client tells the kinds apart by game: each entry carries its game's kind.
	for _, e := range tb.checkFinalHistoryKinds() {
		if string(e) != tb.kind {
			tb.t.Errorf("a history entry of a %s game says game %q", tb.kind, e)
		}
	}
	if ag := tb.get(tb.public); ag.Version != tb.version {
		tb.t.Errorf("a refused action on a finished game changed the version to %d", ag.Version)
	}
	return g, sc.Scores
}

// checkFinalHistoryKinds returns the game field of every entry of the history.
func (tb *table) checkFinalHistoryKinds() []client.GameKind {
	tb.t.Helper()
	resp, err := tb.api.ListActionsWithResponse(context.Background(), tb.gameID(), &client.ListActionsParams{}, apitest.Bearer(tb.public))
	if err != nil || resp.JSON200 == nil {
		tb.t.Fatalf("GET actions = %d: %v", resp.StatusCode(), err)
	}
	kinds := make([]client.GameKind, len(resp.JSON200.Items))
	for i, e := range resp.JSON200.Items {
		kinds[i] = e.Game
	}
	return kinds
}

// jsonEqual reports whether two JSON documents decode to the same value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// field decodes one member of a JSON object; present reports whether it was there.
func field(t *testing.T, obj json.RawMessage, name string, v any) (present bool) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatalf("not a JSON object: %v: %s", err, obj)
	}
	raw, ok := m[name]
	if !ok {
		return false
	}
	if v != nil {
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatalf("member %q: %v: %s", name, err, raw)
		}
	}
	return true
}

// stateOf is the game's view as a client sees it; nil while it has none (a lobby).
func stateOf(g client.Game) json.RawMessage {
	if g.State == nil {
		return nil
	}
	return g.State
}
