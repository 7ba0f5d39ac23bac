package domain_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"primegames/domain"
)

// counter is the smallest game there is: the start draws one value, "add" adds a die roll.
type counter struct {
	Total int   `json:"total"`
	Rolls []int `json:"rolls"`
}

type counterRules struct{}

func (counterRules) Name() string { return "counter" }
func (counterRules) Options(json.RawMessage) (json.RawMessage, domain.SeatRange, error) {
	return json.RawMessage(`{}`), domain.SeatRange{Min: 1, Max: 1}, nil
}
func (counterRules) Start(_ json.RawMessage, _ int, r domain.Rand) (domain.State, domain.Outcome, error) {
	return counter{Total: r.IntN(100)}, nil, nil
}
func (counterRules) Decode(raw json.RawMessage) (domain.State, error) {
	var c counter
	err := json.Unmarshal(raw, &c)
	return c, err
}
func (counterRules) DecodeOutcome(json.RawMessage) (domain.Outcome, error) { return nil, nil }

func (c counter) Apply(_ int, action json.RawMessage, r domain.Rand) (domain.State, domain.Outcome, error) {
	if string(action) != `"add"` {
		return nil, nil, domain.Illegal("unknown", "only add")
	}
	roll := r.IntN(6) + 1
	return counter{Total: c.Total + roll, Rolls: append(slices.Clone(c.Rolls), roll)}, nil, nil
}
func (c counter) Status() domain.Status  { return domain.Status{} }
func (c counter) View(domain.Viewer) any { return c }
func (c counter) LegalActions(int) any   { return nil }
func (c counter) Scores() any            { return c.Total }

func TestFoldReplaysRecordedRandomValues(t *testing.T) {
	rules := counterRules{}
	state, _, startValues, err := domain.StartRecorded(rules, nil, 1, domain.SeededRand(42, 0))
	if err != nil {
		t.Fatal(err)
	}
	var records []domain.Record
	for seq := int64(1); seq <= 20; seq++ {
		next, _, values, err := domain.ApplyRecorded(state, 0, json.RawMessage(`"add"`), domain.SeededRand(42, seq))
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, domain.Record{Seat: 0, Action: json.RawMessage(`"add"`), Random: values})
		state = next
	}
	rebuilt, err := domain.Fold(rules, domain.Setup{Seats: 1, Random: startValues}, records)
	if err != nil {
		t.Fatal(err)
	}
	if !equalJSON(t, rebuilt, state) {
		t.Fatalf("fold = %+v, want %+v", rebuilt, state)
	}
}

// G-2: a history that does not fit the rules is an error, never a panic or a silent difference.
func TestFoldRefusesHistoriesThatDoNotFit(t *testing.T) {
	rules := counterRules{}
	add := json.RawMessage(`"add"`)
	for name, tc := range map[string]struct {
		setup   domain.Setup
		records []domain.Record
		want    string
	}{
		"start without values":  {domain.Setup{Seats: 1}, nil, "asked for more"},
		"value out of range":    {domain.Setup{Seats: 1, Random: []int{100}}, nil, "outside 0..99"},
		"values left over":      {domain.Setup{Seats: 1, Random: []int{1, 2}}, nil, "not used"},
		"action without values": {domain.Setup{Seats: 1, Random: []int{1}}, []domain.Record{{Action: add}}, "action 1"},
		"refused action":        {domain.Setup{Seats: 1, Random: []int{1}}, []domain.Record{{Action: json.RawMessage(`"jump"`), Random: []int{0}}}, "only add"},
	} {
		_, err := domain.Fold(rules, tc.setup, tc.records)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want it to mention %q", name, err, tc.want)
		}
	}
}

func TestShuffleIsAPermutationDrivenByItsSource(t *testing.T) {
	items := []int{1, 2, 3, 4, 5, 6, 7, 8}
	a, b := slices.Clone(items), slices.Clone(items)
	domain.Shuffle(domain.SeededRand(7, 1), a)
	domain.Shuffle(domain.SeededRand(7, 1), b)
	if !slices.Equal(a, b) {
		t.Error("the same source gave two different shuffles")
	}
	sorted := slices.Clone(a)
	slices.Sort(sorted)
	if !slices.Equal(sorted, items) {
		t.Errorf("shuffle lost or invented items: %v", a)
	}
	// Fisher–Yates from the end: drawing j = i keeps every item, drawing 0 each time rotates left.
	kept := []int{1, 2, 3, 4}
	domain.Shuffle(domain.NewTape([]int{3, 2, 1}), kept)
	rotated := []int{1, 2, 3, 4}
	domain.Shuffle(domain.NewTape([]int{0, 0, 0}), rotated)
	if !slices.Equal(kept, []int{1, 2, 3, 4}) || !slices.Equal(rotated, []int{2, 3, 4, 1}) {
		t.Errorf("shuffles by tape: %v and %v", kept, rotated)
	}
}

func TestErrorKindAndCode(t *testing.T) {
	err := error(domain.Illegal("illegal_step", "37 × 3 = %d is past 101", 111))
	if domain.ErrorKind(err) != domain.KindIllegal || domain.ErrorCode(err) != "illegal_step" {
		t.Errorf("kind %s code %s", domain.ErrorKind(err), domain.ErrorCode(err))
	}
	if domain.ErrorKind(errors.New("boom")) != domain.KindInternal {
		t.Error("a plain error should be internal")
	}
}

func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	return string(x) == string(y)
}

// FoldVisiting shows each state before its record is applied, in order, and stops at the first
// error the visit returns.
func TestFoldVisitingShowsTheStateBeforeEachRecord(t *testing.T) {
	setup := domain.Setup{Random: []int{10}}
	records := []domain.Record{
		{Action: json.RawMessage(`"add"`), Random: []int{2}},
		{Action: json.RawMessage(`"add"`), Random: []int{4}},
	}
	var totals []int
	final, err := domain.FoldVisiting(counterRules{}, setup, records, func(i int, before domain.State) error {
		if i != len(totals) {
			t.Errorf("visit %d after %d visits", i, len(totals))
		}
		totals = append(totals, before.(counter).Total)
		return nil
	})
	if err != nil || final.(counter).Total != 18 || !slices.Equal(totals, []int{10, 13}) {
		t.Errorf("final %v, totals before each record %v, error %v", final, totals, err)
	}
	stop := errors.New("stop")
	if _, err := domain.FoldVisiting(counterRules{}, setup, records, func(int, domain.State) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("a visit's error was not returned: %v", err)
	}
}
