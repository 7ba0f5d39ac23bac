package api_test

import (
	"bytes"
	"encoding/json"
	"image/png"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/api/openapi"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// codesRig is a server whose students have sign-in codes (a SECRET_KEY), logging everything into
// logs, with the guard of typed codes at cfg's limits.
type codesRig struct {
	*gamesHarness
	logs *lockedBuffer
}

func newCodesRig(t *testing.T, secret string, guesses api.GuessLimits) *codesRig {
	t.Helper()
	db := repotest.NewDB(t)
	var key []byte // none, for secret ""
	if secret != "" {
		key = []byte(secret)
	}
	opts := []play.Option{play.WithSignInCodeSecret(key)}
	cfg := testConfig()
	cfg.Guesses = guesses
	logs := &lockedBuffer{}
	srv, err := api.New(cfg, api.Deps{Play: newServiceOn(db, games.All(), nil, opts...), Database: db, Feed: db},
		slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return &codesRig{gamesHarness: &gamesHarness{Server: apitest.Start(t, srv), db: db}, logs: logs}
}

func (r *codesRig) joinCode(t *testing.T, class classroomFixture) string {
	t.Helper()
	var c openapi.Classroom
	r.Get("/v1/classrooms/"+class.id, bearer(class.teacher)...).JSON(t, &c)
	return c.JoinCode
}

func (r *codesRig) codes(t *testing.T, class classroomFixture) map[string]string {
	t.Helper()
	resp := r.Get("/v1/classrooms/"+class.id+"/sign-in-codes", bearer(class.teacher)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sign-in codes = %d: %s", resp.StatusCode, resp.Body)
	}
	var list openapi.SignInCodeList
	resp.JSON(t, &list)
	codes := map[string]string{}
	for _, c := range list.Items {
		codes[c.Student.Name] = c.Code
	}
	return codes
}

func (r *codesRig) signIn(classCode, code string) *apitest.Response {
	return r.Post("/v1/students/sign-in", map[string]string{"class_code": classCode, "code": code})
}

// meStatus is the status GET /v1/me answers token.
func (r *codesRig) meStatus(token string) int { return r.Get("/v1/me", bearer(token)...).StatusCode }

var codeShape = regexp.MustCompile(`^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$`)

// A student signs in with the class code and their personal code, on two devices; a wrong code and
// an unknown class answer alike; a reset ends the old code and what it signed in, not the student's
// own token; another classroom's teacher sees no codes.
func TestStudentSignInWithPersonalCode(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{})
	class := r.newClassroom(t, "2B", "Ada", "Ben")
	other := r.newClassroom(t, "3C", "Cy")
	classCode := r.joinCode(t, class)

	codes := r.codes(t, class)
	if len(codes) != 2 || !codeShape.MatchString(codes["Ada"]) || !codeShape.MatchString(codes["Ben"]) || codes["Ada"] == codes["Ben"] {
		t.Fatalf("codes = %v, want two different codes of six characters", codes)
	}
	if again := r.codes(t, class); again["Ada"] != codes["Ada"] {
		t.Fatalf("codes changed between listings: %v then %v", codes, again)
	}

	// Typed as a child might: lower case, a space in the middle.
	typed := strings.ToLower(codes["Ada"][:3] + " " + codes["Ada"][3:])
	resp := r.signIn(strings.ToLower(classCode), typed)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("sign-in = %d: %s", resp.StatusCode, resp.Body)
	}
	var tablet openapi.JoinedClassroom
	resp.JSON(t, &tablet)
	if tablet.Student.Name != "Ada" || tablet.Student.Id.String() != class.students["Ada"].id || !strings.HasPrefix(tablet.Token, "pgl_") {
		t.Fatalf("signed in %+v", tablet)
	}
	var phone openapi.JoinedClassroom
	r.signIn(classCode, codes["Ada"]).JSON(t, &phone)
	var me openapi.Me
	r.Get("/v1/me", bearer(tablet.Token)...).JSON(t, &me)
	if me.Kind != "student" || me.StudentId == nil || me.StudentId.String() != class.students["Ada"].id {
		t.Fatalf("the signed-in token is %+v, want Ada's", me)
	}
	for _, tok := range []string{tablet.Token, phone.Token, class.students["Ada"].token} {
		if st := r.meStatus(tok); st != http.StatusOK {
			t.Fatalf("a token of Ada's = %d, want each device's and her own to work", st)
		}
	}

	wrong := r.signIn(classCode, codes["Ben"][:5]+"X")
	if codes["Ben"][5] == 'X' {
		wrong = r.signIn(classCode, codes["Ben"][:5]+"Y")
	}
	unknown := r.signIn("ZZZZ-ZZZZ", codes["Ada"])
	otherClass := r.signIn(r.joinCode(t, other), codes["Ada"])
	for name, resp := range map[string]*apitest.Response{"a wrong code": wrong, "an unknown class": unknown, "another class": otherClass} {
		if resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s = %d, want 404: %s", name, resp.StatusCode, resp.Body)
		}
		p := resp.Problem(t)
		if p.Code != "sign_in_code_not_found" || p.Detail != unknown.Problem(t).Detail {
			t.Errorf("%s answered %+v, want what an unknown class answers", name, p)
		}
	}

	if resp := r.Get("/v1/classrooms/"+class.id+"/sign-in-codes", bearer(other.teacher)...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another teacher's listing = %d, want 404", resp.StatusCode)
	}
	if resp := r.Get("/v1/classrooms/"+class.id+"/sign-in-codes", bearer(tablet.Token)...); resp.StatusCode < 400 {
		t.Errorf("a student's listing = %d, want a refusal", resp.StatusCode)
	}

	resp = r.Post("/v1/classrooms/"+class.id+"/students/"+class.students["Ada"].id+"/sign-in-code", nil, bearer(class.teacher)...)
	var reset openapi.SignInCode
	resp.JSON(t, &reset)
	if resp.StatusCode != http.StatusOK || !codeShape.MatchString(reset.Code) || reset.Code == codes["Ada"] || reset.Student.Name != "Ada" {
		t.Fatalf("reset = %d %+v", resp.StatusCode, reset)
	}
	if r.codes(t, class)["Ada"] != reset.Code {
		t.Errorf("the listing does not show the new code")
	}
	if resp := r.signIn(classCode, codes["Ada"]); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the old code after a reset = %d, want 404", resp.StatusCode)
	}
	if r.meStatus(tablet.Token) != http.StatusUnauthorized || r.meStatus(phone.Token) != http.StatusUnauthorized {
		t.Errorf("the tokens signed in with the old code still work")
	}
	if r.meStatus(class.students["Ada"].token) != http.StatusOK {
		t.Errorf("Ada's own token stopped working with a reset of her code")
	}
	if resp := r.signIn(classCode, reset.Code); resp.StatusCode != http.StatusCreated {
		t.Errorf("the new code = %d", resp.StatusCode)
	}
	if resp := r.Post("/v1/classrooms/"+class.id+"/students/"+other.students["Cy"].id+"/sign-in-code", nil, bearer(class.teacher)...); resp.StatusCode != http.StatusNotFound ||
		resp.Problem(t).Code != "student_not_found" {
		t.Errorf("resetting another class's student = %d %s", resp.StatusCode, resp.Body)
	}

	// A removed student's code opens nothing.
	r.Do(r.Request(http.MethodDelete, "/v1/classrooms/"+class.id+"/students/"+class.students["Ben"].id, nil, bearer(class.teacher)...))
	if resp := r.signIn(classCode, codes["Ben"]); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a removed student's code = %d, want 404", resp.StatusCode)
	}
}

