package play

// isBot reports whether a computer plays seat; a review judges only the people's actions.
func isBot(g *Game, seat int) bool {
	for _, s := range g.Seats {
		if s.Seat == seat {
			return s.Bot != ""
		}
	}
	return false
}
