package api

import (
	"context"
	"encoding/json"
	"sync"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

// sharedProgress is one read of a game's history after an entry, shared by the game's, classroom
// and player streams that ask for it between two notices of the game (live.Hub.ReadShared), with
// each entry's `action` event encoded once per view: a seat's view hides what the other seats'
// does, so the encodings of one view are never handed to a stream of another. (A player's stream
// sends events of its own, made from the entries.)
type sharedProgress struct {
	*play.Progress
	gameID string
	mu     sync.Mutex
	byView map[domain.Viewer][][]byte // the `action` events' data, one per entry
}

// readProgress reads the game's entries after seq `after`, sharing the read (see sharedProgress).
func (s *Server) readProgress(ctx context.Context, gameID string, after int64) (*sharedProgress, error) {
	v, err := s.hub.ReadShared(ctx, gameID, after, func(ctx context.Context) (any, error) {
		p, err := s.play.Progress(ctx, gameID, after, streamBatch)
		if err != nil {
			return nil, err
		}
		return &sharedProgress{Progress: p, gameID: gameID, byView: map[domain.Viewer][][]byte{}}, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*sharedProgress), nil
}

// events is the data of the entries' `action` events as viewer sees them, encoded once per view.
func (sp *sharedProgress) events(viewer domain.Viewer) ([][]byte, error) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if events, ok := sp.byView[viewer]; ok {
		return events, nil
	}
	events := make([][]byte, 0, len(sp.Entries))
	for _, e := range sp.Entries {
		entry, err := entryBody(sp.Game, e, viewer)
		if err != nil {
			return nil, err
		}
		data, err := json.Marshal(openapi.GameEvent{
			GameId: mustUUID(sp.gameID), Entry: entry,
			Version: e.Version, Status: openapi.GameStatus(sp.Game.StatusAfter(e)),
		})
		if err != nil {
			return nil, err
		}
		events = append(events, data)
	}
	sp.byView[viewer] = events
	return events, nil
}
