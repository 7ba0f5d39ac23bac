// Package scenetest helps the tests and benchmarks of the kinds' pictures.
package scenetest

import (
	"os"
	"path/filepath"
	"testing"

	"primegames/domain"
	"primegames/domain/scene"
	"primegames/domain/scene/raster"
)

// Keep writes a picture as name.svg and name.png under $PICTURES_DIR, when it is set, to look at.
func Keep(t testing.TB, name string, s *scene.Scene) {
	t.Helper()
	dir := os.Getenv("PICTURES_DIR")
	if dir == "" {
		return
	}
	doc, err := raster.PNG(s, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".svg"), s.SVG(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkPNG measures drawing pos as a PNG (at the api's 1.5 pixels per unit) in each layout.
func BenchmarkPNG(b *testing.B, p *domain.Picture, pos domain.Position) {
	for _, l := range domain.Layouts {
		b.Run(string(l), func(b *testing.B) {
			for range b.N {
				s, err := p.Still(l, pos)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := raster.PNG(s, 1.5); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
