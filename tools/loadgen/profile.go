package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profileCPU starts a CPU profile of loadgen written to path and returns what stops it. A load
// generator shares the machine with what it measures, so what it spends is worth knowing too.
func profileCPU(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
