package api_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/play/playclock"
	"primegames/repo/repotest"
)

// A picture link shows one game's pictures as the token that asked for it sees them, without the
// token in the address, until it ends; it opens no other game, and a forged one opens nothing.
func TestPictureLinksShowOneGameAsTheirViewerSeesIt(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	clock := playclock.New(time.Now())
	srv, err := newAPIOn(testConfig(), db, clock, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := &gamesHarness{Server: apitest.Start(t, srv), db: db}
	c := h.create(t, map[string]any{"game": "primed", "players": names(2)})
	other := h.create(t, map[string]any{"game": "primed", "players": names(2)})
	id := c.Game.Id.String()
	playSome(t, h, c, 2)

	var links client.PictureLinks
	h.Get("/v1/games/"+id+"/picture-links", bearer(c.Seats[0].Token)...).JSON(t, &links)
	for _, link := range []string{links.PictureSvg, links.PicturePng, links.ReplaySvg, links.ReplayPng, links.Query} {
		if strings.Contains(link, c.Seats[0].Token) || !strings.Contains(link, "exp=") || !strings.Contains(link, "sig=") {
			t.Fatalf("a picture link %q: want exp and sig, never the token", link)
		}
	}
	if until := time.Until(links.ExpiresAt); until < 9*time.Minute || until > 16*time.Minute {
		t.Errorf("the links end in %v, want 10 to 15 minutes", until)
	}
	_, root := picture(t, h, links.PictureSvg)
	if hands := faceUp(root); hands[0] == nil || hands[1] != nil {
		t.Errorf("seat 0's picture link shows hands %v, want seat 0's only", hands)
	}
	fetchPicture(t, h, links.PicturePng+"&layout=phone", "image/png")
	var again client.PictureLinks
	h.Get("/v1/games/"+id+"/picture-links", bearer(c.Seats[0].Token)...).JSON(t, &again)
	if again.Query != links.Query {
		t.Errorf("asked again at once, the link changed (%q, then %q): a browser could not cache the pictures", links.Query, again.Query)
	}

	expectUnauthorized := func(what, path, code string) {
		t.Helper()
		resp := h.Get(path)
		if resp.StatusCode != http.StatusUnauthorized || resp.Problem(t).Code != code {
			t.Errorf("%s = %d %s, want 401 %s", what, resp.StatusCode, resp.Body, code)
		}
	}
	expectUnauthorized("another game's picture with this link", "/v1/games/"+other.Game.Id.String()+"/picture.svg?"+links.Query, "picture_link_invalid")
	q, _ := url.ParseQuery(links.Query)
	expectUnauthorized("a later end", "/v1/games/"+id+"/picture.svg?exp=9999999999&sig="+q.Get("sig"), "picture_link_invalid")
	expectUnauthorized("a forged seal", "/v1/games/"+id+"/picture.svg?exp="+q.Get("exp")+"&sig=AAAA"+q.Get("sig")[4:], "picture_link_invalid")
	if resp := h.Get("/v1/games/" + id + "/picture-links"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("picture links without a token = %d, want 401", resp.StatusCode)
	}
	clock.Advance(16 * time.Minute)
	expectUnauthorized("the link once it ended", links.PictureSvg, "picture_link_expired")
}

// A replay's Link header names its neighbours with picture links for the same viewer, never with
// the token, whether the token came in the header or as access_token; the links it names open.
func TestReplayLinksCarryPictureLinksNotTokens(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "4A", "Ada", "Ben")
	resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
		{"student_id": class.students["Ada"].id}, {"student_id": class.students["Ben"].id},
	}}, bearer(class.teacher)...)
	var game client.CreatedGame
	resp.JSON(t, &game)
	id := game.Game.Id.String()
	for range 4 { // the students play: whoever has an action takes the first
		for _, student := range []string{"Ada", "Ben"} {
			token := class.students[student].token
			var actions []struct {
				Action json.RawMessage `json:"action"`
			}
			if err := json.Unmarshal(h.legalActions(t, id, token).Actions, &actions); err != nil || len(actions) == 0 {
				continue
			}
			if resp := h.act(t, id, token, actions[0].Action); resp.StatusCode != http.StatusCreated {
				t.Fatalf("act = %d: %s", resp.StatusCode, resp.Body)
			}
			break
		}
	}
	next := regexp.MustCompile(`<([^>]+)>; rel="next"`)
	for how, path := range map[string]string{
		"the header":   "/v1/games/" + id + "/replay.svg?count=1",
		"access_token": "/v1/games/" + id + "/replay.svg?count=1&access_token=" + class.teacher,
	} {
		var headers []string
		if how == "the header" {
			headers = bearer(class.teacher)
		}
		resp, _ := picture(t, h, path, headers...)
		link := resp.Header.Get("Link")
		m := next.FindStringSubmatch(link)
		if m == nil || strings.Contains(link, class.teacher) || strings.Contains(link, "access_token") || !strings.Contains(m[1], "sig=") {
			t.Fatalf("with the token in %s, the replay's Link is %q: want a picture link, not the token", how, link)
		}
		resp, _ = picture(t, h, m[1]) // no token: the link alone opens the teacher's replay
		if m := next.FindStringSubmatch(resp.Header.Get("Link")); m == nil || !strings.Contains(m[1], "sig=") {
			t.Errorf("with the token in %s, the next window's Link is %q", how, resp.Header.Get("Link"))
		}
	}
}

// A picture link is as good as its viewer's token, checked at each use: revoking the observer
// token a link was made for ends the link at once.
func TestAPictureLinkEndsWithItsToken(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	g := newPrimedGame(t, h)
	path := "/v1/games/" + g.Game.Id.String()
	o := mintObserver(t, h.Server, path+"/observers", g.Seats[0].Token)
	var links client.PictureLinks
	h.Get(path+"/picture-links", bearer(o.Token)...).JSON(t, &links)
	picture(t, h, links.PictureSvg)
	if resp := h.Do(h.Request("DELETE", path+"/observers/"+o.Id.String(), nil, bearer(g.Seats[1].Token)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := h.Get(links.PictureSvg); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the revoked observer's picture link = %d %s, want 401", resp.StatusCode, resp.Body)
	}
}
