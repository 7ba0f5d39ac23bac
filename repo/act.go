package repo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
)

// Entry is one recorded step of a game's history: seq 0 is the start, then one entry per accepted
// action.
type Entry struct {
	Seq       int64
	Seat      *int // nil for the start
	Action    json.RawMessage
	Outcome   json.RawMessage
	Random    []int
	CreatedAt time.Time
}

// ActInput is one action sent by a player.
type ActInput struct {
	GameID string
	Token  string
	Action json.RawMessage
	// IfMatch, when set, is the version the client based the action on (If-Match).
	IfMatch *int64
}

// Acted is an accepted action with the game after it.
type Acted struct {
	Game   *Game
	Caller Caller
	Entry  Entry
}

// Act applies one action in one transaction: lock the game, check the caller and the version, apply
// the rules, append to the history, store the new snapshot, commit. A refused action changes nothing
// but is recorded as an attempt.
func (s *Games) Act(ctx context.Context, in ActInput, idem *Idempotency, render func(*Acted) (Response, error)) (Response, error) {
	var resp Response
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		g, err := loadGame(ctx, tx, s.db.Kinds, in.GameID, true)
		if err != nil {
			return err
		}
		caller, err := requireCaller(ctx, tx, g, in.Token)
		if err != nil {
			return err
		}
		if !caller.HasSeat() {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only players act in a game; this token has no seat in game %s.", g.ID)
		}
		stored, err := idem.byPrincipal(fmt.Sprintf("action:%s:seat:%d", g.ID, caller.Seat))
		if err != nil {
			return err
		}
		resp, err = idempotentRender(ctx, tx, stored, func() (*Acted, error) { return act(ctx, tx, g, caller, in) }, render)
		return err
	})
	return resp, err
}

func act(ctx context.Context, tx pgx.Tx, g *Game, caller Caller, in ActInput) (*Acted, error) {
	if in.IfMatch != nil && *in.IfMatch != g.Version {
		return nil, domain.Errorf(domain.KindPrecondition, "version_mismatch",
			"The game is at version %d, not %d: someone has moved since you looked. Reload the game and try again.", g.Version, *in.IfMatch)
	}
	if g.Status == StatusLobby || g.Status == StatusAborted {
		return nil, domain.Errorf(domain.KindConflict, "game_not_active", "Game %s is %s; it takes no actions.", g.ID, g.Status)
	}
	var seq int64
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(seq), -1) + 1 FROM actions WHERE game_id = $1`, g.ID).Scan(&seq); err != nil {
		return nil, err
	}
	next, outcome, random, err := domain.ApplyRecorded(g.State, caller.Seat, in.Action, domain.SeededRand(uint64(g.seed), seq))
	if err != nil {
		if kind := domain.ErrorKind(err); kind == domain.KindIllegal || kind == domain.KindNotYourTurn {
			if rerr := recordAttempt(ctx, tx, g, caller.Seat, in.Action, err); rerr != nil {
				return nil, rerr
			}
			return nil, &keepWrites{err: err}
		}
		return nil, err
	}
	seat := caller.Seat
	entry, err := appendEntry(ctx, tx, g.ID, seq, &seat, in.Action, outcome, random)
	if err != nil {
		return nil, err
	}
	if err := saveState(ctx, tx, g, next, g.SeatCount); err != nil {
		return nil, err
	}
	if err := notifyEntry(ctx, tx, g.ID, seq); err != nil {
		return nil, err
	}
	return &Acted{Game: g, Caller: caller, Entry: entry}, nil
}

func recordAttempt(ctx context.Context, tx pgx.Tx, g *Game, seat int, action json.RawMessage, refusal error) error {
	code, detail := domain.ErrorCode(refusal), refusal.Error()
	var de *domain.Error
	if errors.As(refusal, &de) {
		detail = de.Message
	}
	_, err := tx.Exec(ctx, `INSERT INTO attempts (game_id, seat, version, action, code, detail) VALUES ($1, $2, $3, $4, $5, $6)`,
		g.ID, seat, g.Version, action, code, detail)
	return err
}

func appendEntry(ctx context.Context, tx pgx.Tx, gameID string, seq int64, seat *int, action json.RawMessage, outcome domain.Outcome, random []int) (Entry, error) {
	outcomeJSON, err := json.Marshal(outcome)
	if err != nil {
		return Entry{}, fmt.Errorf("encoding outcome: %w", err)
	}
	if random == nil {
		random = []int{}
	}
	e := Entry{Seq: seq, Seat: seat, Action: action, Outcome: outcomeJSON, Random: random}
	err = tx.QueryRow(ctx, `INSERT INTO actions (game_id, seq, seat, action, outcome, random) VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
		gameID, seq, seat, action, outcomeJSON, random).Scan(&e.CreatedAt)
	return e, err
}

// saveState stores the new snapshot and moves the game to its new status and version.
func saveState(ctx context.Context, tx pgx.Tx, g *Game, state domain.State, seats int) error {
	snapshot, err := json.Marshal(state)
	if err != nil {
		return fmt.Errorf("encoding snapshot: %w", err)
	}
	st := state.Status()
	status, winners := StatusActive, []int32{}
	if st.Finished {
		status = StatusFinished
		for _, w := range st.Winners {
			winners = append(winners, int32(w))
		}
	}
	err = tx.QueryRow(ctx, `UPDATE games SET status = $2, seat_count = $3, snapshot = $4, winners = $5,
			version = version + 1, updated_at = now(),
			finished_at = CASE WHEN $2 = 'finished' THEN now() END
		WHERE id = $1 RETURNING version, updated_at, finished_at`,
		g.ID, status, seats, snapshot, winners).Scan(&g.Version, &g.UpdatedAt, &g.FinishedAt)
	if err != nil {
		return err
	}
	g.State, g.Status, g.SeatCount, g.Winners = state, status, seats, st.Winners
	return nil
}
