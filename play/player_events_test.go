package play_test

import (
	"encoding/json"
	"slices"
	"testing"

	"primegames/domain"
	"primegames/play"
)

// What a player's stream tells seat 1 of a game, entry by entry: the start; its turn once per
// turn (its own entries that leave it to act, like Prime Climb's roll before the move, tell
// nothing); an entry the server made for it when its turn clock ran out; nothing once a computer
// plays its seat or the game is over.
func TestSeatFollowerTellsEachTurnOnce(t *testing.T) {
	t.Parallel()
	g := &play.Game{GameRecord: play.GameRecord{ID: "g", Status: play.StatusActive, Version: 20,
		Seats: []play.Seat{{Seat: 0}, {Seat: 1}, {Seat: 2}}}, Rules: turnRules{}}
	seat := func(n int) *int { return &n }
	steps := []struct {
		entry play.Entry
		want  []play.PlayerEvent
	}{
		{play.Entry{Seq: 0, Action: json.RawMessage(`{"type":"start"}`)}, []play.PlayerEvent{play.GameStarted}},
		{play.Entry{Seq: 1, Seat: seat(0), Action: next(1)}, []play.PlayerEvent{play.YourTurn}},
		{play.Entry{Seq: 2, Seat: seat(1), Action: next(1)}, nil}, // the roll: still seat 1's turn
		{play.Entry{Seq: 3, Seat: seat(1), Action: next(2)}, nil}, // the move ends it
		{play.Entry{Seq: 4, Seat: seat(2), Action: next(1)}, []play.PlayerEvent{play.YourTurn}},
		{play.Entry{Seq: 5, Seat: seat(1), Action: next(1), Timeout: true}, []play.PlayerEvent{play.TimedOut}},
		{play.Entry{Seq: 6, Seat: seat(1), Action: next(0), Timeout: true}, []play.PlayerEvent{play.TimedOut}},
		{play.Entry{Seq: 7, Seat: seat(0), Action: next(0), Timeout: true}, nil}, // another seat's timeout
		{play.Entry{Seq: 8, Seat: seat(0), Action: next(0, 1)}, []play.PlayerEvent{play.YourTurn}},
		{play.Entry{Seq: 9, Seat: seat(0), Action: next(1)}, nil}, // seat 1 was to act already
		{play.Entry{Seq: 10, Seat: seat(1), Action: next(2)}, nil},
		{play.Entry{Seq: 11, Seat: seat(2), Action: next(1), Version: 20}, nil}, // the last version: the game is finished
	}
	f := play.NewSeatFollower(1)
	for i, step := range steps {
		if i == len(steps)-1 {
			g.Status = play.StatusFinished
		}
		got, err := f.Next(g, step.entry)
		if err != nil {
			t.Fatalf("entry %d: %v", step.entry.Seq, err)
		}
		if !slices.Equal(got, step.want) {
			t.Errorf("entry %d: %v, want %v", step.entry.Seq, got, step.want)
		}
	}

	// A resigned seat that a computer plays is never told it is its turn.
	g = &play.Game{GameRecord: play.GameRecord{ID: "h", Status: play.StatusActive, Version: 9,
		Seats: []play.Seat{{Seat: 0}, {Seat: 1, Bot: domain.Level("greedy")}, {Seat: 2}}}, Rules: turnRules{}}
	f = play.NewSeatFollower(1)
	for _, e := range []play.Entry{{Seq: 0}, {Seq: 1, Seat: seat(0), Action: next(1)}} {
		if got, err := f.Next(g, e); err != nil || slices.Contains(got, play.YourTurn) {
			t.Errorf("entry %d for a computer's seat: %v %v", e.Seq, got, err)
		}
	}
}

func next(seats ...int) json.RawMessage {
	b, _ := json.Marshal(seats)
	return b
}

// turnRules is a game whose every action names the seats to act next; seat 0 starts.
type turnRules struct{}

type turnState []int

func (turnRules) Name() string { return "turns" }
func (turnRules) Options(json.RawMessage) (json.RawMessage, domain.SeatRange, error) {
	return json.RawMessage(`{}`), domain.SeatRange{Min: 1, Max: 4}, nil
}
func (turnRules) Start(json.RawMessage, int, domain.Rand) (domain.State, domain.Outcome, error) {
	return turnState{0}, nil, nil
}
func (turnRules) Decode(json.RawMessage) (domain.State, error)          { return nil, nil }
func (turnRules) DecodeOutcome(json.RawMessage) (domain.Outcome, error) { return nil, nil }

func (s turnState) Apply(_ int, action json.RawMessage, _ domain.Rand) (domain.State, domain.Outcome, error) {
	var next turnState
	err := json.Unmarshal(action, &next)
	return next, nil, err
}
func (s turnState) Status() domain.Status  { return domain.Status{Phase: "play", ToAct: s} }
func (s turnState) View(domain.Viewer) any { return s }
func (s turnState) LegalActions(int) any   { return nil }
func (s turnState) Scores() any            { return nil }
