//go:build long

package localpg

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A test binary killed before it stops its cluster (as by go test's timeout) leaves no postgres
// running, and the next cluster started removes the files.
func TestLongClusterOfAKilledProcessStops(t *testing.T) {
	if os.Getenv("LOCALPG_HELPER") == "1" {
		c, err := Start(context.Background(), Options{})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(postmasterPID(t, c.dataDir()), c.dir)
		time.Sleep(time.Hour)
	}
	if _, err := FindBinaries(); err != nil {
		t.Skip("no PostgreSQL server binaries on this machine")
	}
	helper := exec.Command(os.Args[0], "-test.run=^TestLongClusterOfAKilledProcessStops$")
	helper.Env = append(os.Environ(), "LOCALPG_HELPER=1")
	out, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	var pid int
	var dir string
	if _, err := fmt.Sscan(line, &pid, &dir); err != nil || !strings.HasPrefix(filepath.Base(dir), tempPrefix) {
		t.Fatalf("helper said %q", line)
	}
	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	waitGone(t, pid)
	c := startOrSkip(t, Options{})
	defer c.Stop()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed process's cluster directory %s is still there (%v)", dir, err)
	}
}
