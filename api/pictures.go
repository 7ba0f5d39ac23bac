package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path"
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
	pic, err := s.play.GamePicture(c.Request().Context(), id.String(), principal, params.Seq)
	if err != nil {
		return err
	}
	return sendSVG(c, pic.SVG, pictureCacheControl(pic))
}

// GetGameReplay draws the whole game as one animated picture.
func (s *Server) GetGameReplay(c echo.Context, id openapi.GameID, _ openapi.GetGameReplayParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	pic, err := s.play.ReplayPicture(c.Request().Context(), id.String(), principal)
	if err != nil {
		return err
	}
	return sendSVG(c, pic.SVG, pictureCacheControl(pic))
}

func pictureCacheControl(pic *play.Picture) string {
	switch {
	case !pic.Immutable:
		return "no-cache"
	case pic.Private:
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
