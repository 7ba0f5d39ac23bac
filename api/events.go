package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/api/openapi"
	"primegames/domain"
	"primegames/live"
	"primegames/play"
)

// The event streams (GET /v1/games/{id}/events and /v1/classrooms/{id}/events) are server-sent
// events. Package live holds the streams' slots, wakes them and runs them; here each stream finds
// what it may read through play and writes it as events.

// streamBatch is how many history entries a stream reads at a time.
const streamBatch = 200

// StreamGameEvents sends the game's history, then its new entries as they are recorded, as
// server-sent events, until the game ends, the client leaves or the server shuts down.
func (s *Server) StreamGameEvents(c echo.Context, id openapi.GameID, params openapi.StreamGameEventsParams) error {
	hold, err := s.openStream(c)
	if err != nil {
		return err
	}
	defer hold.close()
	after, err := resumeAfter(params)
	if err != nil {
		return err
	}
	gameID := id.String()
	if err := s.subscribe(c, hold, live.GameTopic(gameID)); err != nil {
		return err
	}
	out, who := s.newEventWriter(c), identityOf(c)
	var principal play.Principal
	sub := hold.sub
	return s.serveStream(c, hold, out, live.Source{
		Open: func(ctx context.Context) (err error) {
			if principal, err = s.streamPrincipal(ctx, who); err != nil {
				return err
			}
			if _, _, err = s.play.Get(ctx, gameID, principal); err != nil {
				return err
			}
			s.holdAuthority(sub, principal, gameID)
			return nil
		},
		Step: func(ctx context.Context) (over bool, err error) {
			after, over, err = s.sendNewEvents(ctx, out, gameID, s.gameStreamView(principal, gameID), after)
			return over, err
		},
		Check: func(ctx context.Context) error { return s.stillHolds(ctx, principal, gameID) },
	})
}

// streamHold is what an open stream holds of the instance: its slots and its subscription, given
// back when the stream ends (when its handler returns, or, for a detached stream, when its goroutine
// does).
type streamHold struct {
	s        *Server
	release  func()
	sub      *live.Subscription
	detached bool   // the detached stream's goroutine gives them back
	ended    func() // logs the end of a stream that began, once what it held is given back
}

// close gives back what the stream holds, unless its detached goroutine will.
func (hold *streamHold) close() {
	if hold.detached {
		return
	}
	hold.end()
	if hold.ended != nil {
		hold.ended()
	}
}

func (hold *streamHold) end() {
	if hold.sub != nil {
		hold.s.hub.Unsubscribe(hold.sub)
	}
	hold.release()
}

// openStream takes the stream slots of the client and of the instance, or refuses the stream.
func (s *Server) openStream(c echo.Context) (*streamHold, error) {
	release, err := s.hub.Open(clientKey(c), addressKey(c))
	if err != nil {
		c.Response().Header().Set("Retry-After", strconv.Itoa(live.RetryAfter))
		return nil, err
	}
	return &streamHold{s: s, release: release}, nil
}

// subscribe registers the stream with the hub before its first read of the history, so that
// nothing recorded after that read goes unnoticed.
func (s *Server) subscribe(c echo.Context, hold *streamHold, topic live.Topic) error {
	sub, err := s.hub.Subscribe(topic)
	if err != nil {
		c.Response().Header().Set("Retry-After", strconv.Itoa(live.RetryAfter))
		return err
	}
	hold.sub = sub
	return nil
}

// serveStream runs a stream whose slots and subscription hold has: it opens it and sends what
// there is on the request's goroutine, then, over HTTP/1.1, takes the connection from the HTTP
// server and hands the stream to the hub, which carries it on without a goroutine while it idles
// (live.Hub.Detach), so that an idle stream costs as little as it can; over other protocols, here
// until it ends. Every stream that began is logged as "stream ended" once it has given back what it
// held: a detached one by its goroutine (the request's access log line is written as it is
// detached), any other as its handler returns (a stream whose client left, or whose game ended,
// before it could be detached). src and the stream's writer must not use c after it returns: echo
// reuses it.
func (s *Server) serveStream(c echo.Context, hold *streamHold, out *eventWriter, src live.Source) error {
	out.sub = hold.sub
	conn := &streamConn{s: s, out: out, topic: hold.sub.Topic(), path: c.Request().URL.Path, requestID: middleware.RequestIDOf(c), lang: lang(c)}
	ctx := c.Request().Context()
	opened := time.Now()
	ended := func() {
		s.logger.LogAttrs(ctx, slog.LevelInfo, "stream ended", slog.String("request_id", conn.requestID),
			slog.String("path", conn.path), slog.Float64("duration_ms", float64(time.Since(opened).Microseconds())/1000))
	}
	stream, err := s.hub.Begin(ctx, hold.sub, src, conn)
	if stream == nil {
		if err == nil { // it began, and ended at once
			hold.ended = ended
		}
		return err
	}
	hold.ended = ended
	raw := out.detach()
	if raw == nil {
		stream.Run(ctx)
		return nil
	}
	hold.detached = s.hub.Detach(ctx, stream, raw, func() {
		out.end()
		hold.end()
		ended()
	})
	if !hold.detached {
		out.end()
	}
	return nil
}

