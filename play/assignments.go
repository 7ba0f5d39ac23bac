package play

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"primegames/domain"
)

// Assignments (issue 42): a teacher asks the classroom's students to finish Games games of a kind
// by DueAt, against a computer player of a level (Bot) or with classmates (GroupSize students a
// game, grouped by the service as they ask). A student asks for the assignment's games one at a
// time (StartAssigned); the store counts each game the student finishes in the transaction that
// ends it (migration 00055's trigger), so the progress read is never worked out per request.

// MaxAssignmentGames bounds the games one assignment asks for.
const MaxAssignmentGames = 20

// MaxAssignments bounds the assignments one classroom holds (deleting one makes room).
const MaxAssignments = 200

// maxAssignmentTitle bounds an assignment's title, in characters.
const maxAssignmentTitle = 200

// ErrFull is what a store answers when a bounded set (assignments, LTI registrations, an account's classrooms) holds as
// many rows as it may.
var ErrFull = errors.New("full")

// Assignment is a teacher's request for games, with each listed student's progress when read for
// a list.
type Assignment struct {
	ID          string
	ClassroomID string
	Title       string
	Kind        string
	Options     json.RawMessage
	Games       int
	// Bot is the computer player's level against which each game is played; empty when the games
	// are played with classmates, GroupSize of them a game.
	Bot       domain.Level
	GroupSize int
	DueAt     time.Time
	CreatedAt time.Time
	// Gradebook is how the assignment's column in the LMS's gradebook stands; nil when it is none
	// (lti_grades.go).
	Gradebook *AssignmentGradebook
	// Progress is each current student's (the teacher's list) or the one student's (a student's
	// list).
	Progress []AssignmentProgress
}

// AssignmentProgress is how far a student is with an assignment: GamesDone games of it finished,
// GamesLate of them after its due time; Done once GamesDone reaches the games asked.
type AssignmentProgress struct {
	StudentID   string
	StudentName string
	GamesDone   int
	GamesLate   int
	Done        bool
	// OpenGameID is the student's game of the assignment not yet over, if any.
	OpenGameID string
}

// NewAssignment is what a teacher asks for.
type NewAssignment struct {
	Title     string
	Kind      string
	Options   json.RawMessage
	Games     int
	Bot       domain.Level
	GroupSize int
	DueAt     time.Time
}

// AssignmentChange is what a teacher changes in an assignment: the fields set.
type AssignmentChange struct {
	Title *string
	Games *int
	DueAt *time.Time
}

// AssignmentStore keeps assignments and reads their progress.
type AssignmentStore interface {
	// InsertAssignment stores a new assignment (setting its ID and CreatedAt from now); ErrFull when
	// its classroom holds max assignments already.
	InsertAssignment(ctx context.Context, a *Assignment, now time.Time, max int) error
	// Assignments lists a classroom's assignments, oldest first, each with every current student's
	// progress (those who have not started at zero).
	Assignments(ctx context.Context, classroomID string) ([]Assignment, error)
	// Assignment reads one of a classroom's assignments with every current student's progress;
	// ErrNotFound when the classroom has none of that id.
	Assignment(ctx context.Context, classroomID, id string) (*Assignment, error)
	// ChangeAssignment applies a change and returns the assignment as AssignmentStore.Assignment
	// does; ErrNotFound when there is none.
	ChangeAssignment(ctx context.Context, classroomID, id string, change AssignmentChange) (*Assignment, error)
	// DeleteAssignment deletes an assignment with its progress; its games stay. ErrNotFound when
	// there is none.
	DeleteAssignment(ctx context.Context, classroomID, id string) error
	// StudentAssignments lists the assignments of a current student's classroom, oldest first,
	// each with that student's progress only.
	StudentAssignments(ctx context.Context, classroomID, studentID string) ([]Assignment, error)
	// AssignmentsDoneBy lists, as AssignmentDoneEvent notices, the (assignment, current student)
	// pairs that the game's end made done.
	AssignmentsDoneBy(ctx context.Context, gameID string) ([]AssignmentNotice, error)
	// AssignmentDueSoon lists, as AssignmentDueSoonEvent notices, the assignment's current
	// students not done.
	AssignmentDueSoon(ctx context.Context, assignmentID string) ([]AssignmentNotice, error)
}

