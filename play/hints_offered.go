package play

// hintsOffered reports whether the game offers hints to its players: its `hints` option.
func hintsOffered(g *Game) bool { return g.Settings.Hints }
