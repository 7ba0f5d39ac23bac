package api_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"slices"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
)

// A body served from the game cache is the body rendered afresh: the same headers and bytes, read a
// second time on the same instance or once on an instance that never read the game, for each way
// of seeing the game, gzipped or not, and for HEAD (which says the same Content-Length).
func TestCachedGameBodyIsTheFreshBody(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "primed", "players": names(3)})
	id := c.Game.Id.String()
	fresh := func() *apitest.Server { return apitest.Start(t, newServer(t, h.db)) }
	for _, token := range []string{c.Seats[0].Token, c.Seats[2].Token, c.CreatorToken, ""} {
		queries := []string{"", "?include=legal_actions"}
		if token == c.Seats[0].Token || token == c.Seats[2].Token {
			queries = append(queries, "/legal-actions") // only seats have legal actions
		}
		for _, query := range queries {
			for _, encoding := range []string{"gzip", "identity"} {
				headers := []string{"Accept-Encoding", encoding}
				if token != "" {
					headers = append(headers, bearer(token)...)
				}
				path := "/v1/games/" + id + query
				first, again, elsewhere := h.Get(path, headers...), h.Get(path, headers...), fresh().Get(path, headers...)
				head := h.Do(h.Request(http.MethodHead, path, nil, headers...))
				for name, resp := range map[string]*apitest.Response{"again": again, "on another instance": elsewhere, "HEAD": head} {
					for _, header := range []string{"ETag", "Content-Encoding", "Content-Type", "Vary", "Content-Length"} {
						if got, want := resp.Header.Values(header), first.Header.Values(header); !slices.Equal(got, want) {
							t.Errorf("%s %s %s: %s %q, first read %q", path, encoding, name, header, got, want)
						}
					}
					if name != "HEAD" && !bytes.Equal(resp.Body, first.Body) {
						t.Errorf("%s %s %s:\n%s\nfirst read:\n%s", path, encoding, name, resp.Body, first.Body)
					}
				}
				if first.ContentLength != int64(len(first.Body)) || len(first.TransferEncoding) > 0 {
					t.Errorf("%s %s: %d bytes sent with Content-Length %d, Transfer-Encoding %q", path, encoding, len(first.Body), first.ContentLength, first.TransferEncoding)
				}
				if encoding == "gzip" && len(first.Body) >= 512 && first.Header.Get("Content-Encoding") != "gzip" {
					t.Errorf("%s: a %d-byte body was not compressed", path, len(first.Body))
				}
				if encoding == "gzip" && first.Header.Get("Content-Encoding") == "gzip" {
					plain := h.Get(path, append(headers, "Accept-Encoding", "identity")...)
					if got := gunzip(t, first.Body); !bytes.Equal(got, plain.Body) {
						t.Errorf("%s: gzipped body reads\n%s\nnot\n%s", path, got, plain.Body)
					}
				}
			}
		}
	}
}

// The cache never answers for an older game than the database holds: a move made through another
// instance shows on the next read here, and so does a student's new name, which renames their seats
// and moves the game's version on (its ETag shows the names).
func TestCachedGameFollowsChangesMadeElsewhere(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	other := apitest.Start(t, newServer(t, h.db))
	class := h.newClassroom(t, "4C", "Ada", "Ben")
	var cg client.CreatedGame
	h.Post("/v1/games", map[string]any{"game": "prime-climb", "players": []map[string]string{
		{"student_id": class.students["Ada"].id}, {"student_id": class.students["Ben"].id}}}, bearer(class.teacher)...).JSON(t, &cg)
	id := cg.Game.Id.String()
	read := func() client.Game { return h.game(t, id, class.teacher) }
	before := read()
	toAct := class.students[[]string{"Ada", "Ben"}[before.Turn.ToAct[0]]].token
	if resp := other.Post("/v1/games/"+id+"/actions", map[string]string{"type": "roll"}, bearer(toAct)...); resp.StatusCode != http.StatusCreated {
		t.Fatalf("roll through the other instance = %d %s", resp.StatusCode, resp.Body)
	}
	if after := read(); after.Version != before.Version+1 || after.Turn.Phase == before.Turn.Phase {
		t.Errorf("after a roll elsewhere: version %d phase %s, before %d %s", after.Version, after.Turn.Phase, before.Version, before.Turn.Phase)
	}
	path := "/v1/classrooms/" + class.id + "/students/" + class.students["Ada"].id
	if resp := other.Do(other.Request(http.MethodPatch, path, map[string]string{"name": "Adele"}, bearer(class.teacher)...)); resp.StatusCode != http.StatusOK {
		t.Fatalf("rename = %d %s", resp.StatusCode, resp.Body)
	}
	renamed := read()
	if renamed.Seats[0].Name != "Adele" {
		t.Errorf("after the rename, seat 0 is named %q", renamed.Seats[0].Name)
	}
	if renamed.Version != before.Version+2 {
		t.Errorf("after the rename, version %d, want %d", renamed.Version, before.Version+2)
	}
}

func gunzip(t *testing.T, body []byte) []byte {
	t.Helper()
	r, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return plain
}
