package play

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"primegames/domain"
)

// ReplayStepSeconds is how long an animated replay shows each step.
const ReplayStepSeconds = 1.0

// Picture is an SVG picture of a game, with what a cache may be told about it.
type Picture struct {
	SVG []byte
	// Immutable: the picture can never change (a step of a game that is over).
	Immutable bool
	// Private: only some callers may see it (a classroom's game), so shared caches must not keep it.
	Private bool
}

// BoardPicture is the board of a kind of game with its legend, as SVG.
func (s *Service) BoardPicture(kindName string) ([]byte, error) {
	kind, ok := s.kinds.Lookup(kindName)
	if !ok {
		return nil, domain.Errorf(domain.KindNotFound, "not_found", "There is no game called %q.", kindName)
	}
	if kind.Picture != nil {
		if doc, ok := kind.Picture.BoardAlone("The "+kindName+" board", "The whole board with every number, each circle coloured by the number's prime factors, and a legend of the colours."); ok {
			return doc, nil
		}
	}
	return nil, domain.Errorf(domain.KindNotFound, "not_found", "The game %q has no board picture.", kindName)
}

// GamePicture draws the game after step seq, or now when seq is nil, as the principal may see it:
// the same view GET /v1/games/{id}/states/{seq} gives (PR-8), and the last action's outcome redacted
// for the same viewer.
func (s *Service) GamePicture(ctx context.Context, id string, p Principal, seq *int64) (*Picture, error) {
	g, caller, picture, err := s.pictureOf(ctx, id, p)
	if err != nil {
		return nil, err
	}
	through := int64(math.MaxInt64)
	if seq != nil {
		through = *seq
	}
	entries, err := s.store.EntriesThrough(ctx, g.ID, through)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 || seq != nil && entries[len(entries)-1].Seq != *seq {
		return nil, domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has no step %d.", g.ID, through)
	}
	entries = engineEntries(entries) // a resignation changes nothing on the board
	state, err := Fold(g, entries)
	if err != nil {
		return nil, err
	}
	viewer := ViewerFor(g.Status, caller)
	pos, err := positionOf(g, state, entries[len(entries)-1], viewer)
	if err != nil {
		return nil, err
	}
	doc, err := picture.Still(pos)
	if err != nil {
		return nil, err
	}
	return &Picture{SVG: doc, Immutable: seq != nil && g.Status.Over(), Private: g.ClassroomID != nil}, nil
}

// ReplayPicture is the whole game as one animated SVG, for a game that is over or for its teacher:
// the callers who see every step in full (PR-8).
func (s *Service) ReplayPicture(ctx context.Context, id string, p Principal) (*Picture, error) {
	g, caller, picture, err := s.pictureOf(ctx, id, p)
	if err != nil {
		return nil, err
	}
	if !g.Status.Over() && !caller.Teacher {
		return nil, domain.Errorf(domain.KindForbidden, "forbidden", "The replay of game %s is shown once the game is over, and to its teacher before.", g.ID)
	}
	entries, err := s.store.EntriesThrough(ctx, g.ID, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	entries = engineEntries(entries)
	viewer := ViewerFor(g.Status, caller)
	steps := make([]domain.Position, 0, len(entries))
	step := func(i int, state domain.State) error {
		pos, err := positionOf(g, state, entries[i], viewer)
		steps = append(steps, pos)
		return err
	}
	// The state before action i is the one after entry i; the fold's result is after the last.
	last, err := foldVisiting(g, entries, step)
	if err != nil {
		return nil, err
	}
	if err := step(len(entries)-1, last); err != nil {
		return nil, err
	}
	doc, err := picture.Replay(fmt.Sprintf("A replay of %s game %s", g.Kind, g.ID), steps, ReplayStepSeconds)
	if err != nil {
		return nil, err
	}
	return &Picture{SVG: doc, Immutable: g.Status.Over(), Private: g.ClassroomID != nil}, nil
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

// positionOf is the state after entry e as viewer may see it, with e's outcome redacted for viewer.
func positionOf(g *Game, state domain.State, e Entry, viewer domain.Viewer) (domain.Position, error) {
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
	return domain.Position{View: view, Last: last, Players: names, Seq: e.Seq}, nil
}
