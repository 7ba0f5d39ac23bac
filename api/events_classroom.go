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
	"primegames/live"
	"primegames/play"
)

// classroomResumeWindow is how long before the entry named by Last-Event-ID a classroom stream
// starts again. An entry's time is when its transaction began, and transactions of different games
// commit in any order, so the window must exceed the longest action transaction.
const classroomResumeWindow = 10 * time.Second

// StreamClassroomEvents sends, to the classroom's teacher (or, as a spectator sees them, to an
// observer of the classroom), the entries of every game of the classroom as they are recorded,
// games created after the stream opened included.
func (s *Server) StreamClassroomEvents(c echo.Context, id openapi.ClassroomID, params openapi.StreamClassroomEventsParams) error {
	hold, err := s.openStream(c)
	if err != nil {
		return err
	}
	defer hold.close()
	var resume *classroomEventID
	if last := lastEventID(params.LastEventID, params.LastEventId); last != "" {
		if resume = parseClassroomEventID(last); resume == nil {
			return domain.Invalid("invalid_last_event_id", "Last-Event-ID must be the id of an event of this stream (<game id>:<seq>); got %q.", last)
		}
	}
	cs := &classroomStream{s: s, classroomID: id.String(), ended: map[string]bool{}}
	if err := s.subscribe(c, hold, live.ClassroomTopic(cs.classroomID)); err != nil {
		return err
	}
	sub, out, who := hold.sub, s.newEventWriter(c), identityOf(c)
	return s.serveStream(c, hold, out, live.Source{
		Open: func(ctx context.Context) error {
			principal, err := s.streamPrincipal(ctx, who)
			if err != nil {
				return err
			}
			if err := cs.open(ctx, principal, params.Since, resume); err != nil {
				return err
			}
			s.holdAuthority(sub, principal, "")
			return nil
		},
		Step: func(ctx context.Context) (bool, error) {
			return false, cs.catchUp(ctx, out, sub)
		},
		Check: func(ctx context.Context) error { return s.stillHolds(ctx, cs.watcher, "") },
	})
}

// classroomEventID is the id of an event of a classroom stream.
type classroomEventID struct {
	gameID string
	seq    int64
}

func parseClassroomEventID(v string) *classroomEventID {
	gameID, seqText, ok := strings.Cut(strings.TrimSpace(v), ":")
	if !ok {
		return nil
	}
	if _, err := uuid.Parse(gameID); err != nil {
		return nil
	}
	seq, err := strconv.ParseInt(seqText, 10, 64)
	if err != nil || seq < 0 {
		return nil
	}
	return &classroomEventID{gameID: gameID, seq: seq}
}

// classroomStream is what one classroom stream has sent: per game, the last entry, and whether its
// end has been sent or was over before the stream's starting point.
type classroomStream struct {
	s           *Server
	classroomID string
	watcher     play.Principal // the teacher, or an observer of the classroom
	cursor      map[string]int64
	wasOver     map[string]bool
	ended       map[string]bool
	// recheck makes the next catch-up look at every game: after a replay's start, and after a
	// catch-up that failed with news taken but not sent.
	recheck bool
}

// open reads, for the classroom's teacher, where its games stand: now, or as of since, or shortly
// before the entry to resume after.
func (cs *classroomStream) open(ctx context.Context, principal play.Principal, since *time.Time, resume *classroomEventID) error {
	cs.watcher = principal
	if resume != nil {
		at, err := cs.s.play.EntryTime(ctx, principal, cs.classroomID, resume.gameID, resume.seq)
		if err != nil {
			return err
		}
		at = at.Add(-classroomResumeWindow)
		since = &at
	}
	pos, err := cs.s.play.ClassroomPosition(ctx, principal, cs.classroomID, since)
	if err != nil {
		return err
	}
	cs.cursor, cs.wasOver, cs.recheck = pos.LastSeq, pos.Over, since != nil
	return nil
}

// catchUp sends the news that woke sub.
func (cs *classroomStream) catchUp(ctx context.Context, out *eventWriter, sub *live.Subscription) error {
	games, all := sub.News()
	if err := cs.sendNews(ctx, out, games, all || cs.recheck); err != nil {
		cs.recheck = true
		return err
	}
	cs.recheck = false
	return nil
}

// view is how the watcher sees every game of the classroom, its authority confirmed for each read.
func (cs *classroomStream) view() streamView {
	return streamView{
		callerOf: func(*play.Game) (play.Caller, error) { return play.ClassroomWatcher(cs.watcher), nil },
		confirm: func(ctx context.Context, g *play.Game) error {
			return cs.s.confirmAuthority(ctx, g, cs.watcher, "")
		},
	}
}

// sendNews sends the news of the named games or, with all, of every game of the classroom.
func (cs *classroomStream) sendNews(ctx context.Context, out *eventWriter, games []string, all bool) error {
	games, err := cs.s.sendDueSoon(ctx, out, games, "")
	if err != nil {
		return err
	}
	if all {
		pos, err := cs.s.play.ClassroomPosition(ctx, cs.watcher, cs.classroomID, nil)
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
		after, game, err := cs.s.sendEntries(ctx, out, g, cs.view(), after, func(seq int64) string { return g + ":" + strconv.FormatInt(seq, 10) })
		cs.cursor[g] = after
		if err != nil {
			return err
		}
		if game.Status.Over() && !cs.ended[g] && !cs.wasOver[g] {
			if err := cs.s.sendAssignmentDone(ctx, out, game, ""); err != nil {
				return err
			}
			if err := sendEnd(out, game); err != nil {
				return err
			}
			cs.ended[g] = true
		}
	}
	return nil
}
