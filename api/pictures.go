package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/domain/scene"
	"primegames/domain/scene/raster"
	"primegames/play"
)

const (
	svgType = "image/svg+xml"
	pngType = "image/png"
)

// pngScale is the PNGs' pixels per SVG unit: a desktop Prime Climb picture (980 × 660 units) is
// 1470 × 990 pixels, a phone one 975 pixels wide, about the width of a phone's screen in pixels.
const pngScale = 1.5

// pngFormat names the way PNGs are drawn, in their ETags: a change of drawing changes it.
const pngFormat = "png/1"

// pictureSecurity forbids an SVG opened by itself to load or run anything: the pictures need only
// their own inline style.
const pictureSecurity = "default-src 'none'; style-src 'unsafe-inline'"

// layoutOf reads a picture's layout parameter; absent is the desktop's.
func layoutOf[T ~string](p *T) (domain.Layout, error) {
	if p == nil {
		return domain.Desktop, nil
	}
	for _, l := range domain.Layouts {
		if string(*p) == string(l) {
			return l, nil
		}
	}
	return "", domain.Invalid("invalid", "layout is desktop or phone; it was %q.", string(*p))
}

// GetPrimeClimbBoardPicture draws the board. The kind is the picture's file name, so that another
// kind's board picture is one more path of the contract, served here as it is.
func (s *Server) GetPrimeClimbBoardPicture(c echo.Context, params openapi.GetPrimeClimbBoardPictureParams) error {
	l, err := layoutOf(params.Layout)
	if err != nil {
		return err
	}
	return s.boardPicture(c, l, false)
}

// GetPrimeClimbBoardPicturePng draws the board as PNG.
func (s *Server) GetPrimeClimbBoardPicturePng(c echo.Context, params openapi.GetPrimeClimbBoardPicturePngParams) error {
	l, err := layoutOf(params.Layout)
	if err != nil {
		return err
	}
	return s.boardPicture(c, l, true)
}

// boardPNGs are the boards drawn as PNG, by kind and layout: each is drawn once.
var boardPNGs sync.Map // "kind/layout" → *boardPNG

type boardPNG struct {
	once sync.Once
	doc  []byte
	err  error
}

func (s *Server) boardPicture(c echo.Context, l domain.Layout, png bool) error {
	kind := strings.TrimSuffix(strings.TrimSuffix(path.Base(c.Path()), ".svg"), ".png")
	sc, err := s.play.BoardPicture(kind, l)
	if err != nil {
		return err
	}
	words := lang(c)
	sc = words.Scene(sc)
	if !png {
		return sendPicture(c, sc.SVG(), svgType, "public, max-age=86400")
	}
	entry, _ := boardPNGs.LoadOrStore(kind+"/"+string(l)+"/"+words.Code(), &boardPNG{})
	b := entry.(*boardPNG)
	b.once.Do(func() { b.doc, b.err = raster.PNG(sc, pngScale) })
	if b.err != nil {
		return b.err
	}
	return sendPicture(c, b.doc, pngType, "public, max-age=86400")
}

// GetGamePicture draws the game, or one step of it, as the caller may see it.
func (s *Server) GetGamePicture(c echo.Context, id openapi.GameID, params openapi.GetGamePictureParams) error {
	l, err := layoutOf(params.Layout)
	if err != nil {
		return err
	}
	return s.gamePicture(c, id, params.Seq, l, false)
}

// GetGamePicturePng is GetGamePicture as PNG.
func (s *Server) GetGamePicturePng(c echo.Context, id openapi.GameID, params openapi.GetGamePicturePngParams) error {
	l, err := layoutOf(params.Layout)
	if err != nil {
		return err
	}
	return s.gamePicture(c, id, params.Seq, l, true)
}

func (s *Server) gamePicture(c echo.Context, id openapi.GameID, seq *int64, l domain.Layout, png bool) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	pic, err := s.play.GamePicture(c.Request().Context(), id.String(), principal, seq, l)
	if err != nil {
		return err
	}
	cache := pictureCacheControl(pic.Immutable, pic.Private)
	pic.Scene = lang(c).Scene(pic.Scene)
	doc := pic.Scene.SVG()
	if !png {
		return sendPicture(c, doc, svgType, cache)
	}
	// The PNG is named by the SVG it is drawn from, so a client that has it is answered before
	// anything is drawn in pixels.
	tag := pngTag(pictureTag(c, doc))
	if notModified(c, tag, cache) {
		return c.NoContent(http.StatusNotModified)
	}
	return sendPNG(c, pic.Scene, tag)
}

// GetGameReplay draws a window of the game (play.ReplayMaxSteps entries at most) as one animated
// picture; Link names the windows before and after it. A window of a game that is over is drawn once
// for the requests that ask for it meanwhile (replay_share.go); one of a game being played is
// written as it is drawn.
func (s *Server) GetGameReplay(c echo.Context, id openapi.GameID, params openapi.GetGameReplayParams) error {
	l, err := layoutOf(params.Layout)
	if err != nil {
		return err
	}
	return s.gameReplay(c, id, params.From, params.Count, l, false)
}

