package play

// isBot reports whether a computer plays seat; a review judges only the people's actions.
func isBot(g *Game, seat int) bool { return isBotSeat(&g.GameRecord, seat) }

// isBotSeat reports whether a computer plays seat: a bot's seat from the start, or one whose
// student resigned (G-3), whose student's token still names it.
func isBotSeat(g *GameRecord, seat int) bool {
	for _, s := range g.Seats {
		if s.Seat == seat {
			return s.Bot != ""
		}
	}
	return false
}