// AssignmentTx gives a student the assignment's games, in the transaction that creates or joins
// them.
type AssignmentTx interface {
	// LockAssignmentProgress locks the assignment (so that starts of one assignment queue) and the
	// student's progress row, creating it at zero, and reads both; ErrNotFound when the classroom
	// has no such assignment or no such current student.
	LockAssignmentProgress(ctx context.Context, classroomID, assignmentID, studentID string) (*Assignment, *AssignmentProgress, error)
	// OpenAssignmentLobby is the id of the oldest game of the assignment still in its lobby;
	// ErrNotFound when there is none.
	OpenAssignmentLobby(ctx context.Context, assignmentID string) (string, error)
	// LinkAssignmentGame records that the game was started from the assignment (when it is not
	// yet) and that it is the student's open game of it.
	LinkAssignmentGame(ctx context.Context, assignmentID, gameID, studentID string) error
	// ClaimDueSoon takes one assignment due within lead of the transaction's now (and not yet
	// due) whose assignment_due_soon events have not been sent, marks them sent and announces them
	// (to the classroom's streams, on commit, and to the webhook outbox); ErrNotFound when none is.
	ClaimDueSoon(ctx context.Context, lead time.Duration) (*Assignment, error)
}

// assignments keeps assignments (assignments.go): the kinds check what they ask for.
type assignments struct {
	store AssignmentStore
	kinds *domain.Catalogue
	clock Clock
}

func assignmentNotFound() error {
	return domain.Errorf(domain.KindNotFound, "assignment_not_found", "There is no such assignment in this classroom.")
}

// CreateAssignment stores a classroom's new assignment.
func (s *Service) CreateAssignment(ctx context.Context, classroomID string, in NewAssignment) (*Assignment, error) {
	return s.assignments.create(ctx, classroomID, in)
}

// Assignments lists a classroom's assignments with every current student's progress.
func (s *Service) Assignments(ctx context.Context, classroomID string) ([]Assignment, error) {
	return s.assignments.store.Assignments(ctx, classroomID)
}

// Assignment reads one of a classroom's assignments with every current student's progress.
func (s *Service) Assignment(ctx context.Context, classroomID, id string) (*Assignment, error) {
	a, err := s.assignments.store.Assignment(ctx, classroomID, id)
	if errors.Is(err, ErrNotFound) {
		return nil, assignmentNotFound()
	}
	return a, err
}

// ChangeAssignment changes an assignment's title, games or due time.
func (s *Service) ChangeAssignment(ctx context.Context, classroomID, id string, change AssignmentChange) (*Assignment, error) {
	a, err := s.assignments.change(ctx, classroomID, id, change)
	if err != nil || a.Gradebook == nil || change.Title == nil && change.Games == nil {
		return a, err
	}
	// The gradebook's column shows the new title and games, its scores of the new games
	// (lti_grades.go).
	if err := s.store.LTIGradeStore.RequeueLTIGrades(ctx, id); err != nil {
		return nil, err
	}
	return s.store.Assignment(ctx, classroomID, id)
}

// DeleteAssignment deletes an assignment and its progress; its games stay as they are.
func (s *Service) DeleteAssignment(ctx context.Context, classroomID, id string) error {
	err := s.assignments.store.DeleteAssignment(ctx, classroomID, id)
	if errors.Is(err, ErrNotFound) {
		return assignmentNotFound()
	}
	return err
}

// StudentAssignments lists the assignments of the student p is, with their own progress.
func (s *Service) StudentAssignments(ctx context.Context, p Principal) ([]Assignment, error) {
	if err := mustBeStudent(p); err != nil {
		return nil, err
	}
	return s.assignments.store.StudentAssignments(ctx, p.ClassroomID, p.StudentID)
}

func mustBeStudent(p Principal) error {
	switch {
	case p.Kind == Student && p.Resolved:
		return nil
	case p.Kind == Anonymous || p.Kind == Student:
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a current student's token: send it as Authorization: Bearer <token>.")
	}
	return domain.Errorf(domain.KindForbidden, "forbidden", "Only a student has assignments to play; a teacher reads the classroom's assignments instead.")
}

func checkTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if title == "" || utf8.RuneCountInString(title) > maxAssignmentTitle || !utf8.ValidString(title) {
		return "", domain.Invalid("invalid", "An assignment's title takes 1 to %d characters.", maxAssignmentTitle)
	}
	return title, nil
}

