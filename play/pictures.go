package play

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"primegames/domain"
	"primegames/domain/scene"
	"primegames/play/i18n"
)

// ReplayStepSeconds is how long an animated replay shows each step.
const ReplayStepSeconds = 1.0

// Picture is a picture of a game, as a scene the api writes as SVG or draws as PNG, with what a
// cache may be told about it.
type Picture struct {
	Scene *scene.Scene
	// Immutable: the picture can never change (a step of a game that is over).
	Immutable bool
	// Private: only some callers may see it (a classroom's game), so shared caches must not keep it.
	Private bool
}

// BoardPicture is the board of a kind of game with its legend.
func (s *Service) BoardPicture(kindName string, l domain.Layout) (*scene.Scene, error) {
	kind, ok := s.kinds.Lookup(kindName)
	if !ok {
		return nil, domain.Errorf(domain.KindNotFound, "not_found", "There is no game called %q.", kindName)
	}
	if kind.Picture != nil {
		if sc, ok := kind.Picture.BoardAlone(l, scene.Say("The %s board", kind.Picture.Title), scene.Say("The whole board with every number, each circle coloured by the number's prime factors, and a legend of the colours.")); ok {
			return sc, nil
		}
	}
	return nil, domain.Errorf(domain.KindNotFound, "not_found", "The game %q has no board picture.", kindName)
}

// GamePicture draws the game after step seq, or now when seq is nil, as the principal may see it:
// the same view GET /v1/games/{id}/states/{seq} gives (PR-8), and the last action's outcome redacted
// for the same viewer. Its cost is one step's drawing and a fold of at most checkpointEvery entries
// once the game's checkpoints are kept (checkpoints.go).
func (s *Service) GamePicture(ctx context.Context, id string, p Principal, seq *int64, l domain.Layout) (*Picture, error) {
	g, caller, picture, err := s.pictureOf(ctx, id, p)
	if err != nil {
		return nil, err
	}
	from, through := int64(math.MaxInt64), int64(-1) // now: the whole history
	if seq != nil {
		from, through = *seq, *seq
	}
	last, state, found, err := s.foldWindow(ctx, g, from, through, nil)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has no step %d.", g.ID, through)
	}
	viewer := ViewerFor(g.Status, caller)
	pos, err := positionOf(g, state, last, viewer, caller)
	if err != nil {
		return nil, err
	}
	sc, err := picture.Still(l, pos)
	if err != nil {
		return nil, err
	}
	return &Picture{Scene: sc, Immutable: seq != nil && g.Status.Over(), Private: g.ClassroomID != nil}, nil
}

// ReplayMaxSteps bounds the history entries one replay picture covers (and so its steps): a longer
// game is replayed in windows of at most this many entries, each naming the next.
const ReplayMaxSteps = 100

// replayFormat names the way replays are drawn, in their tags: a change of drawing changes it.
const replayFormat = "replay/4" // 4: words said from their parts in every language

// Replay is one window of a game's animated replay: the history entries from seq From through
// Through, drawn once Fold has rebuilt them.
type Replay struct {
	From, Through int64
	// Tag names the picture's content: the game's version, the window, the layout, the viewer's
	// seat and the players' names.
	Tag string
	// Immutable and Private as for a Picture.
	Immutable, Private bool
	// Next is the From of the window that follows, nil when this one reaches the end of the
	// history; Prev the From of the one before, nil for the first.
	Next, Prev *int64
	// Lang is the language the replay's words are said in (nil: English); set it before Draw or
	// Last, and name it in the Tag (api does).
	Lang *i18n.Lang

	service *Service
	game    *Game
	caller  Caller
	picture *domain.Picture
	layout  domain.Layout
	steps   []domain.Position
}

// ReplayPicture is a window of the game as one animated SVG, for a game that is over or for its
// teacher: the callers who see every step in full (PR-8). The window holds the history entries
// from seq `from`, count of them (at most ReplayMaxSteps); it is not folded nor drawn yet: a
// caller that has the picture already (its Tag) need not pay for it.
func (s *Service) ReplayPicture(ctx context.Context, id string, p Principal, from int64, count int, l domain.Layout) (*Replay, error) {
	g, caller, picture, err := s.pictureOf(ctx, id, p)
	if err != nil {
		return nil, err
	}
	if !g.Status.Over() && !caller.Teacher {
		return nil, domain.Errorf(domain.KindForbidden, "forbidden", "The replay of game %s is shown once the game is over, and to its teacher before.", g.ID)
	}
	if count <= 0 || count > ReplayMaxSteps {
		return nil, domain.Invalid("invalid", "A replay covers 1 to %d entries of the history at once; count was %d.", ReplayMaxSteps, count)
	}
	if from > math.MaxInt64-int64(count) {
		return nil, domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has no step %d.", g.ID, from)
	}
	r := &Replay{From: from, Through: from + int64(count) - 1, Immutable: g.Status.Over(), Private: g.ClassroomID != nil,
		service: s, game: g, caller: caller, picture: picture, layout: l}
	if from > 0 {
		r.Prev = ptrTo(max(0, from-int64(count)))
	}
	sum := sha256.New()
	fmt.Fprintf(sum, "%s\x00%s\x00%d\x00%d\x00%d\x00%s\x00%d", replayFormat, g.ID, g.Version, from, count, l, caller.Seat)
	for _, seat := range g.Seats {
		fmt.Fprintf(sum, "\x00%d\x00%s", seat.Seat, seat.Name)
	}
	r.Tag = `"r` + hex.EncodeToString(sum.Sum(nil)[:12]) + `"`
	return r, nil
}

