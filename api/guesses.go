package api

import "primegames/api/middleware"

// The guard of codes a person types is middleware.GuessGuard (api/middleware/guesses.go); the
// server configures and answers with these.
type (
	// GuessLimits bound the wrong guesses of codes a person types; zero values disable the guard.
	GuessLimits = middleware.GuessLimits
	// GuessFacts are the facts of too_many_guesses.
	GuessFacts = middleware.GuessFacts
)
