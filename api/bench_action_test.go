package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"primegames/repo/repotest"
)

// BenchmarkLeanAction is one action of the bench's lean loop over real HTTP from a real Postgres:
// GET …/legal-actions with the token of the seat to act, then POST …/actions with one of them and
// an Idempotency-Key; a finished game is replaced by a new one. Games and choices follow a fixed
// seed, so two builds play the same actions. It reports cpu-µs/op as BenchmarkGetGame does. Run it
// with
//
//	VERIFY_ENCODINGS=0 go test ./api -run '^$' -bench LeanAction -benchmem
func BenchmarkLeanAction(b *testing.B) {
	for _, kind := range []string{"prime-climb", "primed"} {
		b.Run(kind, func(b *testing.B) {
			srv, err := newAPI(testConfig(), repotest.NewDB(b), quietLogger())
			if err != nil {
				b.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			b.Cleanup(ts.Close)
			client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 4}}
			rng := rand.New(rand.NewPCG(1, 2))
			call := func(method, path, token string, body []byte, key string, out any) {
				req, _ := http.NewRequest(method, ts.URL+path, bytes.NewReader(body))
				if token != "" {
					req.Header.Set("Authorization", "Bearer "+token)
				}
				if body != nil {
					req.Header.Set("Content-Type", "application/json")
				}
				if key != "" {
					req.Header.Set("Idempotency-Key", key)
				}
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				raw, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode/100 != 2 {
					b.Fatalf("%s %s = %d: %s", method, path, resp.StatusCode, raw)
				}
				if err := json.Unmarshal(raw, out); err != nil {
					b.Fatal(err)
				}
			}
			type turn struct {
				Status string `json:"status"`
				Turn   *struct {
					ToAct []int `json:"to_act"`
				} `json:"turn"`
			}
			var id string
			var tokens []string
			var state turn
			newGame := func() {
				body, _ := json.Marshal(map[string]any{"game": kind, "players": names(2)})
				var created struct {
					Game struct {
						ID string `json:"id"`
						turn
					} `json:"game"`
					Seats []struct{ Token string } `json:"seats"`
				}
				call(http.MethodPost, "/v1/games", "", body, "", &created)
				id, state, tokens = created.Game.ID, created.Game.turn, nil
				for _, s := range created.Seats {
					tokens = append(tokens, s.Token)
				}
			}
			act := func(n int) {
				if state.Status != "active" || state.Turn == nil || len(state.Turn.ToAct) == 0 {
					newGame()
				}
				token := tokens[state.Turn.ToAct[0]]
				var legal struct {
					Actions []struct{ Action json.RawMessage }
				}
				call(http.MethodGet, "/v1/games/"+id+"/legal-actions", token, nil, "", &legal)
				var result struct{ Game turn }
				call(http.MethodPost, "/v1/games/"+id+"/actions", token, legal.Actions[rng.IntN(len(legal.Actions))].Action, "k"+strconv.Itoa(n), &result)
				state = result.Game
			}
			act(0)
			b.ReportAllocs()
			before := processCPU()
			b.ResetTimer()
			for n := range b.N {
				act(n + 1)
			}
			b.StopTimer()
			b.ReportMetric(float64((processCPU()-before).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}
