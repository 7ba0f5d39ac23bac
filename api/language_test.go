package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"primegames.dev/client"
)

// words are what a child reads first in a prime-climb game, per language: the title of a 409, the
// first legal action's description (and the hint's explanation), the waiting seat's reason and the
// picture's turn line.
var words = map[string]struct{ conflict, roll, notYourTurn, turn string }{
	"en":    {"Conflict", "roll both dice", "It is not your turn: it is Ada (seat 0) to act.", "Turn 1: Ada to roll"},
	"es":    {"Conflicto", "tira los dos dados", "No es tu turno: le toca a Ada (puesto 0).", "Turno 1: le toca tirar a Ada"},
	"fr":    {"Conflit", "lance les deux dés", "Ce n’est pas ton tour : c’est à Ada (place 0) de jouer.", "Tour 1 : Ada doit lancer les dés"},
	"de":    {"Konflikt", "wirf beide Würfel", "Du bist nicht dran: Ada (Platz 0) ist dran.", "Zug 1: Ada würfelt"},
	"pt-BR": {"Conflito", "jogue os dois dados", "Não é a sua vez: é a vez de Ada (lugar 0).", "Rodada 1: Ada joga os dados"},
}

// Every language over HTTP: a refusal, a hint, a legal action's description, the waiting seat's
// reason and a picture are said in it, with Content-Language and Vary: Accept-Language; the
// machine-readable parts (code, type, reason, status) stay the same.
func TestEveryLanguageOverHTTP(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	id := c.Game.Id.String()
	mover := c.Game.Turn.ToAct[0]
	if mover != 0 {
		t.Skipf("Ada does not start (to_act %v)", c.Game.Turn.ToAct)
	}
	path := "/v1/games/" + id
	tags := map[string]string{}
	for code, w := range words {
		says := func(resp *http.Response) {
			t.Helper()
			if got := resp.Header.Get("Content-Language"); got != code {
				t.Errorf("%s %s: Content-Language %q, want %q", code, resp.Request.URL.Path, got, code)
			}
			if !varies(resp.Header, "Accept-Language") {
				t.Errorf("%s %s: Vary %q lacks Accept-Language", code, resp.Request.URL.Path, resp.Header.Values("Vary"))
			}
		}
		asked := []string{"Accept-Language", code + ";q=0.9, en;q=0.1"}

		resp := h.Get(path+"/hint", append(bearer(c.Seats[1].Token), asked...)...)
		says(resp.Response)
		p := resp.Problem(t)
		if resp.StatusCode != http.StatusConflict || p.Code != "not_your_turn" || p.Type != "urn:primegames:problem:not_your_turn" || p.Title != w.conflict || !strings.HasPrefix(p.Detail, w.notYourTurn) {
			t.Errorf("%s: hint out of turn = %d %s %q %q", code, resp.StatusCode, p.Code, p.Title, p.Detail)
		}

		var hint client.Hint
		resp = h.Get(path+"/hint", append(bearer(c.Seats[0].Token), asked...)...)
		says(resp.Response)
		resp.JSON(t, &hint)
		if hint.Explanation != w.roll || !jsonEqual(hint.Action, []byte(`{"type":"roll"}`)) {
			t.Errorf("%s: hint %q %s, want %q", code, hint.Explanation, hint.Action, w.roll)
		}

		var legal client.LegalActions
		resp = h.Get(path+"/legal-actions", append(bearer(c.Seats[0].Token), asked...)...)
		says(resp.Response)
		resp.JSON(t, &legal)
		var actions []struct {
			Type        string `json:"type"`
			Description string `json:"description"`
		}
		if err := json.Unmarshal(legal.Actions, &actions); err != nil || len(actions) != 1 || actions[0].Type != "roll" || actions[0].Description != w.roll {
			t.Errorf("%s: legal actions %s (%v), want roll described %q", code, legal.Actions, err, w.roll)
		}
		resp = h.Get(path+"/legal-actions", append(bearer(c.Seats[1].Token), asked...)...)
		resp.JSON(t, &legal)
		if legal.Reason == nil || *legal.Reason != client.LegalActionsBaseReasonNotYourTurn || legal.Detail == nil || *legal.Detail != w.notYourTurn {
			t.Errorf("%s: waiting seat's reason %v %v, want not_your_turn %q", code, deref(legal.Reason), deref(legal.Detail), w.notYourTurn)
		}

		// A picture names its language by the lang parameter, which an <img> can carry.
		resp = h.Get(path+"/picture.svg?lang="+code, bearer(c.Seats[0].Token)...)
		says(resp.Response)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(resp.Body), ">"+w.turn+"</text>") {
			t.Errorf("%s: picture %d lacks <text>%s</text>", code, resp.StatusCode, w.turn)
		}
		tag := resp.Header.Get("ETag")
		for other, seen := range tags {
			if seen == tag {
				t.Errorf("the %s and %s pictures share the ETag %s", code, other, tag)
			}
		}
		tags[code] = tag
	}
}