// A student holds at most five signed-in tokens: a sixth sign-in ends the oldest.
func TestStudentSignInsBounded(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{})
	class := r.newClassroom(t, "4A", "Dee")
	classCode, code := r.joinCode(t, class), r.codes(t, class)["Dee"]
	var tokens []string
	for range play.MaxStudentSignIns + 1 {
		var signed openapi.JoinedClassroom
		r.signIn(classCode, code).JSON(t, &signed)
		tokens = append(tokens, signed.Token)
	}
	if r.meStatus(tokens[0]) != http.StatusUnauthorized {
		t.Errorf("the oldest of %d sign-ins still works", len(tokens))
	}
	for _, tok := range tokens[1:] {
		if r.meStatus(tok) != http.StatusOK {
			t.Errorf("one of the newest %d sign-ins stopped working", play.MaxStudentSignIns)
		}
	}
}

// Refusals are not errors: wrong codes, an unknown class and the guard's refusals write no ERROR
// line, and no log line holds a code.
func TestRefusedStudentSignInLogsNoError(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{PerAddress: 3, PerAddressWindow: time.Hour, PerInstance: 100, PerInstanceWindow: time.Minute})
	class := r.newClassroom(t, "1A", "Eve")
	classCode, code := r.joinCode(t, class), r.codes(t, class)["Eve"]
	wrong := "ZZZZZZ"
	if code == wrong {
		wrong = "YYYYYY"
	}
	statuses := []int{}
	for range 4 {
		statuses = append(statuses, r.signIn(classCode, wrong).StatusCode)
	}
	if want := []int{404, 404, 404, 429}; !equalInts(statuses, want) {
		t.Fatalf("wrong codes answered %v, want %v (three guesses an address, then too_many_guesses)", statuses, want)
	}
	if resp := r.signIn(classCode, code); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the right code from a spent address = %d, want 429", resp.StatusCode)
	}
	logs := r.logs.String()
	if !strings.Contains(logs, "/v1/students/sign-in") {
		t.Fatalf("the sign-ins were not logged at all: %s", logs)
	}
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			t.Errorf("a refused sign-in wrote an ERROR line: %s", line)
		}
		if strings.Contains(line, wrong) || strings.Contains(line, code) || strings.Contains(line, classCode) {
			t.Errorf("a log line holds a code: %s", line)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Without SECRET_KEY there are no codes: 503 sign_in_codes_disabled, logged as no error.
func TestSignInCodesWithoutSecret(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "", api.GuessLimits{})
	class := r.newClassroom(t, "1A", "Fay")
	for name, resp := range map[string]*apitest.Response{
		"list":    r.Get("/v1/classrooms/"+class.id+"/sign-in-codes", bearer(class.teacher)...),
		"cards":   r.Get("/v1/classrooms/"+class.id+"/sign-in-cards.svg", bearer(class.teacher)...),
		"sign-in": r.signIn(r.joinCode(t, class), "ABCDEF"),
	} {
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Problem(t).Code != "sign_in_codes_disabled" {
			t.Errorf("%s = %d %s, want 503 sign_in_codes_disabled", name, resp.StatusCode, resp.Body)
		}
	}
	if strings.Contains(r.logs.String(), `"level":"ERROR"`) {
		t.Errorf("an ERROR line: %s", r.logs.String())
	}
}

