package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/play"
)

// BenchmarkActionJSON is the server's own work on the answer of POST …/actions?include=legal_actions
// for a Prime Climb game mid-play, right after a roll that left the seat that rolled 30 moves or
// more to choose from: render builds the body (gameBody, includeLegalActions and entryBody, which encode
// the state's view, the legal actions and the outcome); engine/… is the encoding of those three
// with json.Marshal (std) and with marshalEngine (goccy); action/… writes it as c.JSON does with
// echo's serializer (std) and with bodySerializer (bodies); legal-actions/… encodes GET
// …/legal-actions's body for the game cache, with json.Marshal and with marshalBody. Each run plays a
// new game (the service draws its seed), so compare the encoders within one run. Run it with
//
//	go test ./api -run '^$' -bench ActionJSON -benchmem
func BenchmarkActionJSON(b *testing.B) {
	played := playGame(b, "prime-climb", []string{"Ada", "Ben"}, 1, func(p playedGame, moves int) bool {
		return moves < 12 || len(legalChoices(b, p.acted.Game, p.acted.Caller.Seat)) < 30
	})
	result := played.actionResult(b, true)
	legal := *result.Game.LegalActions
	b.Run("render", func(b *testing.B) {
		b.ReportAllocs()
		defer reportCPU(b)()
		for range b.N {
			played.actionResult(b, true)
		}
	})
	g, caller := played.acted.Game, played.acted.Caller
	viewer := play.ViewerFor(g.Status, caller)
	outcome, err := g.Rules.DecodeOutcome(played.acted.Entry.Outcome)
	if err != nil {
		b.Fatal(err)
	}
	engineValues := []any{g.State.View(viewer), g.ChoicesOf(caller.Seat).Actions, outcome.Redact(viewer)}
	for name, marshal := range map[string]func(any) ([]byte, error){"std": json.Marshal, "goccy": marshalEngine} {
		b.Run("engine/"+name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for range b.N {
				for _, v := range engineValues {
					if _, err := marshal(v); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	e := echo.New()
	c := e.NewContext(httptest.NewRequest(http.MethodPost, "/", nil), discardWriter{header: http.Header{}})
	for _, encoder := range []struct {
		name       string
		serializer echo.JSONSerializer
		marshal    func(any) ([]byte, error)
	}{{"std", echo.DefaultJSONSerializer{}, json.Marshal}, {"bodies", bodySerializer{}, marshalBody}} {
		e.JSONSerializer = encoder.serializer
		b.Run("action/"+encoder.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for range b.N {
				c.Response().Committed = false
				if err := c.JSON(http.StatusCreated, result); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("legal-actions/"+encoder.name, func(b *testing.B) {
			b.ReportAllocs()
			defer reportCPU(b)()
			for range b.N {
				if _, err := encoder.marshal(legal); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// discardWriter is a ResponseWriter that drops what it is given.
type discardWriter struct{ header http.Header }

func (w discardWriter) Header() http.Header       { return w.header }
func (discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (discardWriter) WriteHeader(int)             {}

// reportCPU starts counting the process's CPU time; the function it returns reports it per op, as
// cpu-ns/op: it includes the garbage collector's work on other threads.
func reportCPU(b *testing.B) func() {
	before := cpuTime()
	return func() {
		b.StopTimer()
		b.ReportMetric(float64((cpuTime()-before).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
