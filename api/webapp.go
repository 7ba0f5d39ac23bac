package api

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"primegames/domain"
	"primegames/web"
)

// webAppSecurity is the Content-Security-Policy of every answer under /app/: scripts and styles
// from this origin only (no inline script or style, no eval), calls to this origin only, pictures
// from this origin or made in the page (the game's SVG is fetched with the seat's token and shown
// from a blob: URL), no plugin, and forms that post only here. Framing is webAppFraming's.
const webAppSecurity = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; object-src 'none'"

// webAppFramed says whether a page of the app (its path under /app/) may be shown in an LMS's
// frame: the page an LTI launch lands on (lti) and the pages it goes on to, a teacher's
// (teacher…) and a student's (me, game/…), which a reload inside the frame fetches again. The
// landing page and the card sign-in are never framed.
func webAppFramed(name string) bool {
	name = strings.TrimRight(name, "/")
	return name == "lti" || name == "teacher" || strings.HasPrefix(name, "teacher/") || name == "me" || strings.HasPrefix(name, "game/")
}

// webAppFraming is the page's frame-ancestors directive: 'none', except on the pages an LTI launch
// opens, which the registered platforms' origins may frame (ltiFrameAncestors, lti.go).
func (s *Server) webAppFraming(c echo.Context, name string) string {
	if !webAppFramed(name) {
		return "frame-ancestors 'none'"
	}
	return s.ltiFrameAncestors(c.Request().Context())
}

// webAppFiles holds the bundle's files, read and compressed once.
var webAppFiles = struct {
	sync.Mutex
	byName map[string]*docsFile
}{byName: map[string]*docsFile{}}

// serveWebApp adds the web app's routes (web/): /app/assets/… are the bundle's hashed files, cached
// for a year; any other path under /app/ is index.html, never cached, which routes in the page.
// They are not routes of the contract: the app is a client of the API like any other.
func (s *Server) serveWebApp() {
	s.echo.GET("/app", func(c echo.Context) error { return c.Redirect(http.StatusMovedPermanently, "/app/") })
	s.echo.GET("/app/*", s.getWebApp)
}

func (s *Server) getWebApp(c echo.Context) error {
	h := c.Response().Header()
	name := c.Param("*")
	h.Set("Content-Security-Policy", webAppSecurity+"; "+s.webAppFraming(c, name))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if strings.HasPrefix(name, "assets/") {
		asset, err := webAppFile(path.Clean(name))
		if err != nil {
			return domain.Errorf(domain.KindNotFound, "not_found", "The web app has no file named %q.", name)
		}
		return sendAsset(c, asset, name, "public, max-age=31536000, immutable")
	}
	page, err := webAppFile("index.html")
	if err != nil {
		return err
	}
	return sendAsset(c, page, "index.html", "no-cache")
}

// webAppFile is one file of the bundle.
func webAppFile(name string) (*docsFile, error) {
	webAppFiles.Lock()
	defer webAppFiles.Unlock()
	if f, ok := webAppFiles.byName[name]; ok {
		return f, nil
	}
	plain, err := fs.ReadFile(web.Dist(), name)
	if err != nil {
		return nil, err
	}
	f := packAsset(plain)
	webAppFiles.byName[name] = f
	return f, nil
}