const noGame = "00000000-0000-4000-8000-000000000000"

func varies(h http.Header, name string) bool {
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), name) {
				return true
			}
		}
	}
	return false
}

// The language is chosen by quality values with fallbacks (es-MX → es, pt → pt-BR); a lang
// parameter wins over the header; a language the service does not speak gets English; Vary keeps
// the compression's Accept-Encoding beside Accept-Language.
func TestLanguageNegotiation(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	for _, tc := range []struct {
		query, header, want string
	}{
		{"", "", "en"},
		{"", "es-MX", "es"},
		{"", "ja, fr;q=0.8, es;q=0.9", "es"},
		{"", "pt", "pt-BR"},
		{"", "pt-PT;q=0.5, ja", "pt-BR"},
		{"", "de-AT, en;q=0.2", "de"},
		{"", "ja, zh;q=0.5", "en"},
		{"", "*", "en"},
		{"?lang=fr", "de", "fr"},
		{"?lang=klingon", "de", "de"},
		{"?lang=pt-br", "", "pt-BR"},
	} {
		resp := h.Get("/v1/games/"+noGame+tc.query, "Accept-Language", tc.header, "Accept-Encoding", "gzip")
		if got := resp.Header.Get("Content-Language"); got != tc.want {
			t.Errorf("lang %q, Accept-Language %q: Content-Language %q, want %q", tc.query, tc.header, got, tc.want)
		}
		if !varies(resp.Header, "Accept-Language") || !varies(resp.Header, "Accept-Encoding") {
			t.Errorf("Vary %q, want Accept-Encoding and Accept-Language", resp.Header.Values("Vary"))
		}
	}
	resp := h.Get("/v1/games/"+noGame, "Accept-Language", "de")
	if p := resp.Problem(t); p.Code != "game_not_found" || p.Title != "Nicht gefunden" || p.Detail != "Es gibt kein Spiel "+noGame+"." {
		t.Errorf("German 404: %s %q %q", p.Code, p.Title, p.Detail)
	}
	resp = h.Get("/v1/games/" + noGame)
	if p := resp.Problem(t); p.Title != "Not Found" || p.Detail != "There is no game "+noGame+"." {
		t.Errorf("English 404: %q %q", p.Title, p.Detail)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// A classroom's default language, set by its teacher, answers its requests that name no language
// the service speaks; the request's own choice wins; only the teacher sets it, and only to a
// language the service speaks.
func TestClassroomDefaultLanguage(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "Clase", "Ada", "Ben")
	teacher := bearer(class.teacher)
	path := "/v1/classrooms/" + class.id + "/language"
	var set client.ClassroomLanguage
	resp := h.Get(path, teacher...)
	resp.JSON(t, &set)
	if resp.StatusCode != http.StatusOK || set.Language != "en" {
		t.Fatalf("a new classroom's language = %d %+v, want en", resp.StatusCode, set)
	}
	if resp := h.Do(h.Request(http.MethodPut, path, map[string]string{"language": "es"}, bearer(class.students["Ada"].token)...)); resp.StatusCode == http.StatusOK {
		t.Errorf("a student set the classroom's language")
	}
	resp = h.Do(h.Request(http.MethodPut, path, map[string]string{"language": "tlh"}, teacher...))
	if p := resp.Problem(t); resp.StatusCode != http.StatusBadRequest || p.Code != "unknown_language" {
		t.Errorf("language tlh = %d %s, want 400 unknown_language", resp.StatusCode, p.Code)
	}
	resp = h.Do(h.Request(http.MethodPut, path, map[string]string{"language": "es"}, teacher...))
	resp.JSON(t, &set)
	if resp.StatusCode != http.StatusOK || set.Language != "es" {
		t.Fatalf("set es = %d %+v", resp.StatusCode, set)
	}

	// A refusal of the classroom's: in Spanish unless the request names a language it speaks.
	missing := "/v1/classrooms/" + class.id + "/students/" + noGame
	for _, tc := range []struct{ header, want, title string }{
		{"", "es", "No encontrado"},
		{"ja", "es", "No encontrado"},
		{"fr-CA, es;q=0.1", "fr", "Introuvable"},
		{"en", "en", "Not Found"},
	} {
		resp := h.Do(h.Request(http.MethodPatch, missing, map[string]string{"name": "Cy"}, append(teacher, "Accept-Language", tc.header)...))
		if p := resp.Problem(t); resp.Header.Get("Content-Language") != tc.want || p.Title != tc.title || p.Code != "student_not_found" {
			t.Errorf("Accept-Language %q: %s %q %s, want %s %q", tc.header, resp.Header.Get("Content-Language"), p.Title, p.Code, tc.want, tc.title)
		}
	}

	// A game of the classroom, and a game of none.
	var created client.ClassroomGames
	resp = h.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "prime-climb", "group_size": 2}, teacher...)
	resp.JSON(t, &created)
	if resp.StatusCode != http.StatusCreated || len(created.Games) != 1 {
		t.Fatalf("classroom game = %d %s", resp.StatusCode, resp.Body)
	}
	game := created.Games[0]
	var waiting string
	for _, seat := range game.Seats {
		if seat.Seat != game.Turn.ToAct[0] {
			for _, st := range class.students {
				if st.id == seat.StudentId.String() {
					waiting = st.token
				}
			}
		}
	}
	resp = h.Get("/v1/games/"+game.Id.String()+"/hint", bearer(waiting)...)
	if p := resp.Problem(t); resp.Header.Get("Content-Language") != "es" || p.Title != "Conflicto" || !strings.HasPrefix(p.Detail, "No es tu turno") {
		t.Errorf("the classroom game's refusal: %s %q %q", resp.Header.Get("Content-Language"), p.Title, p.Detail)
	}
	resp = h.Get("/v1/games/"+game.Id.String()+"/hint", append(bearer(waiting), "Accept-Language", "de")...)
	if p := resp.Problem(t); resp.Header.Get("Content-Language") != "de" || p.Title != "Konflikt" {
		t.Errorf("German asked of the classroom game: %s %q", resp.Header.Get("Content-Language"), p.Title)
	}
	other := h.create(t, map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	resp = h.Get("/v1/games/"+other.Game.Id.String()+"/hint", bearer(other.Seats[1-other.Game.Turn.ToAct[0]].Token)...)
	if p := resp.Problem(t); resp.Header.Get("Content-Language") != "en" || p.Title != "Conflict" {
		t.Errorf("a game of no classroom: %s %q", resp.Header.Get("Content-Language"), p.Title)
	}
}

