package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"primegames.dev/client"

	"primegames/domain/games"
)

// The classroom statistics, as JSON and CSV, against the counts the review worked out itself.

func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// checkTotals compares one student's (or the class's) statistics with the counts. Examples are
// refusal sentences of the code; with strictExamples, the most recent, newest first, up to three.
func (r *review) checkTotals(who string, got client.StatsTotals, want *crCounts, strictExamples bool) {
	t := r.t
	t.Helper()
	if got.GamesPlayed != want.played || got.GamesFinished != want.finished || got.GamesWon != want.won {
		t.Errorf("%s: games played/finished/won = %d/%d/%d, counted %d/%d/%d", who, got.GamesPlayed, got.GamesFinished, got.GamesWon, want.played, want.finished, want.won)
	}
	if len(got.Games) != 2 || got.Games["prime-climb"].Counts == nil || got.Games["primed"].Counts == nil {
		t.Errorf("%s: games %v, want both kinds, played or not", who, got.Games)
	}
	if g, w := nonZero(got.Games["primed"].Counts), nonZero(want.primed); !maps.Equal(g, w) {
		t.Errorf("%s: primed counters %v, counted %v", who, g, w)
	}
	// primes_landed needs the start-of-turn squares; every card drawn was earned by a landing.
	gotClimb := nonZero(got.Games["prime-climb"].Counts)
	if landed := gotClimb["primes_landed"]; landed < want.climb["cards_drawn"] {
		t.Errorf("%s: primes_landed %d, fewer than the %d cards drawn", who, landed, want.climb["cards_drawn"])
	}
	delete(gotClimb, "primes_landed")
	if w := nonZero(want.climb); !maps.Equal(gotClimb, w) {
		t.Errorf("%s: prime_climb counters %v, counted %v", who, gotClimb, w)
	}
	average, ok := got.Games["primed"].Measures["average_round_score"]
	switch rounds := want.primed["rounds"]; {
	case rounds == 0 && ok:
		t.Errorf("%s: average_round_score %v without a round", who, average)
	case rounds > 0 && (!ok || average != float64(want.primed["round_score_total"])/float64(rounds)):
		t.Errorf("%s: average_round_score %v, want %d / %d", who, got.Games["primed"].Measures, want.primed["round_score_total"], rounds)
	}
	if len(got.Games["prime-climb"].Measures) != 0 {
		t.Errorf("%s: prime-climb measures %v, want none", who, got.Games["prime-climb"].Measures)
	}
	for _, kind := range []string{"primed", "prime-climb"} {
		r.checkMistakes(who, kind, got.Games[kind].Mistakes, want.mistakes[kind])
	}
	gotCodes := map[string]int{}
	for i, a := range got.Attempts {
		gotCodes[a.Code] = a.Count
		if i > 0 && a.Count > got.Attempts[i-1].Count {
			t.Errorf("%s: attempts not by count, most first: %+v", who, got.Attempts)
		}
		sentences := want.attempts[a.Code]
		var recent []string
		for j := len(sentences) - 1; j >= 0 && len(recent) < 3; j-- {
			recent = append(recent, sentences[j])
		}
		switch {
		case strictExamples && !slices.Equal(a.Examples, recent):
			t.Errorf("%s: attempts %q (%d) examples %q, want the most recent, newest first: %q", who, a.Code, a.Count, a.Examples, recent)
		case len(a.Examples) == 0 || len(a.Examples) > 3:
			t.Errorf("%s: attempts %q (%d) has %d examples, want 1 to 3", who, a.Code, a.Count, len(a.Examples))
		}
		for _, ex := range a.Examples {
			if !slices.Contains(sentences, ex) {
				t.Errorf("%s: attempts %q example %q is none of the refusals sent: %q", who, a.Code, ex, sentences)
			}
		}
	}
	wantCodes := map[string]int{}
	for code, s := range want.attempts {
		wantCodes[code] = len(s)
	}
	if !maps.Equal(gotCodes, wantCodes) {
		t.Errorf("%s: attempts by code %v, sent %v", who, gotCodes, wantCodes)
	}
}

