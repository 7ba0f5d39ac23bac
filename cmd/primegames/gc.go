package main

import "runtime/debug"

// defaultGCPercent is the garbage collector's target when GOGC is not set: collecting half as often
// as Go's default (100) cost the server some 7–10 % less CPU per request under scripts/bench.sh's
// load, for some 9 MB more peak RSS (49–50 MB against 41); see docs/performance.md.
const defaultGCPercent = 200

// defaultMemoryLimit is the memory the Go runtime aims to stay within when GOMEMLIMIT is not set:
// above what the server holds under scripts/bench.sh's load (a peak RSS of some 50 MB, code
// included), so that it costs nothing there, and low enough that the garbage GOGC=200 lets pile up
// under a flood of requests is collected instead (scripts/memory.sh; docs/operations.md, "Memory").
// It is a soft limit: a live heap beyond it makes the collector run more often, never fail.
const defaultMemoryLimit = 64 << 20

// setGCDefault sets defaultGCPercent unless GOGC says otherwise (the runtime reads GOGC itself), and
// reports the percent it set, 0 when it left the runtime's.
func setGCDefault(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return 0
	}
	debug.SetGCPercent(defaultGCPercent)
	return defaultGCPercent
}

// setMemoryLimitDefault sets defaultMemoryLimit unless GOMEMLIMIT says otherwise (the runtime reads
// it itself; GOMEMLIMIT=off lifts the limit), and reports the limit it set, 0 when it left the
// runtime's.
func setMemoryLimitDefault(getenv func(string) string) int64 {
	if getenv("GOMEMLIMIT") != "" {
		return 0
	}
	debug.SetMemoryLimit(defaultMemoryLimit)
	return defaultMemoryLimit
}
