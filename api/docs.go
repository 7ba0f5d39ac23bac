package api

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/domain"
)

// Swagger UI (swagger-ui-dist, Apache-2.0, LICENSE beside it) is embedded so /docs works offline.
//
//go:embed docs/swagger-ui
var docsAssets embed.FS

const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Prime games API</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>
window.onload = function () {
  window.ui = SwaggerUIBundle({ url: "/openapi.yaml", dom_id: "#reference", deepLinking: true });
};
</script>
</body>
</html>
`

// GetDocs serves the interactive API reference.
func (s *Server) GetDocs(c echo.Context) error {
	return c.HTML(http.StatusOK, docsPage)
}

// GetDocsAsset serves one embedded file of the reference page: cacheable, revalidated by its ETag,
// and gzipped once for every client that accepts it (the Swagger UI bundle is 1.7 MB, 0.5 MB gzipped).
func (s *Server) GetDocsAsset(c echo.Context, file string) error {
	name := path.Base(file)
	asset, err := docsAsset(name)
	if err != nil {
		return domain.Errorf(domain.KindNotFound, "not_found", "There is no documentation asset named %q.", file)
	}
	return sendAsset(c, asset, name, "public, max-age=86400")
}

// sendAsset sends an embedded file with its cache policy, gzipped for a client that accepts it,
// and answers 304 to an If-None-Match that names it.
func sendAsset(c echo.Context, asset *docsFile, name, cacheControl string) error {
	contentType := mime.TypeByExtension(path.Ext(name))
	if contentType == "" {
		contentType = "text/plain; charset=utf-8"
	}
	h := c.Response().Header()
	h.Set("Cache-Control", cacheControl)
	h.Add("Vary", "Accept-Encoding")
	body, tag := asset.plain, asset.etag
	if middleware.AcceptsGzip(c.Request()) {
		h.Set("Content-Encoding", "gzip")
		body, tag = asset.gzipped, "W/"+asset.etag
	}
	h.Set("ETag", tag)
	if etagMatches(c.Request().Header.Get("If-None-Match"), asset.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return sendWhole(c, http.StatusOK, contentType, body)
}

// docsFile is one asset of the reference page in both its forms.
type docsFile struct {
	plain, gzipped []byte
	etag           string // strong, of the plain bytes; the gzipped form carries it weak
}

var (
	docsFilesMu sync.Mutex
	docsFiles   = map[string]*docsFile{}
)

// docsAsset reads and compresses an asset the first time it is asked for.
func docsAsset(name string) (*docsFile, error) {
	docsFilesMu.Lock()
	defer docsFilesMu.Unlock()
	if f, ok := docsFiles[name]; ok {
		return f, nil
	}
	plain, err := docsAssets.ReadFile(path.Join("docs/swagger-ui", name))
	if err != nil {
		return nil, err
	}
	f := packAsset(plain)
	docsFiles[name] = f
	return f, nil
}

// packAsset is a file's bytes with their gzipped form and their ETag.
func packAsset(plain []byte) *docsFile {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(plain)
	_ = zw.Close()
	sum := sha256.Sum256(plain)
	return &docsFile{plain: plain, gzipped: gz.Bytes(), etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
}

// etagMatches applies If-None-Match's weak comparison: W/"x" and "x" match "x", as does *.
func etagMatches(ifNoneMatch, etag string) bool {
	for _, candidate := range strings.Split(ifNoneMatch, ",") {
		candidate = strings.TrimPrefix(strings.TrimSpace(candidate), "W/")
		if candidate == "*" || candidate == etag {
			return true
		}
	}
	return false
}

// GetOpenAPI serves the contract itself.
func (s *Server) GetOpenAPI(c echo.Context) error {
	return sendWhole(c, http.StatusOK, "application/yaml", s.contract)
}
