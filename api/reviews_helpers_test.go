package api_test

import (
	"context"
	"testing"

	"primegames/domain"
	"primegames/repo"
)

// reviewQueued has a worker over db review every finished game queued for review, as the server's
// worker would in the background, and returns how many it reviewed.
func reviewQueued(t *testing.T, db *repo.DB, kinds *domain.Catalogue) int {
	t.Helper()
	worker := newServiceOn(db, kinds, nil)
	n := 0
	for {
		acted, err := worker.ReviewQueuedGame(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !acted {
			return n
		}
		n++
	}
}
