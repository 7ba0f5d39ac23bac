package api

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

// classroomResumeWindow is how long before the entry named by Last-Event-ID a classroom stream
// starts again. An entry's time is when its transaction began, and transactions of different games
// commit in any order, so the window must exceed the longest action transaction.
const classroomResumeWindow = 10 * time.Second

// StreamClassroomEvents sends, to the classroom's teacher, the entries of every game of the
// classroom as they are recorded, games created after the stream opened included.
func (s *Server) StreamClassroomEvents(c echo.Context, id openapi.ClassroomID, params openapi.StreamClassroomEventsParams) error {
	release, err := s.streams.openSlot(c)
	if err != nil {
		return err
	}
	defer release()
	room, err := s.teacherOf(c, id)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	since := params.Since
	if params.LastEventID != nil && strings.TrimSpace(*params.LastEventID) != "" {
		gameID, seq, ok := parseClassroomEventID(*params.LastEventID)
		if !ok {
			return domain.Invalid("invalid_last_event_id", "Last-Event-ID must be the id of an event of this stream (<game id>:<seq>); got %q.", *params.LastEventID)
		}
		at, err := s.db.Games().EntryTime(ctx, room.ID, gameID, seq)
		if err != nil {
			return err
		}
		at = at.Add(-classroomResumeWindow)
		since = &at
	}
	// Subscribe before reading where the games stand, so that nothing recorded after goes unnoticed.
	sub, err := s.streams.subscribe(classroomTopic(room.ID))
	if err != nil {
		return err
	}
	defer s.streams.unsubscribe(sub)
	pos, err := s.db.Games().ClassroomPosition(ctx, room.ID, since)
	if err != nil {
		return err
	}
	cs := &classroomStream{s: s, classroomID: room.ID, cursor: pos.LastSeq, wasOver: pos.Over, ended: map[string]bool{}}
	replay := since != nil
	return s.serveStream(c, sub, func(out *eventWriter) (bool, error) {
		games, all := sub.news()
		if replay {
			all, replay = true, false
		}
		return false, cs.catchUp(ctx, out, games, all)
	})
}

func parseClassroomEventID(v string) (string, int64, bool) {
	gameID, seqText, ok := strings.Cut(strings.TrimSpace(v), ":")
	if !ok {
		return "", 0, false
	}
	if _, err := uuid.Parse(gameID); err != nil {
		return "", 0, false
	}
	seq, err := strconv.ParseInt(seqText, 10, 64)
	return gameID, seq, err == nil && seq >= 0
}

// classroomStream is what one classroom stream has sent: per game, the last entry, and whether its
// end has been sent or was over before the stream's starting point.
type classroomStream struct {
	s           *Server
	classroomID string
	cursor      map[string]int64
	wasOver     map[string]bool
	ended       map[string]bool
}

// catchUp sends the news of the named games or, with all, of every game of the classroom.
func (cs *classroomStream) catchUp(ctx context.Context, out *eventWriter, games []string, all bool) error {
	if all {
		pos, err := cs.s.db.Games().ClassroomPosition(ctx, cs.classroomID, nil)
		if err != nil {
			return err
		}
		games = games[:0]
		for g, last := range pos.LastSeq {
			cur, known := cs.cursor[g]
			if !known {
				cur = -1
			}
			if last > cur || (pos.Over[g] && !cs.ended[g] && !cs.wasOver[g]) {
				games = append(games, g)
			}
		}
	}
	slices.Sort(games)
	for _, g := range games {
		after, known := cs.cursor[g]
		if !known {
			after = -1 // a game created after the stream opened: all of it
		}
		after, game, err := cs.s.sendEntries(ctx, out, g, play.ClassroomTeacher, after, func(seq int64) string { return g + ":" + strconv.FormatInt(seq, 10) })
		cs.cursor[g] = after
		if err != nil {
			return err
		}
		if game.Status.Over() && !cs.ended[g] && !cs.wasOver[g] {
			if err := sendEnd(out, game); err != nil {
				return err
			}
			cs.ended[g] = true
		}
	}
	return nil
}
