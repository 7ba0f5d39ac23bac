//go:build !linux

package repo

import "time"

// setUserTimeout does nothing where TCP_USER_TIMEOUT does not exist; keepalives still apply.
func setUserTimeout(uintptr, time.Duration) error { return nil }
