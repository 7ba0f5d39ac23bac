package domain

import "encoding/json"

// Role says how much of a game a viewer may see.
type Role string

const (
	// RolePublic sees only what lies open on the table.
	RolePublic Role = "public"
	// RolePlayer sees what is open plus the hidden information of one seat.
	RolePlayer Role = "player"
	// RoleFull sees everything: the game's teacher, and everyone once the game is over (PR-8).
	RoleFull Role = "full"
)

// Viewer is who a view or a history entry is prepared for.
type Viewer struct {
	Role Role
	Seat int // meaningful only for RolePlayer
}

// Public, Player and Full are shorthands for the three kinds of viewer.
var Public = Viewer{Role: RolePublic}

func Player(seat int) Viewer { return Viewer{Role: RolePlayer, Seat: seat} }

var Full = Viewer{Role: RoleFull}

// SeatRange is the number of players a game allows.
type SeatRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// Rules is one kind of game. Everything outside domain handles games only through Rules and State, so
// a new kind of game is a new package that implements them.
type Rules interface {
	// Name is the kind's identifier in the API, e.g. "prime-climb".
	Name() string
	// Options validates raw options (nil or {} means every default) and returns them in canonical form
	// together with the numbers of seats they allow.
	Options(raw json.RawMessage) (canonical json.RawMessage, seats SeatRange, err error)
	// Start begins a game with canonical options and the given number of seats, drawing whatever
	// chance the setup needs (roll-off, shuffle, deal) from r.
	Start(options json.RawMessage, seats int, r Rand) (State, Outcome, error)
	// Decode restores a state from its JSON snapshot (json.Marshal of a State).
	Decode(snapshot json.RawMessage) (State, error)
	// DecodeOutcome restores a recorded outcome so that it can be redacted for a viewer.
	DecodeOutcome(raw json.RawMessage) (Outcome, error)
}

// State is one moment of one game. States are values: no method modifies its receiver.
type State interface {
	// Apply performs one action by seat and returns the next state and what happened. The action is
	// the JSON the client sent, e.g. {"type":"roll"}. Errors are *Error.
	Apply(seat int, action json.RawMessage, r Rand) (State, Outcome, error)
	// Status summarises whose turn it is and whether the game is over.
	Status() Status
	// View is the state as viewer may see it, ready to encode as JSON.
	View(viewer Viewer) any
	// LegalActions lists what seat may do now, ready to encode as JSON. Each entry carries an "action"
	// that Apply accepts as it is.
	LegalActions(seat int) any
	// Scores is the standing of every seat, ready to encode as JSON; it hides nothing that View(Public)
	// does not show.
	Scores() any
}

// Status is the part of a state that the service itself needs to know.
type Status struct {
	Phase    string `json:"phase"`
	ToAct    []int  `json:"to_act"` // seats that may act now
	Finished bool   `json:"finished"`
	Winners  []int  `json:"winners"`
}

// Outcome is what one action (or the start) did: dice, cards, bumps, scores.
type Outcome interface {
	// Redact returns what viewer may see of this outcome, ready to encode as JSON.
	Redact(viewer Viewer) any
}