// checkMistakes compares the mistakes the statistics read from the refusals' facts with those the
// test made on purpose: the same values and counts, most frequent first.
func (r *review) checkMistakes(who, kind string, got map[string][]client.MistakeCount, want map[string]map[string]int) {
	t := r.t
	t.Helper()
	flat := map[string]map[string]int{}
	for figure, list := range got {
		flat[figure] = map[string]int{}
		for i, m := range list {
			flat[figure][m.Value] = m.Count
			if i > 0 && m.Count > list[i-1].Count {
				t.Errorf("%s: %s mistakes %s not most frequent first: %+v", who, kind, figure, list)
			}
		}
	}
	if want == nil {
		want = map[string]map[string]int{}
	}
	if !maps.EqualFunc(flat, want, maps.Equal) {
		t.Errorf("%s: %s mistakes %v, made on purpose %v", who, kind, flat, want)
	}
}

// checkStats compares the statistics' JSON with the counts the review kept, and returns it with the
// class's counts.
func (r *review) checkStats() (client.ClassroomStats, *crCounts) {
	t := r.t
	t.Helper()
	reviewQueued(t, r.h.db, games.All()) // the worker reviews the finished games
	var stats client.ClassroomStats
	r.get("/v1/classrooms/"+r.class.id+"/stats", &stats)
	if stats.ClassroomId.String() != r.class.id || len(stats.Students) != len(r.names) {
		t.Fatalf("stats: classroom %s, %d students", stats.ClassroomId, len(stats.Students))
	}
	class := newCounts()
	for i, st := range stats.Students {
		want := r.counts[st.StudentId.String()]
		if want == nil || st.Name != r.names[i] {
			t.Fatalf("stats.students[%d] is %s %q, want %s", i, st.StudentId, st.Name, r.names[i])
		}
		r.checkTotals(st.Name, totalsOf(st), want, true)
		for k, v := range want.primed {
			class.primed[k] += v
		}
		for k, v := range want.climb {
			class.climb[k] += v
		}
		for kind, figures := range want.mistakes {
			for figure, values := range figures {
				for value, n := range values {
					class.mistake(kind, figure, value, n)
				}
			}
		}
	}
	// The class's games: each game a current student played counts once, won if one of them won it
	// (every game of the review is played to the end).
	current := map[string]bool{}
	for _, st := range stats.Students {
		current[st.StudentId.String()] = true
	}
	for _, id := range r.played {
		var g client.Game
		r.get("/v1/games/"+id, &g)
		inClass, wonInClass := false, false
		for seat, student := range r.seatIDs[id] {
			inClass = inClass || current[student]
			wonInClass = wonInClass || (current[student] && slices.Contains(g.Winners, seat))
		}
		if inClass {
			class.played++
			class.finished++
		}
		if wonInClass {
			class.won++
		}
	}
	// The class's refusals of each code, in the order sent (games were played one after another).
	// Whether the class's examples are the most recent of them is TestClassroomStatsClassExamples'.
	for _, id := range r.played {
		for _, a := range r.refused[id] {
			class.attempts[a.code] = append(class.attempts[a.code], a.detail)
		}
	}
	r.checkTotals("the class", stats.Class, class, false)
	// Every bump given in the class was taken by someone in the class.
	if pc := stats.Class.Games["prime-climb"].Counts; pc["bumps_given"] != pc["bumps_taken"] {
		t.Errorf("class bumps_given %d != bumps_taken %d", pc["bumps_given"], pc["bumps_taken"])
	}
	t.Logf("class: %+v", stats.Class)
	return stats, class
}

