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
