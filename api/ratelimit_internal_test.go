package api

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/labstack/echo/v4"
)

// One address holds at most addressShare clients' streams, whatever tokens they carry; a slot
// released is free again.
func TestStreamCapPerAddress(t *testing.T) {
	e := echo.New()
	withToken := func(token string) echo.Context {
		req := httptest.NewRequest("GET", "/v1/games/x/events", nil)
		req.RemoteAddr = "203.0.113.5:4000"
		req.Header.Set(echo.HeaderAuthorization, "Bearer "+token)
		return e.NewContext(req, httptest.NewRecorder())
	}
	sc := streamCap{perClient: 1, open: map[string]int{}}
	var releases []func()
	for i := range addressShare {
		release, err := sc.acquire(withToken("pgs_" + strconv.Itoa(i)))
		if err != nil {
			t.Fatalf("stream %d, each with its own token: %v", i+1, err)
		}
		releases = append(releases, release)
	}
	if _, err := sc.acquire(withToken("pgs_another")); err == nil {
		t.Fatalf("stream %d from one address was allowed; the address holds %d at most", addressShare+1, addressShare)
	}
	releases[0]()
	if _, err := sc.acquire(withToken("pgs_another")); err != nil {
		t.Fatalf("after one stream closed: %v", err)
	}
	if len(sc.open) != addressShare+1 {
		t.Errorf("%d keys counted, want %d tokens and the address", len(sc.open), addressShare+1)
	}
}
