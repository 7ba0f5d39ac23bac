package play

// isBot reports whether a computer plays seat; a review judges only the people's actions. Every
// seat is a person's until bot seats exist: the lead wires this to the seat's bot marker at merge.
func isBot(g *Game, seat int) bool { return false }
