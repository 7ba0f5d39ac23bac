package repo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestConnectionLostAndUnavailable(t *testing.T) {
	t.Parallel()
	pg := func(code string) error {
		return fmt.Errorf("query: %w", &pgconn.PgError{Severity: "FATAL", Code: code})
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{pg("57P01"), true}, // pg_terminate_backend
		{pg("57P02"), true},
		{pg("57P03"), true},
		{pg("08006"), true},
		{pg("08003"), true},
		{fmt.Errorf("receive: %w", io.ErrUnexpectedEOF), true},
		{fmt.Errorf("receive: %w", io.EOF), true},
		{fmt.Errorf("exec: %w", pgconn.ErrConnClosed), true},
		{pg("23505"), false}, // a unique violation is the query's fault
		{context.Canceled, false},
		{errors.New("boom"), false},
	} {
		if got := connectionLost(tc.err); got != tc.want {
			t.Errorf("connectionLost(%v) = %v, want %v", tc.err, got, tc.want)
		}
		if got := IsUnavailable(tc.err); got != tc.want {
			t.Errorf("IsUnavailable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	// A statement Postgres ended for running past statement_timeout (query_canceled) lost no
	// connection, but the database cannot answer in time: 503, not 500.
	if timedOut := pg("57014"); connectionLost(timedOut) || !IsUnavailable(timedOut) {
		t.Errorf("query_canceled: connectionLost %v, IsUnavailable %v; want false and true", connectionLost(timedOut), IsUnavailable(timedOut))
	}
}