// Fold rebuilds the window's steps as the caller sees them: a fold of at most checkpointEvery +
// count entries once the game's checkpoints are kept. A window that begins beyond the history is
// step_not_found.
func (r *Replay) Fold(ctx context.Context) error {
	g, viewer := r.game, ViewerFor(r.game.Status, r.caller)
	steps := make([]domain.Position, 0, r.Through-r.From+1)
	_, _, _, err := r.service.foldWindow(ctx, g, r.From, r.Through, func(e Entry, after domain.State) error {
		pos, err := positionOf(g, after, e, viewer, r.caller)
		steps = append(steps, pos)
		return err
	})
	if err != nil {
		return err
	}
	if len(steps) == 0 {
		// Beyond the history, or a window of the service's own entries only (a resignation), which
		// changed nothing on the board.
		return domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has no step to draw from entry %d through %d.", g.ID, r.From, r.Through)
	}
	r.steps = steps
	more, err := r.service.store.Entries(ctx, g.ID, r.Through, 1)
	if err != nil {
		return err
	}
	if len(more) > 0 {
		r.Next = ptrTo(r.Through + 1)
	}
	return nil
}

// Steps is the number of steps Fold rebuilt.
func (r *Replay) Steps() int { return len(r.steps) }

// Draw draws the folded window to out as an animated SVG as it goes, holding one step's drawing at
// a time.
func (r *Replay) Draw(out io.Writer) error {
	return r.picture.WriteReplay(out, r.layout, r.title(), r.steps, ReplayStepSeconds, r.Lang.Scene)
}

// Last is the folded window's last step as a still, with its step counter: the replay in a format
// that does not animate (PNG).
func (r *Replay) Last() (*scene.Scene, error) {
	sc, err := r.picture.ReplayLast(r.layout, r.title(), r.steps)
	return r.Lang.Scene(sc), err
}

// title names the replay by its kind and its players: "Prime Climb: Ann, Bob and Cy", the
// players' names said as they are in every language.
func (r *Replay) title() scene.Words {
	title := scene.Say("%s: %s", r.picture.Title, scene.Names(domain.SeatsWho(r.steps[0].Players, r.game.SeatCount)...))
	if r.From > 0 || r.Next != nil {
		title = scene.Say("%s: %s, entries %d to %d", r.picture.Title, scene.Names(domain.SeatsWho(r.steps[0].Players, r.game.SeatCount)...),
			r.steps[0].Seq, r.steps[len(r.steps)-1].Seq)
	}
	return title
}

// pictureOf reads a game that has steps to draw, identifies the principal in it, and finds its
// kind's pictures.
func (s *Service) pictureOf(ctx context.Context, id string, p Principal) (*Game, Caller, *domain.Picture, error) {
	g, caller, err := s.Get(ctx, id, p)
	if err != nil {
		return nil, caller, nil, err
	}
	kind, _ := s.kinds.Lookup(g.Kind)
	if kind.Picture == nil {
		return nil, caller, nil, domain.Errorf(domain.KindNotFound, "not_found", "Games of %s have no pictures.", g.Kind)
	}
	if g.State == nil {
		return nil, caller, nil, domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has not started, so there is nothing to draw yet.", g.ID)
	}
	return g, caller, kind.Picture, nil
}

// positionOf is the state after entry e as viewer may see it, with e's outcome redacted for viewer;
// the caller's seat is marked "you".
func positionOf(g *Game, state domain.State, e Entry, viewer domain.Viewer, caller Caller) (domain.Position, error) {
	view, err := json.Marshal(state.View(viewer))
	if err != nil {
		return domain.Position{}, err
	}
	outcome, err := g.Rules.DecodeOutcome(e.Outcome)
	if err != nil {
		return domain.Position{}, err
	}
	last, err := json.Marshal(outcome.Redact(viewer))
	if err != nil {
		return domain.Position{}, err
	}
	names := make([]string, g.SeatCount)
	for _, seat := range g.Seats {
		if seat.Seat >= 0 && seat.Seat < len(names) {
			names[seat.Seat] = seat.Name
		}
	}
	pos := domain.Position{View: view, Last: last, Players: names, Seq: e.Seq}
	if caller.HasSeat() {
		pos.You = &caller.Seat
	}
	return pos, nil
}