// A move review over HTTP, per language: every entry's explanation is said in the language asked
// for (none stays English), the labels and actions as they are.
func TestReviewInEveryLanguage(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "Review class", "Ada", "Ben")
	teacher := bearer(class.teacher)
	var created client.ClassroomGames
	resp := h.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "prime-climb", "group_size": 2}, teacher...)
	resp.JSON(t, &created)
	game := created.Games[0]
	id := game.Id.String()
	tokenOf := map[int]string{}
	for _, seat := range game.Seats {
		for _, st := range class.students {
			if st.id == seat.StudentId.String() {
				tokenOf[seat.Seat] = st.token
			}
		}
	}
	// Four actions: each seat rolls and moves as the first legal action says.
	for range 4 {
		var g client.Game
		h.Get("/v1/games/"+id, teacher...).JSON(t, &g)
		h.actFirstLegal(t, id, tokenOf[g.Turn.ToAct[0]])
	}
	var english client.Review
	h.Get("/v1/games/"+id+"/review", teacher...).JSON(t, &english)
	if len(english.Entries) == 0 {
		t.Fatalf("no review entries: %+v", english)
	}
	for _, code := range []string{"es", "fr", "de", "pt-BR"} {
		var r client.Review
		resp := h.Get("/v1/games/"+id+"/review", append(teacher, "Accept-Language", code)...)
		resp.JSON(t, &r)
		if resp.Header.Get("Content-Language") != code || len(r.Entries) != len(english.Entries) {
			t.Fatalf("%s: %s, %d entries", code, resp.Header.Get("Content-Language"), len(r.Entries))
		}
		for i, e := range r.Entries {
			en := english.Entries[i]
			if e.Explanation == en.Explanation || e.Label != en.Label || !jsonEqual(e.Played, en.Played) {
				t.Errorf("%s: entry %d explained %q (English %q), label %s", code, i, e.Explanation, en.Explanation, e.Label)
			}
		}
	}
}

// A refusal the API makes itself, with a status of its own (refuse), is said in the caller's
// language too, its placeholders filled.
func TestOwnRefusalsInTheCallersLanguage(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	resp := h.Do(h.Request(http.MethodPost, "/v1/classrooms/join", "join_code=X", "Content-Type", "text/plain", "Accept-Language", "es"))
	want := "El cuerpo de la solicitud debe ser JSON en UTF-8, enviado con Content-Type: application/json; el Content-Type era text/plain."
	if p := resp.Problem(t); resp.StatusCode != http.StatusUnsupportedMediaType || p.Code != "unsupported_media_type" || p.Detail != want {
		t.Errorf("Spanish 415: %d %s %q", resp.StatusCode, p.Code, p.Detail)
	}
}
