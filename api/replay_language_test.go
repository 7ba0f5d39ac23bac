package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// A replay is drawn in the request's language as a picture is: its step counter and description
// in Spanish when lang=es asks (an <img> carries it) or German when Accept-Language does, with
// Content-Language, and an ETag of its own per language, in SVG and in PNG.
func TestReplayInTheRequestsLanguage(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	id := c.Game.Id.String()
	if r := h.Post("/v1/games/"+id+"/abort", nil, bearer(c.CreatorToken)...); r.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", r.StatusCode, r.Body)
	}
	path := "/v1/games/" + id + "/replay"

	en := h.Get(path + ".svg")
	if en.StatusCode != http.StatusOK || en.Header.Get("Content-Language") != "en" || !strings.Contains(string(en.Body), ">Step 1 of ") {
		t.Fatalf("English replay = %d %s, body lacks its step counter", en.StatusCode, en.Header.Get("Content-Language"))
	}
	es := h.Get(path + ".svg?lang=es")
	body := string(es.Body)
	if es.StatusCode != http.StatusOK || es.Header.Get("Content-Language") != "es" {
		t.Fatalf("replay?lang=es = %d, Content-Language %q", es.StatusCode, es.Header.Get("Content-Language"))
	}
	if !strings.Contains(body, ">Paso 1 de ") || strings.Contains(body, ">Step 1 of ") {
		t.Errorf("the Spanish replay's step counter is not <text>Paso 1 de …</text>: %.600s", body)
	}
	if !strings.Contains(body, "Una animación de ") || !strings.Contains(body, " y Ben") {
		t.Errorf("the Spanish replay's title and description are not in Spanish: %.600s", body)
	}
	if es.Header.Get("ETag") == en.Header.Get("ETag") {
		t.Errorf("the Spanish and English replays share the ETag %s", es.Header.Get("ETag"))
	}
	if r := h.Get(path+".svg?lang=es", "If-None-Match", es.Header.Get("ETag")); r.StatusCode != http.StatusNotModified {
		t.Errorf("the Spanish replay again with its ETag = %d, want 304", r.StatusCode)
	}
	if r := h.Get(path+".svg?lang=es", "If-None-Match", en.Header.Get("ETag")); r.StatusCode != http.StatusOK {
		t.Errorf("the Spanish replay with the English one's ETag = %d, want 200", r.StatusCode)
	}

	de := h.Get(path+".svg", "Accept-Language", "de-AT, en;q=0.5")
	if de.Header.Get("Content-Language") != "de" || !strings.Contains(string(de.Body), ">Schritt 1 von ") {
		t.Errorf("replay asked in German = %s, lacks <text>Schritt 1 von …</text>", de.Header.Get("Content-Language"))
	}

	png := h.Get(path + ".png?lang=es")
	enPNG := h.Get(path + ".png")
	if png.StatusCode != http.StatusOK || png.Header.Get("Content-Language") != "es" || png.Header.Get("ETag") == enPNG.Header.Get("ETag") {
		t.Errorf("replay.png?lang=es = %d %s, ETag %s (English %s)", png.StatusCode, png.Header.Get("Content-Language"), png.Header.Get("ETag"), enPNG.Header.Get("ETag"))
	}
}
