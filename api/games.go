package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
	"primegames/play/i18n"
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
	in := play.NewGame{Kind: string(req.Game), Address: c.RealIP(), Public: req.Public != nil && *req.Public}
	if req.Options != nil {
		in.Options = *req.Options
	}
	if req.Seats != nil {
		in.OpenSeats = *req.Seats
	}
	if req.Players != nil {
		for seat, p := range *req.Players {
			switch {
			case p.Bot != nil && p.StudentId == nil:
				in.Bots = append(in.Bots, play.BotSeat{Seat: seat, Level: domain.Level(*p.Bot), Name: deref(p.Name)})
			case p.StudentId != nil && p.Name == nil && p.Bot == nil:
				in.Students = append(in.Students, p.StudentId.String())
			case p.Name != nil && p.StudentId == nil:
				in.Players = append(in.Players, *p.Name)
			default:
				return domain.Invalid("invalid", "Each player needs either a name, a student_id or a bot (a computer player, which may have a name).")
			}
		}
	}
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	created, err := s.play.Create(c.Request().Context(), in, principal, play.NewIdempotency(params.IdempotencyKey, raw))
	if err != nil {
		return err
	}
	game, err := gameBody(created.Game, created.Creator)
	if err != nil {
		return err
	}
	body := openapi.CreatedGame{Game: game, CreatorToken: created.CreatorToken, Seats: []openapi.SeatToken{}}
	if created.InviteCode != "" {
		body.InviteCode = &created.InviteCode
	}
	for _, t := range created.SeatTokens {
		body.Seats = append(body.Seats, openapi.SeatToken{Seat: t.Seat, Name: t.Name, Token: t.Token})
	}
	c.Response().Header().Set("Location", "/v1/games/"+created.Game.ID)
	c.Response().Header().Set("ETag", etag(created.Game.Version))
	return c.JSON(http.StatusCreated, body)
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
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	ask := play.JoinAsk{Name: deref(req.Name), InviteCode: deref(req.InviteCode), Seat: req.Seat}
	var joined *play.Joined
	join := func() (err error) {
		joined, err = s.play.Join(c.Request().Context(), id.String(), principal, ask, play.NewIdempotency(params.IdempotencyKey, raw))
		return err
	}
	if ask.InviteCode != "" {
		err = s.guesses.Attempt(c, join)
	} else {
		err = join()
	}
	if err != nil {
		return err
	}
	return sendJoined(c, joined)
}

// JoinGameByInviteCode takes a seat in the private lobby whose invite code the body brings.
func (s *Server) JoinGameByInviteCode(c echo.Context, params openapi.JoinGameByInviteCodeParams) error {
	raw, err := readBody(c)
	if err != nil {
		return err
	}
	var req openapi.JoinByInviteCodeRequest
	if err := decodeJSON(raw, &req); err != nil {
		return err
	}
	ask := play.JoinAsk{Name: req.Name, InviteCode: req.InviteCode}
	var joined *play.Joined
	err = s.guesses.Attempt(c, func() (err error) {
		joined, err = s.play.JoinByInviteCode(c.Request().Context(), play.Nobody, ask, play.NewIdempotency(params.IdempotencyKey, raw))
		return err
	})
	if err != nil {
		return err
	}
	return sendJoined(c, joined)
}

// sendJoined answers a join with the seat's token and the game as its new player sees it.
func sendJoined(c echo.Context, joined *play.Joined) error {
	game, err := gameBody(joined.Game, play.Caller{Seat: joined.Seat.Seat})
	if err != nil {
		return err
	}
	seat := openapi.SeatToken{Seat: joined.Seat.Seat, Name: joined.Seat.Name, Token: joined.Seat.Token}
	c.Response().Header().Set("ETag", etag(joined.Game.Version))
	return c.JSON(http.StatusCreated, openapi.JoinedGame{Seat: seat, Game: game})
}

