package domain

// Counts holds named counters per seat: counts[seat]["op_multiply"]. Names are snake_case and stable;
// teachers' statistics sum them over games.
type Counts map[int]map[string]int

// Add increases one counter of one seat.
func (c Counts) Add(seat int, name string, n int) {
	if c[seat] == nil {
		c[seat] = map[string]int{}
	}
	c[seat][name] += n
}
