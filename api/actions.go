package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
	"primegames/play/i18n"
)

const ndjson = "application/x-ndjson"

// PostAction applies one action of the caller's seat.
func (s *Server) PostAction(c echo.Context, id openapi.GameID, params openapi.PostActionParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	action, err := readBody(c)
	if err != nil {
		return err
	}
	in := play.Action{GameID: id.String(), Action: action}
	if params.IfMatch != nil && strings.TrimSpace(*params.IfMatch) != "*" {
		v, ok := parseETag(*params.IfMatch)
		if !ok {
			return domain.Invalid("invalid", "If-Match must be a version as the ETag gives it, such as \"7\"; got %s.", *params.IfMatch)
		}
		in.IfMatch = &v
	}
	acted, err := s.play.Act(c.Request().Context(), in, principal, play.NewIdempotency(params.IdempotencyKey, action))
	if err != nil {
		return err
	}
	game, err := gameBody(acted.Game, acted.Caller)
	if err != nil {
		return err
	}
	if err := includeLegalActions(&game, params.Include != nil, acted.Game, acted.Caller, langIf(c, params.Include != nil)); err != nil {
		return err
	}
	entry, err := entryBodyOf(acted.Game, acted.Entry, acted.Outcome, play.ViewerFor(acted.Game.Status, acted.Caller))
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(acted.Game.Version))
	return c.JSON(http.StatusCreated, openapi.ActionResult{Entry: entry, Game: game})
}

// ListActions pages through the history, or streams all of it as NDJSON.
func (s *Server) ListActions(c echo.Context, id openapi.GameID, params openapi.ListActionsParams) error {
	g, caller, err := s.loadGame(c, id)
	if err != nil {
		return err
	}
	viewer := play.ViewerFor(g.Status, caller)
	if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), ndjson) {
		return s.streamActions(c, g, viewer)
	}
	after := int64(-1)
	if params.Cursor != nil {
		n, err := strconv.ParseInt(*params.Cursor, 10, 64)
		if err != nil || n < 0 {
			return play.InvalidCursor(*params.Cursor)
		}
		after = n
	}
	limit := pageSize(params.Limit)
	entries, err := s.play.Entries(c.Request().Context(), g, after, limit+1)
	if err != nil {
		return err
	}
	page := openapi.HistoryPage{Items: []openapi.HistoryEntry{}}
	if len(entries) > limit {
		entries = entries[:limit]
		page.NextCursor = ptr(strconv.FormatInt(entries[len(entries)-1].Seq, 10))
	}
	for _, e := range entries {
		item, err := entryBody(g, e, viewer)
		if err != nil {
			return err
		}
		page.Items = append(page.Items, item)
	}
	return c.JSON(http.StatusOK, page)
}

func (s *Server) streamActions(c echo.Context, g *play.Game, viewer domain.Viewer) error {
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, ndjson)
	w.WriteHeader(http.StatusOK)
	return s.play.EachEntry(c.Request().Context(), g, func(e play.Entry) error {
		item, err := entryBody(g, e, viewer)
		if err != nil {
			return err
		}
		line, err := json.Marshal(item)
		if err != nil {
			return err
		}
		_, err = w.Write(append(line, '\n'))
		return err
	})
}

// GetStateAt rebuilds the game after one step of its history.
func (s *Server) GetStateAt(c echo.Context, id openapi.GameID, seq int64) error {
	g, caller, err := s.loadGame(c, id)
	if err != nil {
		return err
	}
	state, err := s.play.StateAt(c.Request().Context(), g, seq)
	if err != nil {
		return err
	}
	count, err := s.play.EntryCount(c.Request().Context(), g)
	if err != nil {
		return err
	}
	view, err := json.Marshal(state.View(play.ViewerFor(g.Status, caller)))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.ReplayStep{Seq: seq, SeqCount: count, State: view})
}

// GetLegalActions lists what the caller may do now. As GetGame's, the body of a version of a game
// for a seat is rendered once and then served from the game cache (gamecache.go) as long as the
// game read now is that version.
func (s *Server) GetLegalActions(c echo.Context, id openapi.GameID) error {
	read, err := s.readGame(c, id)
	if err != nil {
		return err
	}
	rec, caller := read.rec, read.caller
	if err := play.MaySeeLegalActions(rec, caller); err != nil {
		return err
	}
	c.Response().Header().Set("ETag", etag(rec.Version))
	if _, pretty := c.QueryParams()["pretty"]; pretty { // echo indents the JSON: not the body kept
		g, err := read.decoded()
		if err != nil {
			return err
		}
		legal, err := legalActionsBody(g, caller, lang(c))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, legal)
	}
	key := bodyKey{seat: caller.Seat, creator: caller.Creator, teacher: caller.Teacher, legalActionsOnly: true, gzip: middleware.AcceptsGzip(c.Request()), lang: lang(c).Code()}
	body, err := read.cached(key, func(g *play.Game) (any, error) { return legalActionsBody(g, caller, lang(c)) })
	if err != nil {
		return err
	}
	return sendBody(c, body)
}

// legalActionsBody lists what a seated caller may do now, or says whose turn it is and why the
// caller has nothing to do.
func legalActionsBody(g *play.Game, caller play.Caller, l *i18n.Lang) (openapi.LegalActions, error) {
	choices := g.ChoicesOf(caller.Seat)
	body := openapi.LegalActions{Game: openapi.GameKind(g.Kind), Actions: json.RawMessage(`[]`),
		LegalActionsBase: openapi.LegalActionsBase{Seat: caller.Seat, Version: g.Version, ToAct: choices.ToAct}}
	if choices.Reason != "" {
		body.Reason, body.Detail = ptr(openapi.LegalActionsBaseReason(choices.Reason)), ptr(l.Text(choices.Detail))
		return body, nil
	}
	var err error
	if body.Actions, err = marshalEngine(choices.Actions); err != nil {
		return body, err
	}
	body.Actions, err = translateDescriptions(body.Actions, l)
	return body, err
}

// includeLegalActions adds the caller's legal actions to a game's body when the request asked for
// them (include=legal_actions) and the caller has a seat; only seats have legal actions.
func includeLegalActions(body *openapi.Game, asked bool, g *play.Game, caller play.Caller, l *i18n.Lang) error {
	if !asked || !caller.HasSeat() {
		return nil
	}
	legal, err := legalActionsBody(g, caller, l)
	if err != nil {
		return err
	}
	body.LegalActions = &legal
	return nil
}

// GetScores shows the standing of every seat.
func (s *Server) GetScores(c echo.Context, id openapi.GameID) error {
	g, _, err := s.loadGame(c, id)
	if err != nil {
		return err
	}
	body := openapi.Scores{Game: openapi.GameKind(g.Kind), ScoresBase: openapi.ScoresBase{Status: openapi.GameStatus(g.Status), Winners: orEmpty(g.Winners)}}
	if g.State != nil {
		scores, err := json.Marshal(g.State.Scores())
		if err != nil {
			return err
		}
		body.Scores = scores // left nil in a lobby, which encodes as null
	}
	return c.JSON(http.StatusOK, body)
}

// GetBoard serves a kind of game's reference data, such as the Prime Climb board.
func (s *Server) GetBoard(c echo.Context, game string) error {
	kind, ok := s.play.Kinds().Lookup(game)
	if !ok {
		return domain.Errorf(domain.KindNotFound, "not_found", "There is no game called %q.", game)
	}
	if kind.Board == nil {
		return domain.Errorf(domain.KindNotFound, "not_found", "The game %q has no board.", game)
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.JSON(http.StatusOK, kind.Board)
}