// The cards: ten a page, each with the name, class code, personal code and a QR code of the link
// with the codes in its fragment; the PNG at 150 dpi; a page past the last is 404.
func TestSignInCards(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{})
	names := []string{"Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu"}
	class := r.newClassroom(t, "5C", names...)
	classCode, codes := r.joinCode(t, class), r.codes(t, class)
	path := "/v1/classrooms/" + class.id + "/sign-in-cards"

	first := r.Get(path+".svg", bearer(class.teacher)...)
	if first.StatusCode != http.StatusOK || first.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("page 1 = %d %v", first.StatusCode, first.Header)
	}
	if link := first.Header.Get("Link"); link != "<"+path+`.svg?paper=a4&page=2>; rel="next"` {
		t.Errorf("Link = %q", link)
	}
	svg := string(first.Body)
	if !strings.Contains(svg, `width="210mm" height="297mm"`) {
		t.Errorf("the page is not sized for A4: %.300s", svg)
	}
	if n := strings.Count(svg, `class="card"`); n != 10 {
		t.Errorf("page 1 has %d cards, want 10", n)
	}
	if !strings.Contains(svg, `data-code="`+codes["Ada"]+`"`) || !strings.Contains(svg, classCode) || strings.Contains(svg, "<image") {
		t.Errorf("Ada's card lacks her code or the class code, or the QR is an image")
	}
	if !strings.Contains(svg, "/app/sign-in#class="+classCode+"&amp;code="+codes["Ada"]) {
		t.Errorf("no sign-in link with the codes in its fragment")
	}
	second := r.Get(path+".svg?page=2", bearer(class.teacher)...)
	if n := strings.Count(string(second.Body), `class="card"`); second.StatusCode != http.StatusOK || n != 2 || second.Header.Get("Link") != "" {
		t.Errorf("page 2 = %d with %d cards, Link %q; want 2 cards and no next", second.StatusCode, n, second.Header.Get("Link"))
	}
	if resp := r.Get(path+".svg?page=3", bearer(class.teacher)...); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "page_not_found" {
		t.Errorf("page 3 = %d %s", resp.StatusCode, resp.Body)
	}
	if resp := r.Get(path+".svg?paper=a5", bearer(class.teacher)...); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("paper=a5 = %d, want 400", resp.StatusCode)
	}
	if resp := r.Get(path+".svg", bearer(class.students["Ada"].token)...); resp.StatusCode < 400 {
		t.Errorf("a student's cards = %d, want a refusal", resp.StatusCode)
	}

	for paper, size := range map[string][2]int{"a4": {1240, 1754}, "letter": {1275, 1650}} {
		resp := r.Get(path+".png?paper="+paper, bearer(class.teacher)...)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s PNG = %d %s", paper, resp.StatusCode, resp.Body)
		}
		img, err := png.Decode(bytes.NewReader(resp.Body))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != size[0] || b.Dy() != size[1] {
			t.Errorf("%s PNG is %v, want %v", paper, b.Size(), size)
		}
	}
}

