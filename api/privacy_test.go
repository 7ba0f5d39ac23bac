package api_test

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"primegames.dev/client"
)

// privateLobby opens a private lobby of six seats (the default outside classrooms).
func privateLobby(t *testing.T, h *gamesHarness) client.CreatedGame {
	t.Helper()
	lobby := h.create(t, map[string]any{"game": "primed", "seats": 6})
	if lobby.InviteCode == nil || !regexp.MustCompile(`^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$`).MatchString(*lobby.InviteCode) {
		t.Fatalf("a private lobby's invite code = %v, want eight characters grouped ABCD-EFGH", lobby.InviteCode)
	}
	return lobby
}

// Who may list and join a private lobby, cell by cell: nobody lists it; a player needs its
// invite code (or joins by the code alone); its creator seats players without it and alone
// chooses their seats.
func TestPrivateLobbyAccessMatrix(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	other := newPrimedGame(t, h)
	class := h.newClassroom(t, "4F", "Flo")
	callers := []struct{ name, token string }{
		{"anonymous", ""},
		{"seat token of another game", other.Seats[0].Token},
		{"a student", class.students["Flo"].token},
		{"a teacher", class.teacher},
		{"the lobby's creator", ""}, // filled in per lobby
	}
	const creator = 4
	headersOf := func(i int, lobby client.CreatedGame) []string {
		token := callers[i].token
		if i == creator {
			token = lobby.CreatorToken
		}
		if token == "" {
			return nil
		}
		return bearer(token)
	}
	const (
		created   = http.StatusCreated
		forbidden = http.StatusForbidden
	)
	rows := []struct {
		name string
		body func(lobby client.CreatedGame) map[string]any
		want []int
		code []string // the refusal's code per caller, "" for none
	}{
		{"join without the code", func(client.CreatedGame) map[string]any { return map[string]any{"name": "Zoe"} },
			[]int{forbidden, forbidden, forbidden, forbidden, created},
			[]string{"invite_code_required", "invite_code_required", "invite_code_required", "invite_code_required", ""}},
		{"join with another code", func(client.CreatedGame) map[string]any {
			return map[string]any{"name": "Zoe", "invite_code": "AAAAAA"}
		},
			[]int{forbidden, forbidden, forbidden, forbidden, created},
			[]string{"wrong_invite_code", "wrong_invite_code", "wrong_invite_code", "wrong_invite_code", ""}},
		{"join with the code, typed in small letters with a space", func(l client.CreatedGame) map[string]any {
			code := strings.ToLower(*l.InviteCode)
			return map[string]any{"name": "Zoe", "invite_code": code[:3] + " " + code[3:]}
		}, []int{created, created, created, created, created}, nil},
		{"join with the code, typed without its dash", func(l client.CreatedGame) map[string]any {
			return map[string]any{"name": "Zoe", "invite_code": strings.ReplaceAll(*l.InviteCode, "-", "")}
		}, []int{created, created, created, created, created}, nil},
		{"choose a seat with the code", func(l client.CreatedGame) map[string]any {
			return map[string]any{"name": "Zoe", "invite_code": *l.InviteCode, "seat": 0}
		}, []int{forbidden, forbidden, forbidden, forbidden, created}, []string{"forbidden", "forbidden", "forbidden", "forbidden", ""}},
	}
	for _, row := range rows {
		for i, caller := range callers {
			lobby := privateLobby(t, h)
			resp := h.Post("/v1/games/"+lobby.Game.Id.String()+"/players", row.body(lobby), headersOf(i, lobby)...)
			if resp.StatusCode != row.want[i] {
				t.Errorf("%s as %s = %d, want %d: %s", row.name, caller.name, resp.StatusCode, row.want[i], resp.Body)
				continue
			}
			if row.code != nil && row.code[i] != "" && resp.Problem(t).Code != row.code[i] {
				t.Errorf("%s as %s: code %s, want %s", row.name, caller.name, resp.Problem(t).Code, row.code[i])
			}
		}
	}

	// Nobody lists a private game, a lobby or not; a public one is listed to anyone.
	lobby := privateLobby(t, h)
	public := h.create(t, map[string]any{"game": "primed", "seats": 2, "public": true})
	if public.InviteCode != nil {
		t.Errorf("a public lobby has an invite code: %q", *public.InviteCode)
	}
	for i, caller := range callers {
		var list client.GameList
		h.Get("/v1/games?status=lobby", headersOf(i, lobby)...).JSON(t, &list)
		ids := []string{}
		for _, g := range list.Items {
			ids = append(ids, g.Id.String())
		}
		if caller.name != "a student" && caller.name != "a teacher" && !slices.Contains(ids, public.Game.Id.String()) {
			t.Errorf("GET /v1/games?status=lobby as %s misses the public lobby", caller.name)
		}
		if slices.Contains(ids, lobby.Game.Id.String()) {
			t.Errorf("GET /v1/games?status=lobby as %s lists the private lobby", caller.name)
		}
		h.Get("/v1/games", headersOf(i, lobby)...).JSON(t, &list)
		for _, g := range list.Items {
			if g.Id == other.Game.Id {
				t.Errorf("GET /v1/games as %s lists a private game under way", caller.name)
			}
		}
	}
	// A public lobby is joined by anyone without a code.
	if resp := h.Post("/v1/games/"+public.Game.Id.String()+"/players", map[string]any{"name": "Zoe"}); resp.StatusCode != created {
		t.Errorf("join a public lobby = %d: %s", resp.StatusCode, resp.Body)
	}
}