// identityOf is the request's identification, for a stream to find its principal later (c is
// reused once the handler returns).
func identityOf(c echo.Context) *identified {
	id, ok := c.Get(principalKey).(identified)
	if !ok {
		return nil
	}
	return &id
}

// streamPrincipal is the request's principal for a stream (who, from identityOf). When the database
// could not be asked as the request came in, it asks again: a stream waits an outage out rather
// than refuse.
func (s *Server) streamPrincipal(ctx context.Context, who *identified) (play.Principal, error) {
	if who == nil {
		return play.Nobody, nil
	}
	id := *who
	if id.err != nil && !live.IsRefusal(id.err) {
		return s.play.Resolve(ctx, id.unresolved)
	}
	return id.principal, id.err
}

// resumeAfter is the seq after which the stream starts: Last-Event-ID, else since, else -1 (the
// whole history).
func resumeAfter(params openapi.StreamGameEventsParams) (int64, error) {
	if last := lastEventID(params.LastEventID, params.LastEventId); last != "" {
		n, err := strconv.ParseInt(last, 10, 64)
		if err != nil || n < -1 {
			return 0, domain.Invalid("invalid_last_event_id", "Last-Event-ID must be the id of an event of this stream (a seq); got %q.", last)
		}
		return n, nil
	}
	if params.Since != nil {
		return *params.Since, nil
	}
	return -1, nil
}

// sendNewEvents sends every entry after seq `after`, then `end` when the game is over. It returns
// the last seq sent and whether the stream is over.
func (s *Server) sendNewEvents(ctx context.Context, out *eventWriter, gameID string, view streamView, after int64) (int64, bool, error) {
	after, g, err := s.sendEntries(ctx, out, gameID, view, after, func(seq int64) string { return strconv.FormatInt(seq, 10) })
	if err != nil || !g.Status.Over() {
		return after, false, err
	}
	return after, true, sendEnd(out, g)
}

// sendEntries sends every entry of the game after seq `after` as `action` events with the ids idOf
// gives, each read as the stream's view of it says, once the view has confirmed that the stream may
// still have what the read shows. It returns the last seq sent and the game as it was when the last
// entry had been sent.
func (s *Server) sendEntries(ctx context.Context, out *eventWriter, gameID string, view streamView, after int64, idOf func(int64) string) (int64, *play.Game, error) {
	for {
		p, err := s.readProgress(ctx, gameID, after)
		if err != nil {
			return after, nil, err
		}
		caller, err := view.callerOf(p.Game)
		if err != nil {
			return after, nil, err
		}
		if len(p.Entries) > 0 || p.Game.Status.Over() { // something to write: the entries, or the end
			if err := view.confirm(ctx, p.Game); err != nil {
				return after, nil, err
			}
		}
		events, err := p.events(play.ViewerFor(p.Game.Status, caller))
		if err != nil {
			return after, nil, err
		}
		for i, e := range p.Entries {
			if err := out.event(idOf(e.Seq), "action", events[i]); err != nil {
				return after, nil, err
			}
			after = e.Seq
		}
		if p.Caught(after) {
			return after, p.Game, nil
		}
	}
}

// sendEnd sends the `end` event of a game that is over.
func sendEnd(out *eventWriter, g *play.Game) error {
	data, err := json.Marshal(openapi.GameEndEvent{
		GameId: mustUUID(g.ID), Status: openapi.GameStatus(g.Status),
		Version: g.Version, Winners: orEmpty(g.Winners),
	})
	if err != nil {
		return err
	}
	return out.event("", "end", data)
}

// Close ends every live stream and stops the listener. Serve calls it on shutdown; a server used
// only as an http.Handler (in tests) should call it when done.
func (s *Server) Close() { s.hub.Close() }
