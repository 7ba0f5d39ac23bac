package api

import (
	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

// gameRead is a game as a handler reads it (readGame): the record the caller may see, read once
// through play and the store's record cache, the stamp that record gives (what the game cache keys
// its bodies by), and the game decoded at most once, only when a handler needs more than the
// record or a body the game cache does not have.
type gameRead struct {
	s      *Server
	rec    *play.GameRecord
	caller play.Caller
	game   *play.Game
}

// readGame is the one way a handler reads a game for the request's principal; every read of a
// game by id (loadGame, GetGame, GetLegalActions, the picture links) goes through it.
func (s *Server) readGame(c echo.Context, id openapi.GameID) (gameRead, error) {
	principal, err := principalOf(c)
	if err != nil {
		return gameRead{caller: play.AnonymousCaller}, err
	}
	rec, caller, err := s.play.GetRecord(c.Request().Context(), id.String(), principal)
	if err != nil {
		return gameRead{caller: play.AnonymousCaller}, err
	}
	return gameRead{s: s, rec: rec, caller: caller}, nil
}

// decoded is the game with its rules and state, decoded on the first call.
func (r *gameRead) decoded() (*play.Game, error) {
	if r.game == nil {
		g, err := r.s.play.Decode(r.rec)
		if err != nil {
			return nil, err
		}
		r.game = g
	}
	return r.game, nil
}

// cached is the body of this version of the game seen as key: from the game cache, by the
// record's stamp, or else rendered from the decoded game, encoded and kept.
func (r *gameRead) cached(key bodyKey, render func(*play.Game) (any, error)) (cachedBody, error) {
	stamp := r.rec.Stamp()
	if body, ok := r.s.games.get(r.rec.ID, stamp, key); ok {
		return body, nil
	}
	g, err := r.decoded()
	if err != nil {
		return cachedBody{}, err
	}
	v, err := render(g)
	if err != nil {
		return cachedBody{}, err
	}
	body, err := encodeBody(v, key.gzip)
	if err != nil {
		return cachedBody{}, err
	}
	r.s.games.put(r.rec.ID, stamp, key, body)
	return body, nil
}