func checkGames(n int) error {
	if n < 1 || n > MaxAssignmentGames {
		return domain.Invalid("invalid", "An assignment asks for 1 to %d games; %d were asked for.", MaxAssignmentGames, n)
	}
	return nil
}

func (as *assignments) create(ctx context.Context, classroomID string, in NewAssignment) (*Assignment, error) {
	title, err := checkTitle(in.Title)
	if err != nil {
		return nil, err
	}
	if err := checkGames(in.Games); err != nil {
		return nil, err
	}
	kind, ok := as.kinds.Lookup(in.Kind)
	if !ok {
		return nil, domain.Invalid("invalid", "There is no game called %q.", in.Kind)
	}
	options := in.Options
	if len(options) == 0 {
		options = json.RawMessage(`{}`)
	}
	engineOptions, _, err := splitSettings(options)
	if err != nil {
		return nil, err
	}
	_, seats, err := kind.Rules.Options(engineOptions)
	if err != nil {
		return nil, err
	}
	switch {
	case (in.Bot == "") == (in.GroupSize == 0):
		return nil, domain.Invalid("invalid", "Give the opponents as either a computer player (bot) or classmates, not both.")
	case in.Bot != "":
		if !slices.Contains(domain.Levels, in.Bot) {
			return nil, domain.Invalid("invalid", "There is no computer player level %q; choose random, greedy or expert.", in.Bot)
		}
		if seats.Min > 2 || seats.Max < 2 {
			return nil, domain.Invalid("invalid_seat_count", "%s with these options takes %s; a student and a computer player are 2.", kind.Rules.Name(), playerRange(seats)).
				WithFacts(SeatCountFacts{Min: seats.Min, Max: seats.Max, Seats: 2})
		}
	default:
		if in.GroupSize < max(2, seats.Min) || in.GroupSize > seats.Max {
			return nil, domain.Invalid("invalid_seat_count", "Groups of %d classmates do not fit %s with these options, which takes %s (and classmates are at least 2).",
				in.GroupSize, kind.Rules.Name(), playerRange(seats)).
				WithFacts(SeatCountFacts{Min: max(2, seats.Min), Max: seats.Max, Seats: in.GroupSize})
		}
	}
	a := &Assignment{ClassroomID: classroomID, Title: title, Kind: kind.Rules.Name(), Options: options, Games: in.Games, Bot: in.Bot,
		GroupSize: in.GroupSize, DueAt: in.DueAt.UTC().Truncate(time.Microsecond)}
	err = as.store.InsertAssignment(ctx, a, as.clock.Now(), MaxAssignments)
	if errors.Is(err, ErrFull) {
		return nil, domain.Errorf(domain.KindConflict, "too_many_assignments",
			"This classroom holds %d assignments, as many as it may; delete one it no longer needs.", MaxAssignments)
	}
	return a, err
}

func (as *assignments) change(ctx context.Context, classroomID, id string, change AssignmentChange) (*Assignment, error) {
	if change.Title != nil {
		title, err := checkTitle(*change.Title)
		if err != nil {
			return nil, err
		}
		change.Title = &title
	}
	if change.Games != nil {
		if err := checkGames(*change.Games); err != nil {
			return nil, err
		}
	}
	if change.DueAt != nil {
		due := change.DueAt.UTC().Truncate(time.Microsecond)
		change.DueAt = &due
	}
	a, err := as.store.ChangeAssignment(ctx, classroomID, id, change)
	if errors.Is(err, ErrNotFound) {
		return nil, assignmentNotFound()
	}
	return a, err
}

// AssignedGame is a game a student asked for from an assignment: New when this request created or
// joined it, false when it is the student's open game of the assignment already (a request
// repeated, or two at once).
type AssignedGame struct {
	Game         *Game
	Seat         int
	AssignmentID string
	New          bool
}

