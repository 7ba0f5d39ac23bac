package play

// hintsOffered reports whether the game offers hints to its players. Every game does until the
// game option `hints` exists: the lead wires this to it at merge (return g.Settings.Hints). It is a
// variable only so that a test can turn hints off before then.
var hintsOffered = func(g *Game) bool { return true }
