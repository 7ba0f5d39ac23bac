//go:build unix && !linux

package localpg

import "syscall"

// stopWithParent does nothing where the system has no parent-death signal: a postgres whose
// program died without stopping it keeps running until stopped by hand.
func stopWithParent(*syscall.SysProcAttr) {}
