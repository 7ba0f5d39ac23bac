package api

import (
	"embed"
	"mime"
	"net/http"
	"path"

	"github.com/labstack/echo/v4"

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

// GetDocsAsset serves one embedded file of the reference page.
func (s *Server) GetDocsAsset(c echo.Context, file string) error {
	data, err := docsAssets.ReadFile(path.Join("docs/swagger-ui", path.Base(file)))
	if err != nil {
		return domain.Errorf(domain.KindNotFound, "not_found", "There is no documentation asset named %q.", file)
	}
	contentType := mime.TypeByExtension(path.Ext(file))
	if contentType == "" {
		contentType = "text/plain; charset=utf-8"
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=86400")
	return c.Blob(http.StatusOK, contentType, data)
}

// GetOpenAPI serves the contract itself.
func (s *Server) GetOpenAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/yaml", s.contract)
}
