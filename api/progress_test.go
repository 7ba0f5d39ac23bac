package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"primegames.dev/client"

	"primegames/api/apitest"
	"primegames/domain/games/gametest/tinygame"
)

// A classroom's progress over HTTP: a finished game counts for its students today, in JSON, in
// CSV (by Accept and as progress.csv), and the SVG and PNG pictures are answered as the contract
// says; a bucket the contract does not list is 400 invalid, from after to 400 invalid_progress_range, and another classroom's teacher
// gets 404.
func TestClassroomProgressOverHTTP(t *testing.T) {
	t.Parallel()
	s, _, _ := startHostingOver(t, tinygame.Kind)
	tg := &tinyTable{t: t, s: s}
	class := newClassroomOn(t, s, "Progress class", "Ada", "Ben")
	other := newClassroomOn(t, s, "Other class", "Cy")
	teacher := bearer(class.teacher)
	tokens := map[string]string{}
	for _, st := range class.students {
		tokens[st.id] = st.token
	}
	var created client.ClassroomGames
	tg.expect(s.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "tiny", "group_size": 2, "options": map[string]any{"pile": 1}}, teacher...),
		http.StatusCreated, &created)
	game := created.Games[0]
	mover := game.Seats[game.Turn.ToAct[0]].StudentId.String()
	tg.expect(s.Post("/v1/games/"+game.Id.String()+"/actions", json.RawMessage(takeOne), bearer(tokens[mover])...), http.StatusCreated, nil)

	path := "/v1/classrooms/" + class.id + "/progress"
	var progress client.ClassroomProgress
	tg.expect(s.Get(path+"?bucket=day", teacher...), http.StatusOK, &progress)
	today := progress.Class[len(progress.Class)-1]
	if progress.Bucket != "day" || len(progress.Class) != 30 || len(progress.Students) != 2 ||
		today.GamesPlayed != 2 || today.GamesFinished != 2 || today.GamesWon != 1 || today.Moves != 1 || today.MsPerMove == nil {
		t.Fatalf("progress by day: %d buckets, %d students, today %+v", len(progress.Class), len(progress.Students), today)
	}
	for _, st := range progress.Students {
		last := st.Buckets[len(st.Buckets)-1]
		if wantMoves := map[bool]int{true: 1, false: 0}[st.StudentId.String() == mover]; last.Moves != wantMoves || last.GamesPlayed != 1 {
			t.Errorf("%s today: %+v, want %d moves", st.Name, last, wantMoves)
		}
	}

	for _, resp := range []*apitest.Response{s.Get(path+"?bucket=week", append(teacher, "Accept", "text/csv")...), s.Get(path+".csv?bucket=week", teacher...)} {
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("%s: %d %s", resp.Request.URL, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		rows, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
		if err != nil || len(rows) != 1+3*12 || strings.Join(rows[0], ",") != "student_id,name,start,played,finished,won,hints,moves,ms_per_move,missed" {
			t.Errorf("%s: %d rows, %v; first %v", resp.Request.URL, len(rows), err, rows[0])
		}
	}
	svg := s.Get(path+".svg", teacher...)
	if svg.StatusCode != http.StatusOK || !bytes.Contains(svg.Body, []byte(`class="student"`)) || svg.Header.Get("ETag") == "" {
		t.Errorf("progress.svg: %d %.200s", svg.StatusCode, svg.Body)
	}
	png := s.Get(path+".png", teacher...)
	if png.StatusCode != http.StatusOK || !bytes.HasPrefix(png.Body, []byte("\x89PNG")) {
		t.Errorf("progress.png: %d %s", png.StatusCode, png.Header.Get("Content-Type"))
	}
	if again := s.Get(path+".png", append(teacher, "If-None-Match", png.Header.Get("ETag"))...); again.StatusCode != http.StatusNotModified {
		t.Errorf("progress.png again with its ETag: %d", again.StatusCode)
	}

	if p := s.Get(path+"?bucket=month", teacher...).Problem(t); p.Code != "invalid" { // the contract's enum
		t.Errorf("bucket=month: %s", p.Code)
	}
	if p := s.Get(path+"?from=2026-02-01&to=2026-01-01", teacher...).Problem(t); p.Code != "invalid_progress_range" {
		t.Errorf("from after to: %s", p.Code)
	}
	if resp := s.Get(path, bearer(other.teacher)...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another classroom's teacher: %d", resp.StatusCode)
	}
}
