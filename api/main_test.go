package api_test

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"

	"primegames/repo/repotest"
)

// TestMain stops the throwaway Postgres cluster the tests may have started (see repotest), and runs
// three tests at a time per core unless -parallel says otherwise: the package's tests spend most of
// their time waiting on Postgres and on their own HTTP server, not on a core, so go test's default
// (one per core) leaves the cores idle (the package's test binary used 24 s of CPU in 70 s at three
// per core, 22 s in 101 s at one, on the same busy machine).
func TestMain(m *testing.M) {
	flag.Parse()
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if !explicit {
		if err := flag.Set("test.parallel", strconv.Itoa(3*runtime.GOMAXPROCS(0))); err != nil {
			panic(err)
		}
	}
	os.Exit(repotest.Main(m))
}