// StartGame starts a lobby game.
func (s *Server) StartGame(c echo.Context, id openapi.GameID, params openapi.StartGameParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	g, caller, err := s.play.Start(c.Request().Context(), id.String(), principal, play.NewIdempotency(params.IdempotencyKey, nil))
	if err != nil {
		return err
	}
	return s.sendGame(c, g, caller)
}

// AbortGame ends a game at its creator's request.
func (s *Server) AbortGame(c echo.Context, id openapi.GameID, params openapi.AbortGameParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	g, caller, err := s.play.Abort(c.Request().Context(), id.String(), principal, play.NewIdempotency(params.IdempotencyKey, nil))
	if err != nil {
		return err
	}
	return s.sendGame(c, g, caller)
}

// ResignGame takes the caller's seat out of an active game (G-3).
func (s *Server) ResignGame(c echo.Context, id openapi.GameID, params openapi.ResignGameParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	g, caller, err := s.play.Resign(c.Request().Context(), id.String(), principal, play.NewIdempotency(params.IdempotencyKey, nil))
	if err != nil {
		return err
	}
	return s.sendGame(c, g, caller)
}

// LeaveGame gives up the caller's seat in a lobby.
func (s *Server) LeaveGame(c echo.Context, id openapi.GameID, params openapi.LeaveGameParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	g, caller, err := s.play.Leave(c.Request().Context(), id.String(), principal, play.NewIdempotency(params.IdempotencyKey, nil))
	if err != nil {
		return err
	}
	return s.sendGame(c, g, caller)
}

// RematchGame starts a finished game's rematch, or answers the one started before.
func (s *Server) RematchGame(c echo.Context, id openapi.GameID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	r, err := s.play.Rematch(c.Request().Context(), id.String(), principal)
	if err != nil {
		return err
	}
	if !r.Created {
		return s.sendGame(c, r.Game, r.Caller)
	}
	body, err := gameBody(r.Game, r.Caller)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/v1/games/"+r.Game.ID)
	c.Response().Header().Set("ETag", etag(r.Game.Version))
	return c.JSON(http.StatusCreated, body)
}

// GetGame shows a game as the caller may see it. The body of a version of a game, for one way of
// seeing it, is rendered once and then served from the game cache (gamecache.go) as long as the
// game read now is that version.
func (s *Server) GetGame(c echo.Context, id openapi.GameID, params openapi.GetGameParams) error {
	read, err := s.readGame(c, id)
	if err != nil {
		return err
	}
	rec := read.rec
	if params.IfNoneMatch != nil {
		if v, ok := parseETag(*params.IfNoneMatch); ok && v == rec.Version {
			c.Response().Header().Set("ETag", etag(rec.Version))
			return c.NoContent(http.StatusNotModified)
		}
	}
	if _, pretty := c.QueryParams()["pretty"]; pretty { // echo indents the JSON: not the body kept
		g, err := read.decoded()
		if err != nil {
			return err
		}
		return s.sendGameWith(c, g, read.caller, params.Include != nil)
	}
	caller := read.caller
	key := bodyKey{seat: caller.Seat, creator: caller.Creator, teacher: caller.Teacher, legalActions: params.Include != nil,
		gzip: middleware.AcceptsGzip(c.Request())}
	words := i18n.English
	if key.legalActions { // the body's only sentences are the legal actions'
		words = lang(c)
		key.lang = words.Code()
	}
	body, err := read.cached(key, func(g *play.Game) (any, error) { return renderGame(g, caller, key.legalActions, words) })
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(rec.Version))
	return sendBody(c, body)
}

// sendBody answers 200 with a body the game cache keeps.
func sendBody(c echo.Context, body cachedBody) error {
	if body.gzipped {
		middleware.MarkGzipped(c.Response().Header())
	}
	return sendWhole(c, http.StatusOK, echo.MIMEApplicationJSON, body.bytes)
}

// renderGame is the body GetGame sends of g for caller, with their legal actions when asked.
func renderGame(g *play.Game, caller play.Caller, legalActions bool, l *i18n.Lang) (any, error) {
	body, err := gameBody(g, caller)
	if err != nil {
		return nil, err
	}
	if err := includeLegalActions(&body, legalActions, g, caller, l); err != nil {
		return nil, err
	}
	return body, nil
}