// checkCSV reads the statistics as CSV and compares every row with what the test knows by other
// routes than the statistics: the counts the review kept of what it sent and saw (games, counters,
// mistakes, refusals), the average round score worked out from them, primes landed read from the
// Prime Climb history, and the review figures counted from each game's review entries
// (GET /v1/games/{id}/review). Nothing of the expectation is read from the statistics' JSON, so the
// CSV and the JSON cannot agree on a wrong figure. class is the class's counts from checkStats.
func (r *review) checkCSV(stats client.ClassroomStats, class *crCounts) {
	t := r.t
	t.Helper()
	resp := r.get("/v1/classrooms/"+r.class.id+"/stats", nil, "Accept", "text/csv")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("stats as CSV: Content-Type %q", ct)
	}
	rows, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
	if err != nil {
		t.Fatalf("stats CSV: %v\n%s", err, resp.Body)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], []string{"student_id", "name", "measure", "value"}) {
		t.Fatalf("stats CSV header = %v", rows[:min(1, len(rows))])
	}

	// What each seat of each game did, read from the games: reviews and primes landed.
	type seatOf struct {
		game string
		seat int
	}
	judged := map[seatOf]map[string]int{} // "<prefix>review.labels.best", … and "judged", "good"
	for _, id := range r.played {
		var rv client.Review
		r.get("/v1/games/"+id+"/review", &rv)
		if !rv.Final {
			t.Errorf("review of finished game %s is not final", id)
		}
		prefix := strings.ReplaceAll(string(rv.Game), "-", "_") + "."
		for _, e := range rv.Entries {
			k := seatOf{id, e.Seat}
			if judged[k] == nil {
				judged[k] = map[string]int{}
			}
			judged[k][prefix+"review.judged"]++
			judged[k][prefix+"review.labels."+string(e.Label)]++
			for _, m := range e.Missed {
				judged[k][prefix+"review.missed."+m.Kind]++
			}
			if e.Label == client.ReviewLabelBest || e.Label == client.ReviewLabelGood {
				judged[k][prefix+"review.good"]++
			}
		}
		if rv.Game == "prime-climb" {
			history := r.get("/v1/games/"+id+"/actions", nil, "Accept", "application/x-ndjson")
			for _, raw := range bytes.Split(bytes.TrimSpace(history.Body), []byte("\n")) {
				var e struct {
					Seat    *int `json:"seat"`
					Outcome struct {
						PrimesLanded []int `json:"primes_landed"`
					} `json:"outcome"`
				}
				if err := json.Unmarshal(raw, &e); err != nil {
					t.Fatal(err)
				}
				if e.Seat != nil && len(e.Outcome.PrimesLanded) > 0 {
					k := seatOf{id, *e.Seat}
					if judged[k] == nil {
						judged[k] = map[string]int{}
					}
					judged[k]["prime_climb.primes_landed"] += len(e.Outcome.PrimesLanded)
				}
			}
		}
	}
	two := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	want := map[[3]string]string{}
	add := func(id, name string, c *crCounts, seats func(student string) bool) {
		put := func(measure string, value int) {
			if value != 0 {
				want[[3]string{id, name, measure}] = strconv.Itoa(value)
			}
		}
		put("games_played", c.played)
		put("games_finished", c.finished)
		put("games_won", c.won)
		for k, v := range c.climb {
			put("prime_climb."+k, v)
		}
		for k, v := range c.primed {
			put("primed."+k, v)
		}
		if rounds := c.primed["rounds"]; rounds > 0 {
			want[[3]string{id, name, "primed.average_round_score"}] = two(float64(c.primed["round_score_total"]) / float64(rounds))
		}
		for kind, figures := range c.mistakes {
			for figure, values := range figures {
				for value, n := range values {
					put(strings.ReplaceAll(kind, "-", "_")+"."+figure+"."+value, n)
				}
			}
		}
		for code, sentences := range c.attempts {
			put("attempts."+code, len(sentences))
		}
		sums := map[string]int{}
		for k, m := range judged {
			if seats(r.seatIDs[k.game][k.seat]) {
				for measure, v := range m {
					sums[measure] += v
				}
			}
		}
		allJudged, allGood := 0, 0
		for measure, v := range sums {
			switch {
			case strings.HasSuffix(measure, "review.good"):
				allGood += v
			case strings.HasSuffix(measure, "review.judged"):
				allJudged += v
				put(measure, v)
				kind := strings.TrimSuffix(measure, "judged")
				want[[3]string{id, name, kind + "accuracy"}] = two(float64(sums[kind+"good"]) / float64(v))
			default:
				put(measure, v)
			}
		}
		put("judged_actions", allJudged)
		if allJudged > 0 {
			want[[3]string{id, name, "accuracy"}] = two(float64(allGood) / float64(allJudged))
		}
		// hints_used: the review asks for none.
	}
	for _, st := range stats.Students {
		student := st.StudentId.String()
		add(student, st.Name, r.counts[student], func(s string) bool { return s == student })
	}
	current := map[string]bool{}
	for _, st := range stats.Students {
		current[st.StudentId.String()] = true
	}
	add("", "(class)", class, func(s string) bool { return current[s] })

	got := map[[3]string]string{}
	for i, row := range rows[1:] {
		if len(row) != 4 {
			t.Errorf("stats CSV row %d has %d fields: %v", i+1, len(row), row)
			continue
		}
		key := [3]string{row[0], row[1], row[2]}
		if _, dup := got[key]; dup {
			t.Errorf("stats CSV has %v twice", key)
		}
		got[key] = row[3]
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("stats CSV %v = %q, the games say %q", k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok && v != "0" { // a counter at zero may be listed
			t.Errorf("stats CSV has %v = %q, which the games do not show", k, v)
		}
	}
	if n := len(want); n < 6*10 {
		t.Errorf("stats CSV compared only %d values", n)
	}
}

