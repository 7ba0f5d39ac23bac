package play

import (
	"testing"

	"primegames/domain"
)

func gameWithTokens(status Status, classroom *string) *GameRecord {
	g := &GameRecord{ID: "g1", Status: status, ClassroomID: classroom, CreatorHash: hashToken("pgc_creator")}
	if classroom == nil {
		g.Seats = []Seat{{Seat: 0, TokenHash: hashToken("pgs_zero")}, {Seat: 1, TokenHash: hashToken("pgs_one")}}
	} else {
		s0, s1 := "st0", "st1"
		g.Seats = []Seat{{Seat: 0, StudentID: &s0}, {Seat: 1, StudentID: &s1}}
	}
	return g
}

func member(kind PrincipalKind, classroom, student string) Principal {
	return Principal{Kind: kind, Resolved: true, ClassroomID: classroom, StudentID: student}
}

func TestCallerOfAGameOutsideClassrooms(t *testing.T) {
	t.Parallel()
	g := gameWithTokens(StatusActive, nil)
	for name, tc := range map[string]struct {
		p        Principal
		want     Caller
		wantCode string
	}{
		"nobody":        {Nobody, AnonymousCaller, ""},
		"seat token":    {IdentifyToken("pgs_one", ""), Caller{Seat: 1}, ""},
		"creator token": {IdentifyToken("pgc_creator", ""), Caller{Seat: -1, Creator: true}, ""},
		"other token":   {IdentifyToken("pgs_other", ""), AnonymousCaller, "unauthorized"},
		"admin token":   {IdentifyToken("adm", "adm"), AnonymousCaller, "unauthorized"},
		"a teacher":     {member(Teacher, "c1", ""), AnonymousCaller, "unauthorized"},
	} {
		got, err := CallerOf(g, tc.p)
		if domain.ErrorCode(err) != tc.wantCode && !(err == nil && tc.wantCode == "") {
			t.Errorf("%s: error %v, want code %q", name, err, tc.wantCode)
		}
		if got != tc.want {
			t.Errorf("%s: caller %+v, want %+v", name, got, tc.want)
		}
	}
}

// A game of a classroom exists only for its teacher and its players.
func TestCallerOfAClassroomGame(t *testing.T) {
	t.Parallel()
	c1 := "c1"
	active, lobby := gameWithTokens(StatusActive, &c1), gameWithTokens(StatusLobby, &c1)
	for name, tc := range map[string]struct {
		g        *GameRecord
		p        Principal
		want     Caller
		wantCode string
	}{
		"its teacher":              {active, member(Teacher, "c1", ""), ClassroomTeacher, ""},
		"another teacher":          {active, member(Teacher, "c2", ""), AnonymousCaller, "game_not_found"},
		"an unknown teacher token": {active, Principal{Kind: Teacher}, AnonymousCaller, "game_not_found"},
		"a player":                 {active, member(Student, "c1", "st1"), Caller{Seat: 1, StudentID: "st1"}, ""},
		"a classmate, not playing": {active, member(Student, "c1", "st9"), AnonymousCaller, "game_not_found"},
		"a classmate, in a lobby":  {lobby, member(Student, "c1", "st9"), Caller{Seat: -1, StudentID: "st9"}, ""},
		"nobody":                   {active, Nobody, AnonymousCaller, "game_not_found"},
		"a seat token":             {active, IdentifyToken("pgs_one", ""), AnonymousCaller, "game_not_found"},
	} {
		got, err := CallerOf(tc.g, tc.p)
		if code := domain.ErrorCode(err); err != nil && code != tc.wantCode || err == nil && tc.wantCode != "" {
			t.Errorf("%s: error %v, want code %q", name, err, tc.wantCode)
		}
		if got != tc.want {
			t.Errorf("%s: caller %+v, want %+v", name, got, tc.want)
		}
	}
}

// PR-8: everything is visible to the teacher and once the game is over; a player sees their own
// view; anyone else the public one.
func TestViewerFor(t *testing.T) {
	t.Parallel()
	player := Caller{Seat: 2}
	for _, tc := range []struct {
		status Status
		caller Caller
		want   domain.Viewer
	}{
		{StatusActive, AnonymousCaller, domain.Public},
		{StatusActive, Caller{Seat: -1, Creator: true}, domain.Public},
		{StatusActive, player, domain.Player(2)},
		{StatusActive, ClassroomTeacher, domain.Full},
		{StatusLobby, ClassroomTeacher, domain.Full},
		{StatusFinished, AnonymousCaller, domain.Full},
		{StatusAborted, player, domain.Full},
	} {
		if got := ViewerFor(tc.status, tc.caller); got != tc.want {
			t.Errorf("ViewerFor(%s, %+v) = %+v, want %+v", tc.status, tc.caller, got, tc.want)
		}
	}
}

func TestWhoMayActStartAbortReview(t *testing.T) {
	t.Parallel()
	g := gameWithTokens(StatusActive, nil)
	creator, player := Caller{Seat: -1, Creator: true}, Caller{Seat: 0}
	check := func(what string, err error, allowed bool) {
		t.Helper()
		if (err == nil) != allowed {
			t.Errorf("%s: error %v, allowed %v", what, err, allowed)
		}
	}
	check("player acts", MayAct(g, player), true)
	check("creator acts", MayAct(g, creator), false)
	check("player starts", MayStart(player), true)
	check("creator starts", MayStart(creator), true)
	check("anonymous starts", MayStart(AnonymousCaller), false)
	check("creator aborts", MayAbort(creator), true)
	check("player aborts", MayAbort(player), false)
	check("teacher reviews an active game", MayReview(StatusActive, ClassroomTeacher), true)
	check("player reviews an active game", MayReview(StatusActive, player), false)
	check("player reviews a finished game", MayReview(StatusFinished, player), true)
	if code := domain.ErrorCode(MaySeeLegalActions(g, creator)); code != "forbidden" {
		t.Errorf("creator's legal actions: %q, want forbidden", code)
	}
	if code := domain.ErrorCode(MaySeeLegalActions(g, AnonymousCaller)); code != "unauthorized" {
		t.Errorf("anonymous legal actions: %q, want unauthorized", code)
	}
}

func TestMayRunClassroom(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		p    Principal
		want string
	}{
		"its teacher":        {member(Teacher, "c1", ""), ""},
		"another teacher":    {member(Teacher, "c2", ""), "classroom_not_found"},
		"a student":          {member(Student, "c1", "st1"), "unauthorized"},
		"an unknown teacher": {Principal{Kind: Teacher}, "unauthorized"},
		"nobody":             {Nobody, "unauthorized"},
	} {
		err := MayRunClassroom(tc.p, "c1")
		if got := domain.ErrorCode(err); err != nil && got != tc.want || err == nil && tc.want != "" {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
	}
}

// The token's hash is what the database keeps; the idempotency credential must not be it.
func TestIdentifyTokenKeepsNoRawToken(t *testing.T) {
	t.Parallel()
	p := IdentifyToken("pgl_abc", "")
	if p.Kind != Student || string(p.TokenHash) != string(hashToken("pgl_abc")) {
		t.Fatalf("principal %+v", p)
	}
	if string(p.credential) == string(p.TokenHash) {
		t.Fatal("the idempotency credential is the stored token hash")
	}
	for kind, prefix := range tokenPrefixes {
		token, _ := NewToken(kind)
		if token[:4] != prefix {
			t.Errorf("token %q of kind %d lacks prefix %q", token, kind, prefix)
		}
	}
}
