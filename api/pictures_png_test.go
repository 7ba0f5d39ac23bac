package api_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"primegames/api/apitest"
	"primegames/domain/primeclimb"
	"primegames/domain/svg/svgtest"
)

// pngScale is the contract's PNG pixels per SVG unit.
const pngScale = 1.5

// pngOf fetches a PNG route, checks what every PNG response carries, and decodes it.
func pngOf(t *testing.T, h *gamesHarness, path string, headers ...string) (*apitest.Response, image.Image) {
	t.Helper()
	resp := fetchPicture(t, h, path, "image/png", headers...)
	img, err := png.Decode(bytes.NewReader(resp.Body))
	if err != nil {
		t.Fatalf("GET %s: not a PNG: %v", path, err)
	}
	return resp, img
}

// sameAsSVG checks that a PNG is its SVG's size × 1.5 and shows what the SVG shows where it shows
// it: pawns in their seats' colours, the squares' wedges, the cards' faces and backs.
func sameAsSVG(t *testing.T, what string, root svgtest.Node, img image.Image) {
	t.Helper()
	w, _ := strconv.ParseFloat(root.Attr("width"), 64)
	hgt, _ := strconv.ParseFloat(root.Attr("height"), 64)
	if b := img.Bounds(); b.Dx() != int(math.Ceil(w*pngScale)) || b.Dy() != int(math.Ceil(hgt*pngScale)) {
		t.Fatalf("%s: the PNG is %v, the SVG %v × %v", what, b.Size(), w, hgt)
	}
	var pawns [][3]float64 // x, y, r of every pawn's disc
	for _, p := range root.All("pawn") {
		disc, _ := p.Child("circle")
		pawns = append(pawns, [3]float64{attrNum(disc, "cx"), attrNum(disc, "cy"), attrNum(disc, "r")})
	}
	probes := 0
	probe := func(x, y float64, want string, of string) {
		t.Helper()
		for _, p := range pawns {
			if !strings.HasPrefix(of, "a pawn") && math.Hypot(x-p[0], y-p[1]) < p[2]+2 {
				return // a pawn covers what is under it
			}
		}
		got := img.At(int(x*pngScale), int(y*pngScale))
		if !near(got, want) {
			t.Errorf("%s: %s at (%.0f, %.0f) is %v in the PNG, %s in the SVG", what, of, x, y, got, want)
		}
		probes++
	}
	for _, p := range root.All("pawn") {
		disc, _ := p.Child("circle")
		cx, cy, r := attrNum(disc, "cx"), attrNum(disc, "cy"), attrNum(disc, "r")
		probe(cx+0.65*r, cy, disc.Attr("fill"), "a pawn of seat "+p.Attr("data-seat"))
	}
	for _, sq := range root.All("square") {
		if n, _ := strconv.Atoi(sq.Attr("data-number")); n%5 != 2 {
			continue
		}
		for _, w := range sq.All("wedge") {
			if w.XMLName.Local == "circle" { // a square of one colour: its ring
				probe(attrNum(w, "cx"), attrNum(w, "cy")-0.85*attrNum(w, "r"), w.Attr("fill"), "square "+sq.Attr("data-number"))
			}
		}
	}
	for _, card := range root.All("card") {
		rect, _ := card.Child("rect")
		probe(attrNum(rect, "x")+attrNum(rect, "width")*0.15, attrNum(rect, "y")+attrNum(rect, "height")*0.5, rect.Attr("fill"), card.Attr("class"))
	}
	if probes < 4 {
		t.Fatalf("%s: only %d probes: the comparison proves little", what, probes)
	}
}

func attrNum(n svgtest.Node, name string) float64 {
	v, _ := strconv.ParseFloat(n.Attr(name), 64)
	return v
}

// near reports whether c is the colour hex (#rrggbb) give or take what smoothing the edges does.
func near(c color.Color, hex string) bool {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		return false
	}
	r, g, b, _ := c.RGBA()
	d := func(a uint32, want uint64) float64 { return math.Abs(float64(a>>8) - float64(want&0xff)) }
	return d(r, v>>16) <= 24 && d(g, v>>8) <= 24 && d(b, v) <= 24
}