// encodeBody is what c.JSON would write of v, then compressed as compress would when gzip is asked.
func encodeBody(v any, gzip bool) (cachedBody, error) {
	encoded, err := marshalBody(v)
	if err != nil {
		return cachedBody{}, err
	}
	encoded = append(encoded, '\n') // as json.Encoder, which c.JSON uses, ends it
	if gzip && len(encoded) >= middleware.CompressMin {
		return cachedBody{bytes: middleware.Gzipped(encoded), gzipped: true}, nil
	}
	return cachedBody{bytes: encoded}, nil
}

// ListGames lists game summaries, newest first: games outside classrooms, a student's own games, or
// a teacher's classroom's games, by the token presented.
func (s *Server) ListGames(c echo.Context, params openapi.ListGamesParams) error {
	f := play.GameFilter{Limit: pageSize(params.Limit)}
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	member, err := play.MemberOf(principal)
	if err != nil {
		return err
	}
	if member != nil {
		f.ClassroomID, f.StudentID = member.ClassroomID, member.StudentID
	}
	if principal.IsObserver() && principal.ClassroomID != "" {
		f.ClassroomID = principal.ClassroomID // a classroom's observer lists its games
	}
	if params.Game != nil {
		f.Kind = string(*params.Game)
	}
	if params.Status != nil {
		f.Status = play.Status(*params.Status)
	}
	if params.Cursor != nil {
		f.Cursor = *params.Cursor
	}
	return s.sendGameList(c, f)
}

func (s *Server) sendGameList(c echo.Context, f play.GameFilter) error {
	list, next, err := s.play.ListGames(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return sendGames(c, list, next)
}

// sendGames answers with a page of game summaries and the cursor of the next page ("" on the last).
func sendGames(c echo.Context, list []play.GameSummary, next string) error {
	body := openapi.GameList{Items: make([]openapi.GameSummary, len(list))}
	for i, g := range list {
		body.Items[i] = openapi.GameSummary{
			Id: mustUUID(g.ID), Game: openapi.GameKind(g.Kind), Status: openapi.GameStatus(g.Status),
			SeatCount: g.SeatCount, Players: orEmpty(g.Players), BotSeats: botSeatsOf(g.Bots), Version: g.Version,
			Winners: orEmpty(g.Winners), CreatedAt: g.CreatedAt, UpdatedAt: g.UpdatedAt, EndReason: endReason(g.EndReason),
		}
	}
	if next != "" {
		body.NextCursor = &next
	}
	return c.JSON(http.StatusOK, body)
}

// loadGame reads a game and identifies the caller in it.
func (s *Server) loadGame(c echo.Context, id openapi.GameID) (*play.Game, play.Caller, error) {
	read, err := s.readGame(c, id)
	if err != nil {
		return nil, read.caller, err
	}
	g, err := read.decoded()
	if err != nil {
		return nil, play.AnonymousCaller, err
	}
	return g, read.caller, nil
}

func (s *Server) sendGame(c echo.Context, g *play.Game, caller play.Caller) error {
	return s.sendGameWith(c, g, caller, false)
}

// sendGameWith is sendGame with the caller's legal actions when they asked for them.
func (s *Server) sendGameWith(c echo.Context, g *play.Game, caller play.Caller, legalActions bool) error {
	body, err := gameBody(g, caller)
	if err != nil {
		return err
	}
	if err := includeLegalActions(&body, legalActions, g, caller, langIf(c, legalActions)); err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(g.Version))
	return c.JSON(http.StatusOK, body)
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
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

func botSeatsOf(bots []play.BotSeat) []openapi.BotSeat {
	out := make([]openapi.BotSeat, len(bots))
	for i, b := range bots {
		out[i] = openapi.BotSeat{Seat: b.Seat, Bot: openapi.BotLevel(b.Level)}
	}
	return out
}