// StartAssigned gives the student p is a game of the assignment: the student's open game of it if
// they have one (one at a time); else, against the computer, a new game started at once; with
// classmates, a seat in the assignment's open lobby, whose game starts when its last seat is
// taken, or a new lobby. A student who has finished the games asked gets 409 assignment_complete.
func (s *Service) StartAssigned(ctx context.Context, p Principal, assignmentID string) (*AssignedGame, error) {
	if err := mustBeStudent(p); err != nil {
		return nil, err
	}
	var out struct {
		rec    *GameRecord
		openID string
		fresh  bool
	}
	err := s.update(ctx, func(tx Tx) error {
		out.rec, out.openID, out.fresh = nil, "", false
		a, progress, err := tx.LockAssignmentProgress(ctx, p.ClassroomID, assignmentID, p.StudentID)
		if errors.Is(err, ErrNotFound) {
			return assignmentNotFound()
		}
		if err != nil {
			return err
		}
		if progress.OpenGameID != "" {
			// Read once committed, not locked here: a step ending that game holds its lock and
			// waits for this progress row.
			out.openID = progress.OpenGameID
			return nil
		}
		if progress.GamesDone >= a.Games {
			return domain.Errorf(domain.KindConflict, "assignment_complete",
				"You have finished the %d games of this assignment already.", a.Games)
		}
		out.fresh = true
		out.rec, err = s.assignedGame(ctx, tx, a, p.StudentID)
		if err != nil {
			return err
		}
		return tx.LinkAssignmentGame(ctx, a.ID, out.rec.ID, p.StudentID)
	})
	if err != nil {
		return nil, err
	}
	if out.openID != "" {
		if out.rec, err = s.store.Game(ctx, out.openID); err != nil {
			return nil, err
		}
	}
	seat := -1
	for _, st := range out.rec.Seats {
		if st.StudentID != nil && *st.StudentID == p.StudentID {
			seat = st.Seat
		}
	}
	if out.fresh {
		s.wakeBotsFor(out.rec)
	}
	g, err := s.decodeGame(out.rec)
	if err != nil {
		return nil, err
	}
	return &AssignedGame{Game: g, Seat: seat, AssignmentID: assignmentID, New: out.fresh}, nil
}