// Every picture is also a PNG of the same scene, in both layouts: the same size (× 1.5), the same
// pawns, squares and cards where the SVG has them, its own ETag answered with 304, the same
// caching.
func TestPNGPicturesShowWhatTheirSVGsShow(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}, {"name": "Cy"}}})
	id := c.Game.Id.String()
	playSome(t, h, c, 9)
	for _, layout := range []string{"desktop", "phone"} {
		for _, base := range []string{"/v1/games/" + id + "/picture", "/v1/boards/prime-climb"} {
			svgResp, root := picture(t, h, base+".svg?layout="+layout)
			resp, img := pngOf(t, h, base+".png?layout="+layout)
			sameAsSVG(t, base+" "+layout, root, img)
			if resp.Header.Get("ETag") == svgResp.Header.Get("ETag") || resp.Header.Get("Cache-Control") != svgResp.Header.Get("Cache-Control") {
				t.Errorf("%s.png: ETag %s (the SVG's %s), Cache-Control %q (the SVG's %q)", base, resp.Header.Get("ETag"), svgResp.Header.Get("ETag"),
					resp.Header.Get("Cache-Control"), svgResp.Header.Get("Cache-Control"))
			}
			if r := h.Get(base+".png?layout="+layout, "If-None-Match", resp.Header.Get("ETag")); r.StatusCode != http.StatusNotModified {
				t.Errorf("%s.png with its ETag = %d, want 304", base, r.StatusCode)
			}
		}
	}
	// The desktop board is as the contract says, and the layouts differ in shape.
	_, desk := pngOf(t, h, "/v1/boards/prime-climb.png")
	_, phone := pngOf(t, h, "/v1/boards/prime-climb.png?layout=phone")
	if desk.Bounds().Size() != image.Pt(1470, 990) || phone.Bounds().Dx() != 975 || phone.Bounds().Dy() <= phone.Bounds().Dx() {
		t.Errorf("the board PNGs are %v (desktop) and %v (phone)", desk.Bounds().Size(), phone.Bounds().Size())
	}
	// A pawn's colour is where its SVG puts it: Start, where the pawns begin, holds a seat colour.
	for _, path := range []string{"/v1/games/" + id + "/picture.png?seq=0", "/v1/games/" + id + "/picture.png?seq=0&layout=phone"} {
		_, img := pngOf(t, h, path)
		_, root := picture(t, h, strings.Replace(path, ".png", ".svg", 1))
		seen := map[string]bool{}
		for _, p := range root.All("pawn") {
			disc, _ := p.Child("circle")
			if p.Attr("data-square") == "0" && near(img.At(int((attrNum(disc, "cx")+5)*pngScale), int(attrNum(disc, "cy")*pngScale)), primeclimb.SeatColors[len(seen)%3]) {
				seen[p.Attr("data-seat")] = true
			}
		}
		if len(seen) == 0 {
			t.Errorf("%s: no pawn colour found at Start", path)
		}
	}
	for _, bad := range []string{"/v1/games/" + id + "/picture.png?layout=tablet", "/v1/boards/prime-climb.png?layout=", "/v1/games/" + id + "/picture.svg?layout=wide"} {
		if r := h.Get(bad); r.StatusCode != http.StatusBadRequest {
			t.Errorf("GET %s = %d, want 400", bad, r.StatusCode)
		}
	}
}

// A PNG shows no card its viewer may not see: the same cards face up and face down as the SVG
// for the same caller; and a replay's PNG is the last step of the window, for those who may replay.
func TestPrimedPNGHidesWhatTheSVGHidesAndReplaysTheLastStep(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	id := c.Game.Id.String()
	playSome(t, h, c, 3)
	base := "/v1/games/" + id
	for _, layout := range []string{"desktop", "phone"} {
		for _, who := range [][]string{nil, bearer(c.Seats[0].Token), bearer(c.Seats[1].Token)} {
			_, root := picture(t, h, base+"/picture.svg?layout="+layout, who...)
			_, img := pngOf(t, h, base+"/picture.png?layout="+layout, who...)
			sameAsSVG(t, fmt.Sprintf("primed %s %v", layout, who), root, img)
		}
	}
	if r := h.Get(base+"/replay.png", bearer(c.Seats[0].Token)...); r.StatusCode != http.StatusForbidden {
		t.Errorf("the replay PNG of an active game for a seat = %d, want 403", r.StatusCode)
	}
	if r := h.Post(base+"/abort", nil, bearer(c.CreatorToken)...); r.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", r.StatusCode, r.Body)
	}
	_, replay := picture(t, h, base+"/replay.svg?count=2&layout=phone")
	if title, _ := replay.Child("title"); title.Text != "Primed: Ada and Ben, entries 0 to 1" {
		t.Errorf("the replay is titled %q", title.Text)
	}
	steps := replay.All("step")
	counter := steps[len(steps)-1].All("counter")
	if len(counter) != 1 || counter[0].Text != "Step 2 of 2 (entry 1)" {
		t.Fatalf("the last step's counter is %v", counter)
	}
	resp, img := pngOf(t, h, base+"/replay.png?count=2&layout=phone")
	_, last := picture(t, h, base+"/picture.svg?seq=1&layout=phone")
	sameAsSVG(t, "the replay's last step", last, img)
	if link := resp.Header.Get("Link"); !strings.Contains(link, "/replay.png?") || !strings.Contains(link, "layout=phone") || !strings.Contains(link, `rel="next"`) {
		t.Errorf("the replay PNG's Link is %q", link)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("the replay PNG of a game that is over has Cache-Control %q", cc)
	}
	if r := h.Get(base+"/replay.png?count=2&layout=phone", "If-None-Match", resp.Header.Get("ETag")); r.StatusCode != http.StatusNotModified {
		t.Errorf("the replay PNG with its ETag = %d, want 304", r.StatusCode)
	}
}
