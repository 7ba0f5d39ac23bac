package play

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// The default times after which the worker aborts a game nobody plays (LOBBY_TTL, IDLE_GAME_TTL).
const (
	DefaultLobbyTTL    = 24 * time.Hour
	DefaultIdleGameTTL = 30 * 24 * time.Hour
)

// AbandonTTLs say when a game counts as abandoned: a lobby older than Lobby, an active game with no
// change for longer than Idle.
type AbandonTTLs struct {
	Lobby, Idle time.Duration
}

// abortAction is the action of the service entry that ends an active game nobody plays.
type abortAction struct {
	Type   string    `json:"type"`
	Reason EndReason `json:"reason"`
}

// AbortOutcome is the outcome of that entry; it changes nothing on the board.
type AbortOutcome struct {
	EndReason EndReason `json:"end_reason"`
}

// AbortAbandonedGame claims one lobby or active game left alone longer than its TTL and aborts it:
// a lobby ends as lobby_expired; an active game as idle, with a service entry in its history.
// acted reports whether a game was claimed.
func (s *Service) AbortAbandonedGame(ctx context.Context) (acted bool, err error) {
	claimed, _, err := s.inDueGame(ctx, []DueWork{DueAbandoned}, func(_ DueWork, tx Tx, g *GameRecord) error {
		switch g.Status {
		case StatusLobby:
			return tx.AbortGame(ctx, g, EndLobbyExpired)
		case StatusActive:
			return abortIdle(ctx, tx, g)
		}
		return nil // over since it was found: nothing to do
	})
	if err != nil {
		return false, err // not acted: the worker waits before it tries again
	}
	return claimed != nil, nil
}

// abortIdle records the abort of an active game as a service entry, then aborts the game; the
// entry's announcement goes out before the end's.
func abortIdle(ctx context.Context, tx Tx, g *GameRecord) error {
	seq, err := tx.NextSeq(ctx, g.ID)
	if err != nil {
		return err
	}
	entry := Entry{Seq: seq, Version: g.Version + 1, Service: true}
	if entry.Action, err = json.Marshal(abortAction{Type: "abort", Reason: EndIdle}); err != nil {
		return fmt.Errorf("encoding action: %w", err)
	}
	if entry.Outcome, err = json.Marshal(AbortOutcome{EndReason: EndIdle}); err != nil {
		return fmt.Errorf("encoding outcome: %w", err)
	}
	if err := tx.AppendEntry(ctx, g.ID, &entry); err != nil {
		return err
	}
	return tx.AbortGame(ctx, g, EndIdle)
}
