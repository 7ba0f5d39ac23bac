package main

import (
	"runtime/debug"
	"testing"
)

// Without GOGC the server collects at defaultGCPercent; with it, the runtime's reading stands.
func TestGCDefaultAppliesOnlyWithoutGOGC(t *testing.T) {
	previous := debug.SetGCPercent(100)
	defer debug.SetGCPercent(previous)
	if set := setGCDefault(envOf(map[string]string{"GOGC": "50"})); set != 0 || debug.SetGCPercent(100) != 100 {
		t.Errorf("with GOGC=50 the default was applied (%d)", set)
	}
	if set := setGCDefault(envOf(nil)); set != defaultGCPercent || debug.SetGCPercent(100) != defaultGCPercent {
		t.Errorf("without GOGC: set %d, want %d", set, defaultGCPercent)
	}
}

// Without GOMEMLIMIT the server aims to stay within defaultMemoryLimit; with it, the runtime's
// reading stands.
func TestMemoryLimitDefaultAppliesOnlyWithoutGOMEMLIMIT(t *testing.T) {
	previous := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(previous)
	if set := setMemoryLimitDefault(envOf(map[string]string{"GOMEMLIMIT": "off"})); set != 0 || debug.SetMemoryLimit(-1) != previous {
		t.Errorf("with GOMEMLIMIT=off the default was applied (%d)", set)
	}
	if set := setMemoryLimitDefault(envOf(nil)); set != defaultMemoryLimit || debug.SetMemoryLimit(-1) != defaultMemoryLimit {
		t.Errorf("without GOMEMLIMIT: set %d, want %d", set, defaultMemoryLimit)
	}
}