// One class code's personal codes are guessed at most PerClass times from all addresses: past
// that, 429 too_many_guesses of scope classroom for that class only.
func TestClassBudgetOfSignInGuesses(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{PerAddress: 100, PerAddressWindow: time.Hour,
		PerInstance: 100, PerInstanceWindow: time.Minute, PerClass: 2, PerClassWindow: time.Hour})
	class := r.newClassroom(t, "1A", "Gus")
	other := r.newClassroom(t, "1B", "Hal")
	classCode, otherCode := r.joinCode(t, class), r.joinCode(t, other)
	wrong := "ZZZZZZ"
	for range 2 {
		if resp := r.signIn(classCode, wrong); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("a wrong code = %d", resp.StatusCode)
		}
	}
	resp := r.signIn(classCode, r.codes(t, class)["Gus"])
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("past the class's budget = %d, want 429: %s", resp.StatusCode, resp.Body)
	}
	var facts api.GuessFacts
	if err := json.Unmarshal(resp.Problem(t).Facts, &facts); err != nil || facts.Scope != "classroom" || facts.Limit != 2 {
		t.Errorf("facts = %+v (%v), want scope classroom, limit 2", facts, err)
	}
	if resp := r.signIn(otherCode, r.codes(t, other)["Hal"]); resp.StatusCode != http.StatusCreated {
		t.Errorf("another class's sign-in = %d, want 201", resp.StatusCode)
	}
}

// A new SECRET_KEY gives every student a new code, which works once the teacher lists the codes
// (or prints the cards) again; the old codes stop working.
func TestSignInCodesAfterANewSecret(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "the first secret", api.GuessLimits{})
	class := r.newClassroom(t, "2C", "Ida")
	classCode, before := r.joinCode(t, class), r.codes(t, class)["Ida"]

	srv, err := api.New(testConfig(), api.Deps{Play: newServiceOn(r.db, games.All(), nil, play.WithSignInCodeSecret([]byte("the second secret"))),
		Database: r.db, Feed: r.db}, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	after := &codesRig{gamesHarness: &gamesHarness{Server: apitest.Start(t, srv), db: r.db}, logs: r.logs}
	code := after.codes(t, class)["Ida"]
	if code == before || !codeShape.MatchString(code) {
		t.Fatalf("under a new secret the code is %q, was %q", code, before)
	}
	if resp := after.signIn(classCode, code); resp.StatusCode != http.StatusCreated {
		t.Errorf("the new code = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := after.signIn(classCode, before); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the old code = %d, want 404", resp.StatusCode)
	}
}

