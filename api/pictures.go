package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

const svgType = "image/svg+xml"

// pictureSecurity forbids an SVG opened by itself to load or run anything: the pictures need only
// their own inline style.
const pictureSecurity = "default-src 'none'; style-src 'unsafe-inline'"

// GetPrimeClimbBoardPicture draws the board. The kind is the picture's file name, so that another
// kind's board picture is one more path of the contract, served here as it is.
func (s *Server) GetPrimeClimbBoardPicture(c echo.Context) error {
	doc, err := s.play.BoardPicture(strings.TrimSuffix(path.Base(c.Path()), ".svg"))
	if err != nil {
		return err
	}
	return sendSVG(c, doc, "public, max-age=86400")
}

// GetGamePicture draws the game, or one step of it, as the caller may see it.
func (s *Server) GetGamePicture(c echo.Context, id openapi.GameID, params openapi.GetGamePictureParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	release, err := s.renders.enter(c.Request().Context())
	if err != nil {
		return err
	}
	defer release()
	pic, err := s.play.GamePicture(c.Request().Context(), id.String(), principal, params.Seq)
	if err != nil {
		return err
	}
	return sendSVG(c, pic.SVG, pictureCacheControl(pic.Immutable, pic.Private))
}

// GetGameReplay draws a window of the game (play.ReplayMaxSteps entries at most) as one animated
// picture; Link names the windows before and after it. A window of a game that is over is drawn once
// for the requests that ask for it meanwhile (replay_share.go); one of a game being played is
// written as it is drawn.
func (s *Server) GetGameReplay(c echo.Context, id openapi.GameID, params openapi.GetGameReplayParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	from, count := int64(0), play.ReplayMaxSteps
	if params.From != nil {
		from = *params.From
	}
	if params.Count != nil {
		count = *params.Count
	}
	ctx := c.Request().Context()
	r, err := s.play.ReplayPicture(ctx, id.String(), principal, from, count)
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set("ETag", r.Tag)
	h.Set("Cache-Control", pictureCacheControl(r.Immutable, r.Private))
	h.Set("Content-Security-Policy", pictureSecurity)
	if etagMatches(c.Request().Header.Get("If-None-Match"), r.Tag) {
		return c.NoContent(http.StatusNotModified)
	}
	if r.Immutable {
		d := s.replays.drawing(ctx, r, s.drawInMemory(ctx, r))
		if d.err != nil {
			return d.err
		}
		r.Next = d.next
		if link := replayLinks(c, r, count); link != "" {
			h.Set("Link", link)
		}
		return c.Blob(http.StatusOK, svgType, d.svg)
	}
	release, err := s.renders.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := r.Fold(ctx); err != nil {
		return err
	}
	if link := replayLinks(c, r, count); link != "" {
		h.Set("Link", link)
	}
	h.Set(echo.HeaderContentType, svgType)
	c.Response().WriteHeader(http.StatusOK)
	return r.Draw(c.Response())
}

// replayLinks names the windows before and after a replay's, of the same size, for Link.
func replayLinks(c echo.Context, r *play.Replay, count int) string {
	var links []string
	for _, l := range []struct {
		from *int64
		rel  string
	}{{r.Prev, "prev"}, {r.Next, "next"}} {
		if l.from == nil {
			continue
		}
		q := url.Values{"from": {strconv.FormatInt(*l.from, 10)}, "count": {strconv.Itoa(count)}}
		if token := c.QueryParam("access_token"); token != "" {
			q.Set("access_token", token)
		}
		links = append(links, "<"+c.Request().URL.Path+"?"+q.Encode()+`>; rel="`+l.rel+`"`)
	}
	return strings.Join(links, ", ")
}

func pictureCacheControl(immutable, private bool) string {
	switch {
	case !immutable:
		return "no-cache"
	case private:
		return "private, max-age=31536000, immutable"
	}
	return "public, max-age=31536000, immutable"
}

// sendSVG sends a picture with an ETag of its content, or 304 when the client has it already.
func sendSVG(c echo.Context, doc []byte, cacheControl string) error {
	sum := sha256.Sum256(doc)
	tag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := c.Response().Header()
	h.Set("ETag", tag)
	h.Set("Cache-Control", cacheControl)
	h.Set("Content-Security-Policy", pictureSecurity)
	if etagMatches(c.Request().Header.Get("If-None-Match"), tag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, svgType, doc)
}
