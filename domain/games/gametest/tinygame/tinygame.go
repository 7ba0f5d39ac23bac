// Package tinygame is a kind of game for tests only: it shows that a kind is one package plus one
// registry entry. Players take turns taking one or two counters from a pile, or roll to take one or
// two at random; whoever takes the last counter wins.
package tinygame

import (
	_ "embed"
	"encoding/json"

	"primegames/domain"
)

//go:embed schemas.yaml
var schemas []byte

// Kind is the tiny game as a service hosts it: no board, one measure, an exact advisor.
var Kind = domain.GameKind{Rules: rules{}, Schemas: schemas, Tally: tally, Measures: measures, Advisor: &advisor}

type rules struct{}

type options struct {
	Pile int `json:"pile"`
}

func (rules) Name() string { return "tiny" }

func (rules) Options(raw json.RawMessage) (json.RawMessage, domain.SeatRange, error) {
	opts, err := parseOptions(raw)
	if err != nil {
		return nil, domain.SeatRange{}, err
	}
	canonical, err := json.Marshal(opts)
	return canonical, domain.SeatRange{Min: 1, Max: 3}, err
}

func parseOptions(raw json.RawMessage) (options, error) {
	opts := options{Pile: 7}
	if len(raw) > 0 && string(raw) != "null" {
		if err := domain.DecodeStrict(raw, &opts); err != nil {
			return options{}, domain.Invalid("invalid_options", "tiny options: %v", err)
		}
	}
	if opts.Pile < 1 || opts.Pile > 30 {
		return options{}, domain.Invalid("invalid_options", "the pile holds 1 to 30 counters, not %d", opts.Pile)
	}
	return opts, nil
}

func (rules) Start(raw json.RawMessage, seats int, r domain.Rand) (domain.State, domain.Outcome, error) {
	opts, err := parseOptions(raw)
	if err != nil {
		return nil, nil, err
	}
	first := r.IntN(seats)
	s := state{Game: "tiny", Pile: opts.Pile, Taken: make([]int, seats), ToAct: first}
	return s, outcome{Type: "start", Seat: first, Pile: s.Pile}, nil
}

func (rules) Decode(snapshot json.RawMessage) (domain.State, error) {
	var s state
	if err := domain.DecodeStrict(snapshot, &s); err != nil {
		return nil, domain.Invalid("invalid_snapshot", "not a tiny state: %v", err)
	}
	return s, nil
}

func (rules) DecodeOutcome(raw json.RawMessage) (domain.Outcome, error) {
	var o outcome
	if err := domain.DecodeStrict(raw, &o); err != nil {
		return nil, domain.Invalid("invalid_outcome", "not a tiny outcome: %v", err)
	}
	return o, nil
}

// state is also the view: nothing in the tiny game is hidden.
type state struct {
	Game   string `json:"game"`
	Pile   int    `json:"pile"`
	Taken  []int  `json:"taken"`
	ToAct  int    `json:"to_act"`
	Winner *int   `json:"winner"`
}

type action struct {
	Type  string `json:"type"`
	Count int    `json:"count,omitempty"`
}

// outcome is the start (Seat acts first) or one take (Seat took Count).
type outcome struct {
	Type  string `json:"type"`
	Seat  int    `json:"seat"`
	Count int    `json:"count"`
	Pile  int    `json:"pile"`
}

func (o outcome) Redact(domain.Viewer) any { return o }

func (s state) Apply(seat int, raw json.RawMessage, r domain.Rand) (domain.State, domain.Outcome, error) {
	var a action
	if err := domain.DecodeStrict(raw, &a); err != nil {
		return nil, nil, domain.Invalid("invalid_action", "not a tiny action: %v", err)
	}
	if s.Winner != nil {
		return nil, nil, domain.Illegal("game_over", "the pile is empty")
	}
	if seat != s.ToAct {
		return nil, nil, domain.NotYourTurn("it is seat %d's turn", s.ToAct)
	}
	switch {
	case a.Type == "roll" && a.Count == 0:
		a.Count = min(1+r.IntN(2), s.Pile)
	case a.Type == "take" && (a.Count == 1 || a.Count == 2):
		if a.Count > s.Pile {
			return nil, nil, domain.Illegal("too_many", "only %d left on the pile", s.Pile)
		}
	default:
		return nil, nil, domain.Invalid("invalid_action", `send {"type":"take","count":1} or 2, or {"type":"roll"}`)
	}
	next := s
	next.Taken = append([]int(nil), s.Taken...)
	next.Pile -= a.Count
	next.Taken[seat] += a.Count
	next.ToAct = (seat + 1) % len(s.Taken)
	if next.Pile == 0 {
		next.Winner = &seat
	}
	return next, outcome{Type: "take", Seat: seat, Count: a.Count, Pile: next.Pile}, nil
}

func (s state) Status() domain.Status {
	if s.Winner != nil {
		return domain.Status{Phase: "finished", ToAct: []int{}, Finished: true, Winners: []int{*s.Winner}}
	}
	return domain.Status{Phase: "take", ToAct: []int{s.ToAct}, Winners: []int{}}
}

func (s state) View(domain.Viewer) any { return s }

type legalAction struct {
	Action action `json:"action"`
}

func (s state) LegalActions(seat int) any {
	legal := []legalAction{}
	if s.Winner != nil || seat != s.ToAct {
		return legal
	}
	for count := 1; count <= min(2, s.Pile); count++ {
		legal = append(legal, legalAction{Action: action{Type: "take", Count: count}})
	}
	return append(legal, legalAction{Action: action{Type: "roll"}})
}

type score struct {
	Seat   int  `json:"seat"`
	Taken  int  `json:"taken"`
	Winner bool `json:"winner"`
}

func (s state) Scores() any {
	scores := make([]score, len(s.Taken))
	for seat, taken := range s.Taken {
		scores[seat] = score{Seat: seat, Taken: taken, Winner: s.Winner != nil && *s.Winner == seat}
	}
	return scores
}

// Counter names: takes (turns the seat took counters), taken (counters it took).
func tally(raw json.RawMessage, counts domain.Counts) error {
	var o outcome
	if err := domain.DecodeStrict(raw, &o); err != nil {
		return domain.Invalid("invalid_outcome", "not a tiny outcome: %v", err)
	}
	if o.Type != "start" && o.Type != "take" {
		return domain.Invalid("invalid_outcome", "not a tiny outcome: type %q", o.Type)
	}
	if o.Type == "take" {
		counts.Add(o.Seat, "takes", 1)
		counts.Add(o.Seat, "taken", o.Count)
	}
	return nil
}

// measures: average_take, the counters taken per turn.
func measures(counts map[string]int) map[string]float64 {
	m := map[string]float64{}
	if counts["takes"] > 0 {
		m["average_take"] = float64(counts["taken"]) / float64(counts["takes"])
	}
	return m
}