// A child joins with the code alone; the code stops working once the game starts.
func TestJoinByInviteCode(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	lobby := h.create(t, map[string]any{"game": "primed", "seats": 2})
	var joined client.JoinedGame
	for _, name := range []string{"Ada", "Ben"} {
		resp := h.Post("/v1/games/join", map[string]any{"invite_code": *lobby.InviteCode, "name": name})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("%s joins by code = %d: %s", name, resp.StatusCode, resp.Body)
		}
		resp.JSON(t, &joined)
		if joined.Game.Id != lobby.Game.Id || joined.Seat.Name != name {
			t.Errorf("%s joined %s as %q, want %s", name, joined.Game.Id, joined.Seat.Name, lobby.Game.Id)
		}
	}
	if resp := h.Post("/v1/games/join", map[string]any{"invite_code": "ZZZZZZ", "name": "Cy"}); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "invite_code_not_found" {
		t.Errorf("an unknown code = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := h.Post("/v1/games/"+lobby.Game.Id.String()+"/start", nil, bearer(lobby.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("start = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := h.Post("/v1/games/join", map[string]any{"invite_code": *lobby.InviteCode, "name": "Cy"}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the code of a started game = %d, want 404: %s", resp.StatusCode, resp.Body)
	}
}

// The creator chooses seats: a player given seat 0 sits first and the others move up by one; a
// seat past those taken is refused.
func TestCreatorChoosesSeats(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	lobby := privateLobby(t, h)
	path := "/v1/games/" + lobby.Game.Id.String() + "/players"
	creator := bearer(lobby.CreatorToken)
	if resp := h.Post(path, map[string]any{"name": "Ada", "invite_code": *lobby.InviteCode}); resp.StatusCode != http.StatusCreated {
		t.Fatalf("Ada joins = %d: %s", resp.StatusCode, resp.Body)
	}
	var ben client.JoinedGame
	resp := h.Post(path, map[string]any{"name": "Ben", "seat": 0}, creator...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("the creator seats Ben at 0 = %d: %s", resp.StatusCode, resp.Body)
	}
	resp.JSON(t, &ben)
	if ben.Seat.Seat != 0 || ben.Seat.Name != "Ben" {
		t.Errorf("Ben's seat = %+v, want seat 0", ben.Seat)
	}
	g := h.game(t, lobby.Game.Id.String(), "")
	var seated []string
	for _, s := range g.Seats {
		seated = append(seated, s.Name)
	}
	if !slices.Equal(seated, []string{"Ben", "Ada"}) {
		t.Errorf("seats = %v, want Ben then Ada", seated)
	}
	if resp := h.Post(path, map[string]any{"name": "Cy", "seat": 3}, creator...); resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "invalid_seat" {
		t.Errorf("seat 3 with 2 taken = %d: %s", resp.StatusCode, resp.Body)
	}
	// Ben's token acts for the seat he was given.
	if me := h.me(t, ben.Seat.Token); me.Games == nil || *(*me.Games)[0].Seat != 0 {
		t.Errorf("Ben's token: %+v, want seat 0", me)
	}
}
