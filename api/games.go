package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/repo"
)

const defaultPageSize = 50

// CreateGame creates a game that starts at once or waits in a lobby.
func (s *Server) CreateGame(c echo.Context, params openapi.CreateGameParams) error {
	raw, err := readBody(c)
	if err != nil {
		return err
	}
	var req openapi.CreateGameRequest
	if err := decodeJSON(raw, &req); err != nil {
		return err
	}
	rules, err := s.rulesFor(req.Game)
	if err != nil {
		return err
	}
	in := repo.NewGame{Rules: rules}
	if req.Options != nil {
		in.Options = *req.Options
	}
	if req.Seats != nil {
		in.OpenSeats = *req.Seats
	}
	member, err := s.member(c)
	if err != nil {
		return err
	}
	if member != nil {
		in.ClassroomID, in.CreatorStudent = member.ClassroomID, member.StudentID
	}
	if req.Players != nil {
		for _, p := range *req.Players {
			switch {
			case p.StudentId != nil && p.Name == nil:
				in.Students = append(in.Students, p.StudentId.String())
			case p.Name != nil && p.StudentId == nil:
				in.Players = append(in.Players, *p.Name)
			default:
				return domain.Invalid("invalid", "Each player needs either a name or a student_id.")
			}
		}
	}
	token, err := bearerToken(c)
	if err != nil {
		return err
	}
	resp, err := s.db.Games().Create(c.Request().Context(), in, idempotency(params.IdempotencyKey, raw, token),
		func(created *repo.Created) (repo.Response, error) {
			game, err := gameBody(created.Game, repo.Caller{Seat: -1, Creator: true, Teacher: member != nil && member.Teacher()})
			if err != nil {
				return repo.Response{}, err
			}
			body := openapi.CreatedGame{Game: game, CreatorToken: created.CreatorToken, Seats: []openapi.SeatToken{}}
			for _, t := range created.SeatTokens {
				body.Seats = append(body.Seats, openapi.SeatToken{Seat: t.Seat, Name: t.Name, Token: t.Token})
			}
			return jsonResponse(http.StatusCreated, body, map[string]string{
				"Location": "/v1/games/" + created.Game.ID,
				"ETag":     etag(created.Game.Version),
			})
		})
	if err != nil {
		return err
	}
	return send(c, resp)
}

// JoinGame takes an open seat in a lobby.
func (s *Server) JoinGame(c echo.Context, id openapi.GameID, params openapi.JoinGameParams) error {
	raw, err := readBody(c)
	if err != nil {
		return err
	}
	var req openapi.JoinRequest
	if err := decodeJSON(raw, &req); err != nil {
		return err
	}
	token, err := bearerToken(c)
	if err != nil {
		return err
	}
	name := ""
	if req.Name != nil {
		name = *req.Name
	}
	resp, err := s.db.Games().Join(c.Request().Context(), id.String(), token, name, idempotency(params.IdempotencyKey, raw, token),
		func(joined *repo.Joined) (repo.Response, error) {
			game, err := gameBody(joined.Game, repo.Caller{Seat: joined.Seat.Seat})
			if err != nil {
				return repo.Response{}, err
			}
			seat := openapi.SeatToken{Seat: joined.Seat.Seat, Name: joined.Seat.Name, Token: joined.Seat.Token}
			return jsonResponse(http.StatusCreated, openapi.JoinedGame{Seat: seat, Game: game}, map[string]string{"ETag": etag(joined.Game.Version)})
		})
	if err != nil {
		return err
	}
	return send(c, resp)
}

// StartGame starts a lobby game.
func (s *Server) StartGame(c echo.Context, id openapi.GameID) error {
	token, err := bearerToken(c)
	if err != nil {
		return err
	}
	g, caller, err := s.db.Games().Start(c.Request().Context(), id.String(), token)
	if err != nil {
		return err
	}
	return s.sendGame(c, g, caller)
}

// AbortGame ends a game at its creator's request.
func (s *Server) AbortGame(c echo.Context, id openapi.GameID) error {
	token, err := bearerToken(c)
	if err != nil {
		return err
	}
	g, caller, err := s.db.Games().Abort(c.Request().Context(), id.String(), token)
	if err != nil {
		return err
	}
	return s.sendGame(c, g, caller)
}

