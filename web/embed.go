// Package web is the reference web app: its TypeScript sources (src/), the bundle esbuild makes of
// them (dist/, committed, made by `npm run build` in this directory or `go generate ./web`) and,
// here, that bundle embedded in the binary, which serves it at /app/ (api/webapp.go).
package web

import (
	"embed"
	"io/fs"
)

//go:generate npm run build

//go:embed dist
var dist embed.FS

// Dist is the bundle: index.html and assets/ (app-<hash>.js, app-<hash>.css).
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // dist is embedded above: fs.Sub fails only on an invalid name
	}
	return sub
}
