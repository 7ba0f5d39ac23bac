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
	body := openapi.ClassroomStats{ClassroomId: mustUUID(classroom.ID), Students: make([]openapi.StudentStats, len(stats.Students)),
		ReviewsPending: stats.ReviewsPending}
	for i, st := range stats.Students {
		body.Students[i] = studentStatsBody(st.StudentID, st.Name, s.totalsBody(st))
	}
	body.Class = s.totalsBody(stats.Class)
	if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/csv") {
		return sendStatsCSV(c, body)
	}
	return c.JSON(http.StatusOK, body)
}

func studentStatsBody(id, name string, t openapi.StatsTotals) openapi.StudentStats {
	return openapi.StudentStats{
		StudentId: mustUUID(id), Name: name,
		GamesPlayed: t.GamesPlayed, GamesFinished: t.GamesFinished, GamesWon: t.GamesWon,
		Games: t.Games, Attempts: t.Attempts,
		HintsUsed: t.HintsUsed, JudgedActions: t.JudgedActions, Accuracy: t.Accuracy,
	}
}

func totalsOfStudent(st openapi.StudentStats) openapi.StatsTotals {
	return openapi.StatsTotals{
		GamesPlayed: st.GamesPlayed, GamesFinished: st.GamesFinished, GamesWon: st.GamesWon,
		Games: st.Games, Attempts: st.Attempts,
		HintsUsed: st.HintsUsed, JudgedActions: st.JudgedActions, Accuracy: st.Accuracy,
	}
}

// totalsBody reports every kind the server hosts, with the counters the kind's tally summed and the
// measures the kind derives from them.
func (s *Server) totalsBody(st play.StudentStats) openapi.StatsTotals {
	t := openapi.StatsTotals{
		GamesPlayed: st.GamesPlayed, GamesFinished: st.GamesFinished, GamesWon: st.GamesWon,
		Games:     map[string]openapi.KindStats{},
		Attempts:  make([]openapi.AttemptCount, len(st.Attempts)),
		HintsUsed: st.HintsUsed,
	}
	if all := st.AllReviews(); all != nil {
		t.JudgedActions, t.Accuracy = all.Judged, all.Accuracy()
	}
	for _, kind := range s.play.Kinds().Kinds() {
		counts := orEmptyMap(st.Counts[kind.Name()])
		t.Games[kind.Name()] = openapi.KindStats{Counts: counts, Measures: kind.MeasuresOf(counts), Mistakes: mistakesBody(st.Mistakes[kind.Name()]),
			Review: reviewStatsBody(st.Reviews[kind.Name()])}
	}
	for i, a := range st.Attempts {
		t.Attempts[i] = openapi.AttemptCount{Code: a.Code, Count: a.Count, Examples: orEmpty(a.Examples)}
	}
	return t
}

func reviewStatsBody(r *play.ReviewCounts) openapi.KindReviewStats {
	if r == nil {
		return openapi.KindReviewStats{Labels: map[string]int{}, Missed: map[string]int{}}
	}
	return openapi.KindReviewStats{Judged: r.Judged, Accuracy: r.Accuracy(), Labels: r.Labels, Missed: r.Missed}
}

// mistakesBody lists each figure's values, most frequent first (ties in value order).
func mistakesBody(figures map[string]map[string]int) map[string][]openapi.MistakeCount {
	out := map[string][]openapi.MistakeCount{}
	for figure, values := range figures {
		list := make([]openapi.MistakeCount, 0, len(values))
		for value, n := range values {
			list = append(list, openapi.MistakeCount{Value: value, Count: n})
		}
		slices.SortFunc(list, func(a, b openapi.MistakeCount) int {
			if a.Count != b.Count {
				return b.Count - a.Count
			}
			return compareValues(a.Value, b.Value)
		})
		out[figure] = list
	}
	return out
}

// compareValues orders numbers as numbers ("9" before "21") and words as words.
func compareValues(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x - y
	}
	return strings.Compare(a, b)
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
		writeTotalsCSV(w, st.StudentId.String(), st.Name, totalsOfStudent(st))
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
	row("hints_used", strconv.Itoa(t.HintsUsed))
	row("judged_actions", strconv.Itoa(t.JudgedActions))
	if t.Accuracy != nil {
		row("accuracy", strconv.FormatFloat(*t.Accuracy, 'f', 2, 64))
	}
	for _, kind := range sortedKeys(t.Games) {
		prefix := csvPrefix(kind)
		for _, name := range sortedKeys(t.Games[kind].Counts) {
			row(prefix+name, strconv.Itoa(t.Games[kind].Counts[name]))
		}
		for _, name := range sortedKeys(t.Games[kind].Measures) {
			row(prefix+name, strconv.FormatFloat(t.Games[kind].Measures[name], 'f', 2, 64))
		}
		for _, figure := range sortedKeys(t.Games[kind].Mistakes) {
			for _, m := range t.Games[kind].Mistakes[figure] {
				row(prefix+figure+"."+m.Value, strconv.Itoa(m.Count))
			}
		}
		writeReviewCSV(row, prefix+"review.", t.Games[kind].Review)
	}
	for _, a := range t.Attempts {
		row("attempts."+a.Code, strconv.Itoa(a.Count))
	}
}

func writeReviewCSV(row func(measure, value string), prefix string, r openapi.KindReviewStats) {
	row(prefix+"judged", strconv.Itoa(r.Judged))
	if r.Accuracy != nil {
		row(prefix+"accuracy", strconv.FormatFloat(*r.Accuracy, 'f', 2, 64))
	}
	for _, label := range sortedKeys(r.Labels) {
		row(prefix+"labels."+label, strconv.Itoa(r.Labels[label]))
	}
	for _, missed := range sortedKeys(r.Missed) {
		row(prefix+"missed."+missed, strconv.Itoa(r.Missed[missed]))
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