// A reset of the code ends, at once, the live stream a token signed in with the old code holds.
func TestResetEndsTheSignedInStream(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{})
	class := r.newClassroom(t, "3A", "Jo")
	var signed openapi.JoinedClassroom
	r.signIn(r.joinCode(t, class), r.codes(t, class)["Jo"]).JSON(t, &signed)
	stream := openEvStream(t, r.URL, "/v1/me/events", bearer(signed.Token)...)
	if resp := r.Post("/v1/classrooms/"+class.id+"/students/"+class.students["Jo"].id+"/sign-in-code", nil, bearer(class.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("reset = %d", resp.StatusCode)
	}
	stream.untilRevoked(t, "token_rotated")
}

// A child signs out of a shared device: the token of that sign-in stops working at once, the
// student's other sign-ins and own token keep working; the own token cannot sign out (it is the
// only key), a token signed out already gets 401 and another kind of token 403.
func TestStudentSignOut(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{})
	class := r.newClassroom(t, "4D", "Ada")
	classCode, code := r.joinCode(t, class), r.codes(t, class)["Ada"]
	var tablet, phone openapi.JoinedClassroom
	r.signIn(classCode, code).JSON(t, &tablet)
	r.signIn(classCode, code).JSON(t, &phone)
	own := class.students["Ada"].token

	resp := r.Post("/v1/students/sign-out", nil, bearer(tablet.Token)...)
	if resp.StatusCode != http.StatusNoContent || len(resp.Body) != 0 {
		t.Fatalf("sign-out = %d %q, want 204 and no body", resp.StatusCode, resp.Body)
	}
	if st := r.meStatus(tablet.Token); st != http.StatusUnauthorized {
		t.Errorf("the signed-out token = %d, want 401", st)
	}
	for _, tok := range []string{phone.Token, own} {
		if st := r.meStatus(tok); st != http.StatusOK {
			t.Errorf("another token of Ada's = %d, want it to keep working", st)
		}
	}
	for _, c := range []struct {
		name, token string
		status      int
		code        string
	}{
		{"again", tablet.Token, http.StatusUnauthorized, "unauthorized"},
		{"own token", own, http.StatusForbidden, "not_a_sign_in"},
		{"teacher token", class.teacher, http.StatusForbidden, "student_token_required"},
		{"no token", "", http.StatusUnauthorized, "unauthorized"},
	} {
		var headers []string
		if c.token != "" {
			headers = bearer(c.token)
		}
		resp := r.Post("/v1/students/sign-out", nil, headers...)
		if resp.StatusCode != c.status || resp.Problem(t).Code != c.code {
			t.Errorf("%s: sign-out = %d %s, want %d %s", c.name, resp.StatusCode, resp.Body, c.status, c.code)
		}
	}
	if st := r.meStatus(own); st != http.StatusOK {
		t.Errorf("the own token after its refused sign-out = %d, want 200", st)
	}
}

// Signing out ends, at once, the live streams the token holds, with token_revoked.
func TestSignOutEndsTheSignedInStream(t *testing.T) {
	t.Parallel()
	r := newCodesRig(t, "a deployment's secret", api.GuessLimits{})
	class := r.newClassroom(t, "3A", "Jo")
	var signed openapi.JoinedClassroom
	r.signIn(r.joinCode(t, class), r.codes(t, class)["Jo"]).JSON(t, &signed)
	stream := openEvStream(t, r.URL, "/v1/me/events", bearer(signed.Token)...)
	if resp := r.Post("/v1/students/sign-out", nil, bearer(signed.Token)...); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("sign-out = %d: %s", resp.StatusCode, resp.Body)
	}
	stream.untilRevoked(t, "token_revoked")
}
