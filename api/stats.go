package api

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

// GetClassroomStats reports per student and for the class what they did and where they struggle.
func (s *Server) GetClassroomStats(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	stats, err := s.play.ClassroomStats(c.Request().Context(), classroom.ID)
	if err != nil {
		return err
	}
	body := openapi.ClassroomStats{ClassroomId: mustUUID(classroom.ID), Students: make([]openapi.StudentStats, len(stats.Students))}
	for i, st := range stats.Students {
		totals := s.totalsBody(st)
		body.Students[i] = openapi.StudentStats{
			StudentId: mustUUID(st.StudentID), Name: st.Name,
			GamesPlayed: totals.GamesPlayed, GamesFinished: totals.GamesFinished, GamesWon: totals.GamesWon,
			Games: totals.Games, Attempts: totals.Attempts,
		}
	}
	body.Class = s.totalsBody(stats.Class)
	if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/csv") {
		return sendStatsCSV(c, body)
	}
	return c.JSON(http.StatusOK, body)
}

// totalsBody reports every kind the server hosts, with the counters the kind's tally summed and the
// measures the kind derives from them.
func (s *Server) totalsBody(st play.StudentStats) openapi.StatsTotals {
	t := openapi.StatsTotals{
		GamesPlayed: st.GamesPlayed, GamesFinished: st.GamesFinished, GamesWon: st.GamesWon,
		Games:    map[string]openapi.KindStats{},
		Attempts: make([]openapi.AttemptCount, len(st.Attempts)),
	}
	for _, kind := range s.play.Kinds().Kinds() {
		counts := orEmptyMap(st.Counts[kind.Name()])
		t.Games[kind.Name()] = openapi.KindStats{Counts: counts, Measures: kind.MeasuresOf(counts)}
	}
	for i, a := range st.Attempts {
		t.Attempts[i] = openapi.AttemptCount{Code: a.Code, Count: a.Count, Examples: orEmpty(a.Examples)}
	}
	return t
}

// sendStatsCSV writes one row per student and measure, plus the class's rows, for spreadsheets:
// student_id,name,measure,value.
func sendStatsCSV(c echo.Context, body openapi.ClassroomStats) error {
	c.Response().Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	c.Response().Header().Set("Content-Disposition", `attachment; filename="classroom-stats.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	_ = w.Write([]string{"student_id", "name", "measure", "value"})
	for _, st := range body.Students {
		writeTotalsCSV(w, st.StudentId.String(), st.Name, openapi.StatsTotals{
			GamesPlayed: st.GamesPlayed, GamesFinished: st.GamesFinished, GamesWon: st.GamesWon,
			Games: st.Games, Attempts: st.Attempts,
		})
	}
	writeTotalsCSV(w, "", "(class)", body.Class)
	w.Flush()
	return w.Error()
}

func writeTotalsCSV(w *csv.Writer, id, name string, t openapi.StatsTotals) {
	row := func(measure string, value string) { _ = w.Write([]string{id, spreadsheetSafe(name), measure, value}) }
	row("games_played", strconv.Itoa(t.GamesPlayed))
	row("games_finished", strconv.Itoa(t.GamesFinished))
	row("games_won", strconv.Itoa(t.GamesWon))
	for _, kind := range sortedKeys(t.Games) {
		prefix := csvPrefix(kind)
		for _, name := range sortedKeys(t.Games[kind].Counts) {
			row(prefix+name, strconv.Itoa(t.Games[kind].Counts[name]))
		}
		for _, name := range sortedKeys(t.Games[kind].Measures) {
			row(prefix+name, strconv.FormatFloat(t.Games[kind].Measures[name], 'f', 2, 64))
		}
	}
	for _, a := range t.Attempts {
		row("attempts."+a.Code, strconv.Itoa(a.Count))
	}
}

// csvPrefix names a kind's figures in spreadsheets: "prime-climb" gives "prime_climb.".
func csvPrefix(kind string) string { return strings.ReplaceAll(kind, "-", "_") + "." }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func orEmptyMap(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// spreadsheetSafe keeps a name that a spreadsheet would read as a formula ("=HYPERLINK(…)") as text.
func spreadsheetSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
