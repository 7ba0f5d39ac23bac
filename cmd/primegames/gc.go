package main

import "runtime/debug"

// defaultGCPercent is the garbage collector's target when GOGC is not set: collecting half as often
// as Go's default (100) cost the server some 7–10 % less CPU per request under scripts/bench.sh's
// load, for some 9 MB more peak RSS (49–50 MB against 41); see docs/performance.md.
const defaultGCPercent = 200

// setGCDefault sets defaultGCPercent unless GOGC says otherwise (the runtime reads GOGC itself), and
// reports the percent it set, 0 when it left the runtime's.
func setGCDefault(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return 0
	}
	debug.SetGCPercent(defaultGCPercent)
	return defaultGCPercent
}
