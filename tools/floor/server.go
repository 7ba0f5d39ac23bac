package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/labstack/echo/v4"
)

const schema = `
DROP TABLE IF EXISTS floor_actions, floor_games;
CREATE TABLE floor_games (id bigint PRIMARY KEY, version bigint NOT NULL, snapshot jsonb NOT NULL, updated_at timestamptz NOT NULL);
CREATE TABLE floor_actions (game_id bigint NOT NULL, seq bigint NOT NULL, action jsonb NOT NULL, created_at timestamptz NOT NULL,
	PRIMARY KEY (game_id, seq));
INSERT INTO floor_games SELECT g, 0, '{}', now() FROM generate_series(1, %d) g;`

// floorServer is the least a server of this stack does for the two requests.
type floorServer struct {
	pool     *pgxpool.Pool
	cfg      config
	getBody  []byte
	postBody []byte
	snapshot []byte
}

func runServer(ctx context.Context, addr string, cfg config) error {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200) // as cmd/primegames does
	}
	pool, err := pgxpool.New(ctx, cfg.db)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, fmt.Sprintf(schema, cfg.games)); err != nil {
		return fmt.Errorf("creating the tables: %w", err)
	}
	defer pool.Exec(context.Background(), `DROP TABLE IF EXISTS floor_actions, floor_games`)
	s := &floorServer{pool: pool, cfg: cfg, getBody: jsonOfSize(cfg.getBody), postBody: jsonOfSize(cfg.postBody), snapshot: jsonOfSize(cfg.snapshot)}

	var handler http.Handler
	if cfg.plain {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /games/{id}", func(w http.ResponseWriter, r *http.Request) { s.get(w, r.PathValue("id")) })
		mux.HandleFunc("POST /games/{id}/actions", func(w http.ResponseWriter, r *http.Request) {
			status, body := s.act(r.Context(), r.PathValue("id"), r.Body)
			writeJSON(w, status, body)
		})
		handler = mux
	} else {
		e := echo.New()
		e.HideBanner, e.HidePort = true, true
		e.GET("/games/:id", func(c echo.Context) error { s.get(c.Response(), c.Param("id")); return nil })
		e.POST("/games/:id/actions", func(c echo.Context) error {
			status, body := s.act(c.Request().Context(), c.Param("id"), c.Request().Body)
			return c.Blob(status, "application/json", body)
		})
		handler = e
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler}
	go func() {
		// The driver ends the server by closing its standard input.
		_, _ = io.Copy(io.Discard, os.Stdin)
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}

func (s *floorServer) get(w http.ResponseWriter, id string) {
	h := w.Header()
	h.Set("ETag", `"`+id+`-1"`)
	h.Set("Cache-Control", "private, no-cache")
	writeJSON(w, http.StatusOK, s.getBody)
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// act is the least an action does: decode it, change the game in one round trip, answer.
func (s *floorServer) act(ctx context.Context, id string, body io.Reader) (int, []byte) {
	raw, err := io.ReadAll(io.LimitReader(body, 64<<10))
	if err != nil {
		return http.StatusBadRequest, []byte(`{"error":"read"}`)
	}
	var action struct {
		Type  string `json:"type"`
		Value int    `json:"value"`
	}
	if err := json.Unmarshal(raw, &action); err != nil || action.Type == "" {
		return http.StatusBadRequest, []byte(`{"error":"action"}`)
	}
	b := &pgx.Batch{}
	var version int64
	b.Queue(`SELECT version FROM floor_games WHERE id = $1 FOR UPDATE`, id).QueryRow(func(r pgx.Row) error { return r.Scan(&version) })
	b.Queue(`INSERT INTO floor_actions (game_id, seq, action, created_at)
		SELECT id, version, $2, now() FROM floor_games WHERE id = $1`, id, raw)
	b.Queue(`UPDATE floor_games SET version = version + 1, snapshot = $2, updated_at = now() WHERE id = $1`, id, s.snapshot)
	if s.cfg.notify {
		b.Queue(`SELECT pg_notify('floor_events', $1::text || ':' || (SELECT version FROM floor_games WHERE id = $1::bigint))`, id)
	}
	// A batch is one implicit transaction: its statements share one Sync, so one round trip.
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return http.StatusInternalServerError, []byte(`{"error":"` + strings.ReplaceAll(err.Error(), `"`, `'`) + `"}`)
	}
	return http.StatusOK, s.postBody
}

// jsonOfSize is a JSON object of n bytes or a few more.
func jsonOfSize(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"pad":"`)
	for b.Len() < n-2 {
		b.WriteString("0123456789")
	}
	b.WriteString(`"}`)
	return []byte(b.String())
}
