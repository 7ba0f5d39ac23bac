package procstat

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// CPU is the CPU time the process has used so far (user and system), 0 without a pid or where
// /proc cannot be read. It counts in the kernel's clock ticks, taken as 100 a second.
func CPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: the fields counted follow it.
	_, rest, ok := strings.Cut(string(stat), ") ")
	if !ok {
		return 0
	}
	fields := strings.Fields(rest) // fields[0] is field 3 of proc(5): utime is 14, stime 15
	if len(fields) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(fields[11], 10, 64)
	system, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(user+system) * 10 * time.Millisecond
}
