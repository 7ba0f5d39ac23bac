package api

import "github.com/labstack/echo/v4"

// routeMiddleware is what single routes (by the contract's operationId) run besides the middleware
// every route runs (useMiddleware, in its order), after that and before their handler: the table
// of the properties of routes, each route registered with its own by openapi.RegisterHandlersWithOptions.
func (s *Server) routeMiddleware() map[string][]echo.MiddlewareFunc {
	rendered := []echo.MiddlewareFunc{s.rendered}
	return map[string][]echo.MiddlewareFunc{
		// Work that grows with a game's or a classroom's size, bounded by the render gate. A replay
		// enters it itself, only when it draws (a shared drawing does not: replay_share.go).
		"getStateAt":        rendered,
		"getGamePicture":    rendered,
		"getGamePicturePng": rendered,
		"getReview":         rendered,
		"getClassroomStats": rendered,
		// A page of sign-in cards (sign_in_cards.go).
		"getSignInCards":    rendered,
		"getSignInCardsPng": rendered,
	}
}

// rendered runs a route's handler in a slot of the render gate (renders.go).
func (s *Server) rendered(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		release, err := s.renders.enter(c.Request().Context())
		if err != nil {
			return err
		}
		defer release()
		return next(c)
	}
}
