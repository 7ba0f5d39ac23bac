package play

import "primegames/domain"

// seatBot is the computer player that plays seat now, empty for a person: a bot's seat from the
// start, or one whose student resigned (G-3).
func seatBot(g *GameRecord, seat int) domain.Level {
	for _, s := range g.Seats {
		if s.Seat == seat {
			return s.Bot
		}
	}
	return ""
}

// isBotSeat reports whether a computer plays seat now.
func isBotSeat(g *GameRecord, seat int) bool { return seatBot(g, seat) != "" }
