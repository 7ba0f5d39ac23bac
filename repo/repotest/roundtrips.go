package repotest

import (
	"context"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// RoundTrips is a pgx tracer that counts the round trips a piece of code makes to the database: a
// query sent on its own is one, and so is a batch, however many statements it carries. (A batch's
// statements are prepared on a connection's first use of them, which costs one more round trip
// that the tracer does not see; warm the connections up before counting.) LISTEN, which the live
// updates' own connection sends, is not counted.
type RoundTrips struct {
	mu         sync.Mutex
	roundTrips int
	statements []string
}

// Count runs fn and returns the round trips and the statements it sent.
func (r *RoundTrips) Count(fn func()) (roundTrips int, statements []string) {
	r.mu.Lock()
	r.roundTrips, r.statements = 0, nil
	r.mu.Unlock()
	fn()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.roundTrips, r.statements
}

func (r *RoundTrips) record(sql string, roundTrip bool) {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(sql)), "listen") {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if roundTrip {
		r.roundTrips++
	}
	r.statements = append(r.statements, strings.Join(strings.Fields(sql), " "))
}

func (r *RoundTrips) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	r.record(data.SQL, true)
	return ctx
}

func (r *RoundTrips) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (r *RoundTrips) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	r.mu.Lock()
	r.roundTrips++
	r.mu.Unlock()
	return ctx
}

func (r *RoundTrips) TraceBatchQuery(_ context.Context, _ *pgx.Conn, data pgx.TraceBatchQueryData) {
	r.record(data.SQL, false)
}

func (r *RoundTrips) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}
