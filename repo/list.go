package repo

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// ListGames returns up to q.Limit games matching q, newest first.
func (s *Games) listGames(ctx context.Context, q play.GameQuery) ([]play.GameSummary, error) {
	f := q.Filter
	where, args := []string{"true"}, []any{}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	myTurn := ""
	if f.MyTurn {
		myTurn = " AND s.seat = ANY (games.to_act)"
	}
	switch {
	case f.SeatTokenHash != nil && f.MyTurn:
		add("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.token_hash = $%d"+myTurn+")", f.SeatTokenHash)
	case f.SeatTokenHash != nil:
		add("(creator_token_hash = $%[1]d OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.token_hash = $%[1]d))", f.SeatTokenHash)
	case f.ClassroomID != "":
		add("classroom_id = $%d", f.ClassroomID)
	default:
		where = append(where, "classroom_id IS NULL AND NOT private")
	}
	if f.StudentID != "" {
		add("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.student_id = $%d::uuid"+myTurn+")", f.StudentID)
	}
	if f.From != nil {
		add("created_at >= $%d", *f.From)
	}
	if f.To != nil {
		add("created_at < $%d", *f.To)
	}
	if f.Kind != "" {
		add("kind = $%d", f.Kind)
	}
	if f.Status != "" {
		add("status = $%d", string(f.Status))
	}
	if q.After != nil {
		args = append(args, q.After.CreatedAt, q.After.ID)
		where = append(where, fmt.Sprintf("(created_at, id) < ($%d, $%d::uuid)", len(args)-1, len(args)))
	}
	args = append(args, q.Limit)
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, kind, status, coalesce(end_reason, ''), seat_count, version, winners, created_at, updated_at,
			ARRAY(SELECT name FROM seats WHERE seats.game_id = games.id ORDER BY seat),
			ARRAY(SELECT seat FROM seats WHERE seats.game_id = games.id AND bot IS NOT NULL ORDER BY seat),
			ARRAY(SELECT bot FROM seats WHERE seats.game_id = games.id AND bot IS NOT NULL ORDER BY seat)
		FROM games WHERE `+strings.Join(where, " AND ")+fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d`, len(args)), args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.GameSummary, error) {
		var g play.GameSummary
		var winners, botSeats []int32
		var botLevels []string
		err := r.Scan(&g.ID, &g.Kind, &g.Status, &g.EndReason, &g.SeatCount, &g.Version, &winners, &g.CreatedAt, &g.UpdatedAt, &g.Players,
			&botSeats, &botLevels)
		for _, w := range winners {
			g.Winners = append(g.Winners, int(w))
		}
		for i, seat := range botSeats {
			g.Bots = append(g.Bots, play.BotSeat{Seat: int(seat)})
			setText(&g.Bots[i].Level, botLevels[i])
		}
		return g, err
	})
}

// GamesWithoutToAct lists, by id, up to limit active games after the id `after` whose to_act is NULL.
func (s *Games) GamesWithoutToAct(ctx context.Context, after string, limit int) ([]string, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text FROM games WHERE status = 'active' AND to_act IS NULL AND id > $1::uuid
		ORDER BY id LIMIT $2`, after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// SetToAct records a game's seats to act while it has none and is still at version.
func (s *Games) SetToAct(ctx context.Context, gameID string, version int64, toAct []int) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE games SET to_act = $3 WHERE id = $1 AND version = $2 AND to_act IS NULL`,
		gameID, version, int32s(toAct))
	return err
}

// PlayerGames lists the games in which the student of f, or the seat token f.SeatTokenHash, holds a
// seat.
func (s *Games) PlayerGames(ctx context.Context, f play.GameFilter) ([]play.PlayerGame, error) {
	seatOf := "s.token_hash = $1"
	args := []any{f.SeatTokenHash}
	if f.SeatTokenHash == nil {
		seatOf, args = "s.student_id = $1::uuid AND g.classroom_id = $2", []any{f.StudentID, f.ClassroomID}
	}
	rows, err := s.db.Pool.Query(ctx, `SELECT g.id::text, g.status IN ('finished', 'aborted'), min(s.joined_at),
			(SELECT coalesce(max(a.seq), -1) FROM actions a WHERE a.game_id = g.id)
		FROM games g JOIN seats s ON s.game_id = g.id
		WHERE `+seatOf+`
		GROUP BY g.id`, args...)
	if err != nil {
		return nil, err
	}
	var games []play.PlayerGame
	var g play.PlayerGame
	_, err = pgx.ForEachRow(rows, []any{&g.ID, &g.Over, &g.JoinedAt, &g.LastSeq}, func() error {
		games = append(games, g)
		return nil
	})
	return games, err
}

// OpenLobbiesByInviteCode lists the ids of the open lobbies whose invite code is code, two at most.
func (s *Games) OpenLobbiesByInviteCode(ctx context.Context, code string) ([]string, error) {
	return readRetry(ctx, func() ([]string, error) {
		rows, err := s.db.Pool.Query(ctx, `SELECT id::text FROM games WHERE invite_code = $1 AND status = 'lobby' LIMIT 2`, code)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, pgx.RowTo[string])
	})
}

// TokenGames lists the games a seat or creator token belongs to, newest first, at most limit.
func (s *Games) TokenGames(ctx context.Context, hash []byte, limit int) ([]play.TokenGame, error) {
	return readRetry(ctx, func() ([]play.TokenGame, error) {
		rows, err := s.db.Pool.Query(ctx, `SELECT id::text, seat FROM (
				SELECT g.id, -1 AS seat, g.created_at FROM games g WHERE g.creator_token_hash = $1
				UNION ALL
				SELECT g.id, s.seat, g.created_at FROM seats s JOIN games g ON g.id = s.game_id WHERE s.token_hash = $1
			) t ORDER BY created_at DESC, id, seat LIMIT $2`, hash, limit)
		if err != nil {
			return nil, err
		}
		var games []play.TokenGame
		var g play.TokenGame
		_, err = pgx.ForEachRow(rows, []any{&g.GameID, &g.Seat}, func() error {
			games = append(games, g)
			return nil
		})
		return games, err
	})
}