// assignedGame creates or joins the student's next game of the assignment.
func (s *Service) assignedGame(ctx context.Context, tx Tx, a *Assignment, studentID string) (*GameRecord, error) {
	rules, err := s.rulesFor(a.Kind)
	if err != nil {
		return nil, err
	}
	engineOptions, settings, err := splitSettings(a.Options)
	if err != nil {
		return nil, err
	}
	options, seats, err := rules.Options(engineOptions)
	if err != nil {
		return nil, err
	}
	c := creation{NewGame: NewGame{Kind: a.Kind, Options: options}, rules: rules, seats: seats, classroomID: a.ClassroomID, settings: settings,
		owner: Owner{Client: "classroom:" + a.ClassroomID}}
	if a.Bot != "" {
		bots, err := groupBots([]domain.Level{a.Bot}, seats)
		if err != nil {
			return nil, err
		}
		c.Students, c.Bots = []string{studentID}, seatedAfter(bots, 1)
		created, err := createGame(ctx, tx, c)
		return created.Game, err
	}
	lobbyID, err := tx.OpenAssignmentLobby(ctx, a.ID)
	switch {
	case errors.Is(err, ErrNotFound):
		c.OpenSeats = a.GroupSize
		created, err := createGame(ctx, tx, c)
		if err != nil {
			return nil, err
		}
		lobbyID = created.Game.ID
	case err != nil:
		return nil, err
	}
	g, err := lockGame(ctx, tx.GameTx, lobbyID)
	if err != nil {
		return nil, err
	}
	joined, err := joinGame(ctx, tx, g, Seat{StudentID: &studentID}, nil)
	if err != nil {
		return nil, err
	}
	g = joined.Game
	if len(g.Seats) >= g.SeatCount {
		if err := startGame(ctx, tx, g, rules, len(g.Seats)); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Assignment events: what the streams and webhooks tell of assignments.
const (
	AssignmentDoneEvent    = "assignment_done"
	AssignmentDueSoonEvent = "assignment_due_soon"
)

// AssignmentNotice is an assignment event about one student: the assignment, the student's
// progress, and for AssignmentDoneEvent the game whose end made them done.
type AssignmentNotice struct {
	Event        string
	AssignmentID string
	ClassroomID  string
	Title        string
	Games        int
	DueAt        time.Time
	StudentID    string
	StudentName  string
	GamesDone    int
	GamesLate    int
	GameID       string
}

// AssignmentsDoneBy lists the assignment_done notices of a finished game: each (assignment,
// student) whose games_done reached the games asked when it ended.
func (s *Service) AssignmentsDoneBy(ctx context.Context, gameID string) ([]AssignmentNotice, error) {
	return s.assignments.store.AssignmentsDoneBy(ctx, gameID)
}

// webhookAssignmentEvent is the data of an assignment's webhook: the contract's AssignmentEvent.
type webhookAssignmentEvent struct {
	Event        string    `json:"event"`
	AssignmentID string    `json:"assignment_id"`
	ClassroomID  string    `json:"classroom_id"`
	Title        string    `json:"title"`
	Games        int       `json:"games"`
	DueAt        time.Time `json:"due_at"`
	StudentID    string    `json:"student_id"`
	Name         string    `json:"name"`
	GamesDone    int       `json:"games_done"`
	GamesLate    int       `json:"games_late"`
	Done         bool      `json:"done"`
	GameID       string    `json:"game_id,omitempty"`
}

func assignmentWebhookData(n AssignmentNotice) webhookAssignmentEvent {
	return webhookAssignmentEvent{Event: n.Event, AssignmentID: n.AssignmentID, ClassroomID: n.ClassroomID, Title: n.Title, Games: n.Games,
		DueAt: n.DueAt.UTC(), StudentID: n.StudentID, Name: n.StudentName, GamesDone: n.GamesDone, GamesLate: n.GamesLate,
		Done: n.GamesDone >= n.Games, GameID: n.GameID}
}

// assignmentDoneWebhookEvents are the assignment_done events of a finished game's end, each for
// the seat of the student it made done.
func (s *Service) assignmentDoneWebhookEvents(ctx context.Context, g *Game, at time.Time) ([]webhookEvent, error) {
	if g.Status != StatusFinished || g.ClassroomID == nil {
		return nil, nil
	}
	notices, err := s.AssignmentsDoneBy(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	var events []webhookEvent
	for _, n := range notices {
		for _, seat := range g.Seats {
			if seat.StudentID != nil && *seat.StudentID == n.StudentID {
				events = append(events, webhookEvent{Type: n.Event, Seat: &seat.Seat, At: at, Data: assignmentWebhookData(n)})
			}
		}
	}
	return events, nil
}

// DueSoonLead is how long before an assignment's due time its assignment_due_soon events go out.
const DueSoonLead = 24 * time.Hour

// dueSoonPrefix names an assignment's due-soon announcement among the games a classroom stream
// hears of (AssignmentNoticeName).
const dueSoonPrefix = "assignment-"

// DueSoonOutboxSeq is the seq of the webhook outbox row, under an assignment's id, of its
// assignment_due_soon events.
const DueSoonOutboxSeq = -2

// AssignmentNoticeName is the name under which the classroom's streams hear of an assignment's
// due-soon events.
func AssignmentNoticeName(assignmentID string) string { return dueSoonPrefix + assignmentID }

// DueSoonAssignment is the assignment a name a stream heard of announces, if it is one.
func DueSoonAssignment(name string) (string, bool) {
	return strings.CutPrefix(name, dueSoonPrefix)
}

// RemindDueSoon is the worker's job for assignments: it claims one assignment due within
// DueSoonLead of the clock's now whose assignment_due_soon events have not gone out, and sends
// them. acted reports whether it claimed one.
func (s *Service) RemindDueSoon(ctx context.Context) (acted bool, err error) {
	err = s.update(ctx, func(tx Tx) error {
		acted = false
		_, err := tx.ClaimDueSoon(ctx, DueSoonLead)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		acted = err == nil
		return err
	})
	return acted, err
}

// AssignmentDueSoon lists the assignment_due_soon notices of an assignment: its current students
// not done, as they are now.
func (s *Service) AssignmentDueSoon(ctx context.Context, assignmentID string) ([]AssignmentNotice, error) {
	return s.assignments.store.AssignmentDueSoon(ctx, assignmentID)
}

// assignmentDueSoonWebhookEvents are the assignment_due_soon events of an assignment, for its
// classroom's and the service's subscriptions.
func (s *Service) assignmentDueSoonWebhookEvents(ctx context.Context, assignmentID string, at time.Time) ([]webhookEvent, error) {
	notices, err := s.AssignmentDueSoon(ctx, assignmentID)
	if err != nil {
		return nil, err
	}
	events := make([]webhookEvent, len(notices))
	for i, n := range notices {
		events[i] = webhookEvent{Type: n.Event, At: at, Data: assignmentWebhookData(n)}
	}
	return events, nil
}