// GetGameReplayPng is the last step of GetGameReplay's window as PNG.
func (s *Server) GetGameReplayPng(c echo.Context, id openapi.GameID, params openapi.GetGameReplayPngParams) error {
	l, err := layoutOf(params.Layout)
	if err != nil {
		return err
	}
	return s.gameReplay(c, id, params.From, params.Count, l, true)
}

func (s *Server) gameReplay(c echo.Context, id openapi.GameID, fromParam *int64, countParam *int, l domain.Layout, png bool) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	from, count := int64(0), play.ReplayMaxSteps
	if fromParam != nil {
		from = *fromParam
	}
	if countParam != nil {
		count = *countParam
	}
	ctx := c.Request().Context()
	r, err := s.play.ReplayPicture(ctx, id.String(), principal, from, count, l)
	if err != nil {
		return err
	}
	// The replay is drawn in the request's language, and its tag names the language, as a
	// picture's does (pictureTag): the drawings shared between requests are one per language.
	if words := lang(c); !words.English() {
		r.Lang = words
		sum := sha256.Sum256([]byte(words.Code() + "\x00" + r.Tag))
		r.Tag = `"r` + hex.EncodeToString(sum[:12]) + `"`
	}
	tag := r.Tag
	if png {
		tag = pngTag(tag)
	}
	if notModified(c, tag, pictureCacheControl(r.Immutable, r.Private)) {
		return c.NoContent(http.StatusNotModified)
	}
	h := c.Response().Header()
	if r.Immutable && !png {
		d := s.replays.drawing(ctx, r, s.drawInMemory(ctx, r))
		if d.err != nil {
			return d.err
		}
		r.Next = d.next
		if link := replayLinks(c, r, count, s.linkQueryFor(c, id.String())); link != "" {
			h.Set("Link", link)
		}
		return d.send(c)
	}
	release, err := s.renders.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	if err := r.Fold(ctx); err != nil {
		return err
	}
	if link := replayLinks(c, r, count, s.linkQueryFor(c, id.String())); link != "" {
		h.Set("Link", link)
	}
	if png {
		sc, err := r.Last()
		if err != nil {
			return err
		}
		return sendPNG(c, sc, tag)
	}
	h.Set(echo.HeaderContentType, svgType)
	c.Response().WriteHeader(http.StatusOK)
	return r.Draw(c.Response())
}

// replayLinks names the windows before and after a replay's, of the same size, for Link, each
// with linkQuery, a picture link for the same viewer (never the token: a token in an address ends
// up in logs, histories and Referer).
func replayLinks(c echo.Context, r *play.Replay, count int, linkQuery string) string {
	var links []string
	for _, l := range []struct {
		from *int64
		rel  string
	}{{r.Prev, "prev"}, {r.Next, "next"}} {
		if l.from == nil {
			continue
		}
		q := url.Values{"from": {strconv.FormatInt(*l.from, 10)}, "count": {strconv.Itoa(count)}}
		if v := c.QueryParam("layout"); v != "" {
			q.Set("layout", v)
		}
		target := c.Request().URL.Path + "?" + q.Encode()
		if linkQuery != "" {
			target += "&" + linkQuery
		}
		links = append(links, "<"+target+`>; rel="`+l.rel+`"`)
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

// contentTag is an ETag naming doc's content.
func contentTag(doc []byte) string {
	sum := sha256.Sum256(doc)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// pictureTag is the ETag of a picture in the request's language: an English picture's is its
// content's; another language's names the language too, so that a cache never takes one language's
// picture for another's even where they hold the same words.
func pictureTag(c echo.Context, doc []byte) string {
	if l := lang(c); !l.English() {
		sum := sha256.Sum256(append([]byte(l.Code()+"\x00"), doc...))
		return `"` + hex.EncodeToString(sum[:12]) + `"`
	}
	return contentTag(doc)
}

// pngTag is the ETag of the PNG drawn from the picture an SVG's tag names.
func pngTag(svgTag string) string {
	sum := sha256.Sum256([]byte(pngFormat + "\x00" + svgTag))
	return `"p` + hex.EncodeToString(sum[:12]) + `"`
}

// notModified sets a picture's ETag, caching and security headers and reports whether the client
// has it already.
func notModified(c echo.Context, tag, cacheControl string) bool {
	h := c.Response().Header()
	h.Set("ETag", tag)
	h.Set("Cache-Control", cacheControl)
	h.Set("Content-Security-Policy", pictureSecurity)
	return etagMatches(c.Request().Header.Get("If-None-Match"), tag)
}

// sendPicture sends a picture with an ETag of its content, or 304 when the client has it already.
func sendPicture(c echo.Context, doc []byte, contentType, cacheControl string) error {
	if notModified(c, pictureTag(c, doc), cacheControl) {
		return c.NoContent(http.StatusNotModified)
	}
	return sendWhole(c, http.StatusOK, contentType, doc)
}

// sendPNG draws a scene as PNG and sends it; its headers are set already (notModified).
func sendPNG(c echo.Context, sc *scene.Scene, tag string) error {
	doc, err := raster.PNG(sc, pngScale)
	if err != nil {
		return err
	}
	c.Response().Header().Set("ETag", tag)
	return sendWhole(c, http.StatusOK, pngType, doc)
}
