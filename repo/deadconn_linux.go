package repo

import (
	"syscall"
	"time"
)

// tcpUserTimeoutOption is TCP_USER_TIMEOUT (linux/tcp.h), which package syscall does not name.
const tcpUserTimeoutOption = 0x12

func setUserTimeout(fd uintptr, d time.Duration) error {
	return syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, tcpUserTimeoutOption, int(d.Milliseconds()))
}
