package api_test

import (
	"os"
	"testing"

	"primegames/repo/repotest"
)

// TestMain stops the throwaway Postgres cluster the tests may have started (see repotest).
func TestMain(m *testing.M) { os.Exit(repotest.Main(m)) }
