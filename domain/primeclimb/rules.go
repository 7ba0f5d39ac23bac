package primeclimb

import (
	"encoding/json"
	"strconv"

	"primegames/domain"
)

// Name is the kind's identifier in the API.
const Name = "prime-climb"

// Rules is Prime Climb for the service.
var Rules domain.Rules = rules{}

type rules struct{}

func (rules) Name() string { return Name }

// Options validates options and allows 1 to 4 seats (PC-1).
func (rules) Options(raw json.RawMessage) (json.RawMessage, domain.SeatRange, error) {
	opts, err := ParseOptions(raw)
	if err != nil {
		return nil, domain.SeatRange{}, err
	}
	return opts.canonical(), domain.SeatRange{Min: 1, Max: 4}, nil
}

func (rules) Start(raw json.RawMessage, seats int, r domain.Rand) (domain.State, domain.Outcome, error) {
	opts, err := ParseOptions(raw)
	if err != nil {
		return nil, nil, err
	}
	s, o, err := NewGame(opts, seats, r)
	if err != nil {
		return nil, nil, err
	}
	return s, o, nil
}

func (rules) Decode(snapshot json.RawMessage) (domain.State, error) {
	var s State
	if err := json.Unmarshal(snapshot, &s); err != nil {
		return nil, domain.Invalid("invalid_snapshot", "not a prime-climb state: %v", err)
	}
	if len(s.Players) < 1 || len(s.Players) > 4 || s.Turn.Seat < 0 || s.Turn.Seat >= len(s.Players) {
		return nil, domain.Invalid("invalid_snapshot", "a prime-climb state has 1 to 4 players and a seat to act")
	}
	if (s.Phase == PhaseResolve) != (s.Turn.Pending != nil) || (s.Phase == PhaseFinished) != (s.Winner != nil) {
		return nil, domain.Invalid("invalid_snapshot", "phase %q does not fit the pending card or the winner", s.Phase)
	}
	return s, nil
}

func (rules) DecodeOutcome(raw json.RawMessage) (domain.Outcome, error) { return decodeOutcome(raw) }

// NewGame starts a game: the roll-off for the first seat (PC-2), the shuffled deck (PC-11) and every
// pawn on Start (PC-1). Random values are drawn in that order: roll-off dice, then the shuffle.
func NewGame(opts Options, seats int, r domain.Rand) (State, *Outcome, error) {
	if seats < 1 || seats > 4 {
		return State{}, nil, domain.Invalid("invalid_seats", "prime-climb is played by 1 to 4 players, not %d", seats)
	}
	out := newOutcome("start", nil)
	first := 0
	if seats > 1 {
		first, out.RollOff = rollOff(seats, r)
	}
	s := State{Options: opts, Players: make([]Player, seats), Deck: []Card{}, Discard: []Card{}}
	for i := range s.Players {
		s.Players[i].Keepers = []HeldCard{}
	}
	if opts.PrimeCards {
		s.Deck = FullDeck()
		domain.Shuffle(r, s.Deck)
	}
	s.startTurn(first)
	out.NextSeat = ptr(first)
	return s, out, nil
}

// rollOff rolls two dice for every seat still in contention until one total is highest (PC-2). A single
// player needs no roll-off and draws no random values.
func rollOff(seats int, r domain.Rand) (int, []RollRound) {
	contenders := make([]int, seats)
	for i := range contenders {
		contenders[i] = i
	}
	var rounds []RollRound
	for {
		round := RollRound{}
		best := 0
		var leaders []int
		for _, seat := range contenders {
			d := [2]int{rollDie(r), rollDie(r)}
			total := d[0] + d[1]
			round.Rolls = append(round.Rolls, SeatRoll{Seat: seat, Dice: d, Total: total})
			switch {
			case total > best:
				best, leaders = total, []int{seat}
			case total == best:
				leaders = append(leaders, seat)
			}
		}
		rounds = append(rounds, round)
		if len(leaders) == 1 {
			return leaders[0], rounds
		}
		contenders = leaders
	}
}

// rollDie rolls one ten-sided die: 1..10, the face "0" being 10 (PC-3).
func rollDie(r domain.Rand) int { return r.IntN(10) + 1 }

// startTurn begins seat's turn: the Curse waiting for it takes effect, its new keepers become playable
// and the start-of-turn positions are taken before any keeper is played (PC-10, PC-12).
func (s *State) startTurn(seat int) {
	p := &s.Players[seat]
	s.Phase = PhaseRoll
	s.TurnNumber++
	s.Turn = Turn{Seat: seat, Dice: []int{}, Uses: []int{}, Cursed: p.CursedNext, StartPawns: p.Pawns, LastMoved: -1}
	p.CursedNext = false
	for i := range p.Keepers {
		p.Keepers[i].New = false
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
