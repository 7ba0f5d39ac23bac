package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/repo/repotest"
)

// BenchmarkGetGame reads one game with a seat's token over real HTTP from a real Postgres, as the
// bench's GET mode does. Besides ns/op and allocs/op it reports cpu-µs/op: the CPU time of the
// whole test process (client and server) per request, which the load on a shared machine changes
// far less than the wall time. Run it with
//
//	go test ./api -run '^$' -bench GetGame -benchmem
func BenchmarkGetGame(b *testing.B) {
	for _, variant := range []struct {
		name, query string
		gzip        bool
	}{{"gzip", "", true}, {"identity", "", false}, {"gzip+legal_actions", "?include=legal_actions", true}} {
		b.Run(variant.name, func(b *testing.B) {
			srv, err := newAPI(testConfig(), repotest.NewDB(b), quietLogger())
			if err != nil {
				b.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			b.Cleanup(ts.Close)
			httpClient := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
			id, token := benchGame(b, httpClient, ts.URL)
			req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/games/"+id+variant.query, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			if variant.gzip {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			get := func() {
				resp, err := httpClient.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("GET = %d", resp.StatusCode)
				}
			}
			get()
			b.ReportAllocs()
			before := processCPU()
			b.ResetTimer()
			for range b.N {
				get()
			}
			b.StopTimer()
			b.ReportMetric(float64((processCPU()-before).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// benchGame creates a two-player Prime Climb game and returns its id and the first seat's token.
func benchGame(b *testing.B, httpClient *http.Client, url string) (id, token string) {
	body, _ := json.Marshal(map[string]any{"game": "prime-climb", "players": names(2)})
	resp, err := httpClient.Post(url+"/v1/games", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var created client.CreatedGame
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated {
		b.Fatalf("create = %d: %v", resp.StatusCode, err)
	}
	return created.Game.Id.String(), created.Seats[0].Token
}

// processCPU is the user and system CPU time this process has used.
func processCPU() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
