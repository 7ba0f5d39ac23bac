package repotest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"primegames/repo"
)

// WarmPool opens n connections in db's pool and leaves them idle, so that requests a test sends
// at once run at once, none waiting for a new connection while the first runs alone.
func WarmPool(t testing.TB, db *repo.DB, n int) {
	t.Helper()
	conns := make([]*pgxpool.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	for range n {
		c, err := db.Pool.Acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
}