// TestClassroomStatsClassExamples pins what the class's refused attempts show as examples: like a
// student's (AttemptCount.examples in openapi.yaml: "The most recent refusals' sentences"), the class's
// most recent refusals of the code, newest first, up to three, whoever sent them.
func TestClassroomStatsClassExamples(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "Class 6D", "Ada", "Ben", "Cy", "Dee")
	type sent struct{ student, detail string }
	var refusals []sent
	// missingCards has the seat to act in a new game of pair play two cards it does not hold: each
	// is refused card_not_in_hand with a sentence naming the card.
	missingCards := func(pair []string, cards []int) {
		resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
			{"student_id": class.students[pair[0]].id}, {"student_id": class.students[pair[1]].id},
		}}, bearer(class.teacher)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
		}
		var c client.CreatedGame
		resp.JSON(t, &c)
		seat := h.game(t, c.Game.Id.String(), class.teacher).Turn.ToAct[0]
		actor := class.students[pair[seat]]
		var v client.PrimedView
		if err := json.Unmarshal(h.game(t, c.Game.Id.String(), actor.token).State, &v); err != nil {
			t.Fatal(err)
		}
		sentHere := 0
		for _, card := range cards {
			if sentHere == 2 || slices.Contains(*v.Hands[seat].Cards, card) {
				continue
			}
			resp := h.act(t, c.Game.Id.String(), actor.token, map[string]any{"type": "play", "cards": []int{card}})
			p := resp.Problem(t)
			if resp.StatusCode != http.StatusUnprocessableEntity || p.Code != "card_not_in_hand" {
				t.Fatalf("play of a card not held = %d %s", resp.StatusCode, resp.Body)
			}
			refusals = append(refusals, sent{pair[seat], p.Detail})
			sentHere++
		}
	}
	// Two students refused twice each: no student has three refusals, the class has four.
	// Cards counted down in one game and up in the other make the four sentences differ.
	var down, up []int
	for c := 1; c <= 17; c++ {
		down, up = append(down, 18-c), append(up, c)
	}
	missingCards([]string{"Ada", "Ben"}, down)
	missingCards([]string{"Cy", "Dee"}, up)

	var stats client.ClassroomStats
	resp := h.Get("/v1/classrooms/"+class.id+"/stats", bearer(class.teacher)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stats = %d: %s", resp.StatusCode, resp.Body)
	}
	resp.JSON(t, &stats)
	var recent []string
	for i := len(refusals) - 1; i >= 0 && len(recent) < 3; i-- {
		recent = append(recent, refusals[i].detail)
	}
	// Four students, two games: the class as a whole played two games, each student one.
	if c := stats.Class; c.GamesPlayed != 2 || c.GamesFinished != 0 || c.GamesWon != 0 {
		t.Errorf("class games played/finished/won = %d/%d/%d, want 2/0/0: each of the two games counts once", c.GamesPlayed, c.GamesFinished, c.GamesWon)
	}
	for _, st := range stats.Students {
		if st.GamesPlayed != 1 {
			t.Errorf("%s played %d games, want 1", st.Name, st.GamesPlayed)
		}
	}
	if len(stats.Class.Attempts) != 1 || stats.Class.Attempts[0].Code != "card_not_in_hand" || stats.Class.Attempts[0].Count != len(refusals) {
		t.Fatalf("class attempts = %+v, want card_not_in_hand × %d", stats.Class.Attempts, len(refusals))
	}
	if got := stats.Class.Attempts[0].Examples; !slices.Equal(got, recent) {
		t.Errorf("GET /v1/classrooms/{id}/stats: class.attempts[card_not_in_hand] (count %d) examples = %q, want the class's %d most recent, newest first: %q (refusals in the order sent: %+v)",
			len(refusals), got, len(recent), recent, refusals)
	}
}

// totalsOf is a student's statistics without the student: the shape of the class's line.
func totalsOf(st client.StudentStats) client.StatsTotals {
	return client.StatsTotals{Attempts: st.Attempts, Games: st.Games, GamesFinished: st.GamesFinished, GamesPlayed: st.GamesPlayed, GamesWon: st.GamesWon,
		HintsUsed: st.HintsUsed, JudgedActions: st.JudgedActions, Accuracy: st.Accuracy}
}
