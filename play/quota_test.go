package play_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// Creates that race from one address count one after another: however many arrive at once, the
// address ends up holding exactly its quota, never more (issue 23).
func TestQuotasHoldUnderConcurrentCreates(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	const limit, racers = 3, 16
	master := play.New(db.Games().Stores(), games.All(), play.WithQuotas(play.Quotas{AddressOpenGames: limit}))

	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = master.Create(context.Background(),
				play.NewGame{Kind: "primed", OpenSeats: 2, Address: "203.0.113.7"}, play.Nobody, nil)
		}()
	}
	close(start)
	wg.Wait()

	created := 0
	for _, err := range errs {
		var refusal *domain.Error
		switch {
		case err == nil:
			created++
		case errors.As(err, &refusal) && refusal.Code == "quota_exceeded":
		default:
			t.Errorf("create: %v, want success or quota_exceeded", err)
		}
	}
	if created != limit {
		t.Errorf("%d of %d racing creates succeeded, want the quota, %d", created, racers, limit)
	}
}