// GetGame shows a game as the caller may see it.
func (s *Server) GetGame(c echo.Context, id openapi.GameID, params openapi.GetGameParams) error {
	g, caller, err := s.loadGame(c, id)
	if err != nil {
		return err
	}
	if params.IfNoneMatch != nil {
		if v, ok := parseETag(*params.IfNoneMatch); ok && v == g.Version {
			c.Response().Header().Set("ETag", etag(g.Version))
			return c.NoContent(http.StatusNotModified)
		}
	}
	return s.sendGame(c, g, caller)
}

// ListGames lists game summaries, newest first: games outside classrooms, a student's own games, or
// a teacher's classroom's games, by the token presented.
func (s *Server) ListGames(c echo.Context, params openapi.ListGamesParams) error {
	f := repo.GameFilter{Limit: pageSize(params.Limit)}
	member, err := s.member(c)
	if err != nil {
		return err
	}
	if member != nil {
		f.ClassroomID, f.StudentID = member.ClassroomID, member.StudentID
	}
	if params.Game != nil {
		f.Kind = string(*params.Game)
	}
	if params.Status != nil {
		f.Status = repo.Status(*params.Status)
	}
	if params.Cursor != nil {
		f.Cursor = *params.Cursor
	}
	return s.sendGameList(c, f)
}

func (s *Server) sendGameList(c echo.Context, f repo.GameFilter) error {
	list, next, err := s.db.Games().List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	body := openapi.GameList{Items: make([]openapi.GameSummary, len(list))}
	for i, g := range list {
		body.Items[i] = openapi.GameSummary{
			Id: mustUUID(g.ID), Game: openapi.GameKind(g.Kind), Status: openapi.GameStatus(g.Status),
			SeatCount: g.SeatCount, Players: orEmpty(g.Players), Version: g.Version, Winners: orEmpty(g.Winners),
			CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt,
		}
	}
	if next != "" {
		body.NextCursor = &next
	}
	return c.JSON(http.StatusOK, body)
}

// rulesFor finds the rules of a game kind the contract names.
func (s *Server) rulesFor(name openapi.GameKind) (domain.Rules, error) {
	kind, ok := s.db.Kinds.Lookup(string(name))
	if !ok {
		return nil, domain.Invalid("invalid", "There is no game called %q.", name)
	}
	return kind.Rules, nil
}

// member resolves a classroom token (teacher or student) on the request; nil without one.
func (s *Server) member(c echo.Context) (*repo.Member, error) {
	token, err := bearerToken(c)
	if err != nil || token == "" {
		return nil, err
	}
	return s.db.Classrooms().Member(c.Request().Context(), token)
}

// loadGame reads a game and identifies the caller by their token, if any.
func (s *Server) loadGame(c echo.Context, id openapi.GameID) (*repo.Game, repo.Caller, error) {
	token, err := bearerToken(c)
	if err != nil {
		return nil, repo.Anonymous, err
	}
	return s.db.Games().Get(c.Request().Context(), id.String(), token)
}

func (s *Server) sendGame(c echo.Context, g *repo.Game, caller repo.Caller) error {
	body, err := gameBody(g, caller)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(g.Version))
	return c.JSON(http.StatusOK, body)
}

// send writes a response rendered by a repo call (possibly a stored one, for a retry).
func send(c echo.Context, resp repo.Response) error {
	for k, v := range resp.Headers {
		c.Response().Header().Set(k, v)
	}
	return c.Blob(resp.Status, echo.MIMEApplicationJSON, resp.Body)
}

// idempotency is the request's Idempotency-Key, if it has one, with what identifies the request.
func idempotency(key *string, body []byte, token string) *repo.Idempotency {
	if key == nil {
		return nil
	}
	return repo.NewIdempotency(*key, body, token)
}

func pageSize(limit *int) int {
	if limit == nil {
		return defaultPageSize
	}
	return *limit
}

// readBody returns the request body, which bodyGate has checked to be one JSON document.
func readBody(c echo.Context) ([]byte, error) {
	raw, err := io.ReadAll(c.Request().Body)
	return bytes.TrimSpace(raw), err
}

// bindJSON reads a request body of the contract into v.
func bindJSON(c echo.Context, v any) error {
	raw, err := readBody(c)
	if err != nil {
		return err
	}
	return decodeJSON(raw, v)
}

func decodeJSON(raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return domain.Invalid("invalid", "The request body does not have the expected shape: %v.", err)
	}
	return nil
}
