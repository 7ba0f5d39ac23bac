package domain

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the caller can do about it. The HTTP layer maps each Kind to one
// status; Code is the stable, more specific name a client can branch on.
type Kind string

const (
	KindInvalid      Kind = "invalid" // the request is malformed or out of range
	KindIllegal      Kind = "illegal" // well formed, but the rules of the game forbid it now
	KindNotYourTurn  Kind = "not_your_turn"
	KindNotFound     Kind = "not_found"
	KindConflict     Kind = "conflict"
	KindPrecondition Kind = "precondition" // a stale If-Match or similar
	KindUnauthorized Kind = "unauthorized"
	KindForbidden    Kind = "forbidden"
	KindRateLimited  Kind = "rate_limited" // the client sent too much; it may try again later
	KindUnavailable  Kind = "unavailable"
	KindInternal     Kind = "internal"
)

// Error is the one error type of the service. Message is written for people: a child's teacher should
// be able to read it and see which numbers went wrong.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	// Fields names the request fields that were wrong, when there are any.
	Fields []FieldError
	// Facts are the numbers behind Message for programs (a dashboard, a translation), marshalled to
	// JSON as the problem's facts: a struct whose shape the contract declares for Code, or nil.
	Facts any
	// Format and Args are what Message was made of (Errorf), for the HTTP layer to say Message in
	// the reader's language; Format is the message's id in the catalogs (play/i18n).
	Format string
	Args   []any
}

// FieldError points at one bad field of a request.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// WithFacts sets the machine-readable facts of e and returns e.
func (e *Error) WithFacts(facts any) *Error {
	e.Facts = facts
	return e
}

// Errorf builds an *Error of the given kind and code with a formatted message.
func Errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// Illegal reports an action that the rules forbid in the current state.
func Illegal(code, format string, args ...any) *Error {
	return Errorf(KindIllegal, code, format, args...)
}

// Invalid reports a malformed request or option.
func Invalid(code, format string, args ...any) *Error {
	return Errorf(KindInvalid, code, format, args...)
}

// NotYourTurn reports an action by a seat that may not act now.
func NotYourTurn(format string, args ...any) *Error {
	return Errorf(KindNotYourTurn, "not_your_turn", format, args...)
}

// ErrorKind returns the Kind of err, or KindInternal when err is not an *Error.
func ErrorKind(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}

// ErrorCode returns the Code of err, or "internal" when err is not an *Error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return string(KindInternal)
}

// NotYourTurnFacts are the facts of not_your_turn: who sent the action, and who may act now.
type NotYourTurnFacts struct {
	Seat  int   `json:"seat"`
	ToAct []int `json:"to_act"`
}

// GameOverFacts are the facts of an engine's game_over: the seats that won.
type GameOverFacts struct {
	Winners []int `json:"winners"`
}

// NotYourTurnFor refuses seat an action while the seats toAct are to act.
func NotYourTurnFor(seat int, toAct []int, format string, args ...any) *Error {
	return NotYourTurn(format, args...).WithFacts(NotYourTurnFacts{Seat: seat, ToAct: toAct})
}

// GameOver refuses an action after the game has ended, won by winners.
func GameOver(winners []int, format string, args ...any) *Error {
	return Illegal("game_over", format, args...).WithFacts(GameOverFacts{Winners: winners})
}
