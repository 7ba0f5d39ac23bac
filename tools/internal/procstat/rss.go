// Package procstat reads what the measurement tools need of another process from /proc.
package procstat

import (
	"os"
	"strconv"
	"strings"
)

// RSS is the process's resident set in KB, 0 without a pid or where /proc cannot be read.
func RSS(pid int) int64 {
	if pid == 0 {
		return 0
	}
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			n, _ := strconv.ParseInt(strings.Fields(line)[1], 10, 64)
			return n
		}
	}
	return 0
}
