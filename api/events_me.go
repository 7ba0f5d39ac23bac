package api

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/api/openapi"
	"primegames/domain"
	"primegames/live"
	"primegames/play"
)

// StreamMyEvents sends the caller the events of all their games (game started, your turn, timed
// out, game ended) as they happen, games they come to sit in later included.
func (s *Server) StreamMyEvents(c echo.Context, params openapi.StreamMyEventsParams) error {
	hold, err := s.openStream(c)
	if err != nil {
		return err
	}
	defer hold.close()
	ps := &playerStream{s: s}
	if last := lastEventID(params.LastEventID, params.LastEventId); last != "" {
		if ps.resume = parsePlayerEventID(last); ps.resume == nil {
			return domain.Invalid("invalid_last_event_id", "Last-Event-ID must be the id of an event of this stream, as the server sent it; got %q.", last)
		}
	}
	// The stream learns whose it is, and so which topics to follow, once it may read the database.
	if err := s.subscribe(c, hold, live.PlayerTopic(middleware.RequestIDOf(c))); err != nil {
		return err
	}
	ps.sub = hold.sub
	out, who := s.newEventWriter(c), identityOf(c)
	return s.serveStream(c, hold, out, live.Source{
		Open: func(ctx context.Context) error {
			principal, err := s.streamPrincipal(ctx, who)
			if err != nil {
				return err
			}
			if err := ps.open(ctx, principal); err != nil {
				return err
			}
			s.holdAuthority(ps.sub, principal, "")
			return nil
		},
		Step: func(ctx context.Context) (bool, error) {
			return false, ps.catchUp(ctx, out)
		},
		Check: func(ctx context.Context) error { return s.stillHolds(ctx, ps.principal, "") },
	})
}

// playerStream is what one player's stream knows of the player's games and has sent of them.
type playerStream struct {
	s         *Server
	sub       *live.Subscription
	principal play.Principal
	resume    *playerStreamPosition // where the stream starts again, from Last-Event-ID; nil for now
	// floor, pos and joinedAt are the stream's position (see player_event_id.go).
	floor    time.Time
	pos      map[string]gamePosition
	joinedAt map[string]time.Time
	// followers keep each game's state after its position, for the games read so far.
	followers map[string]*play.SeatFollower
	// others are games of the classroom that have started without the player.
	others map[string]bool
	// rematches are the player's games learned, as rematches, during a catch-up, to send in it too.
	rematches []string
	// relist makes the next catch-up list the player's games again: after opening, and after a
	// catch-up that failed with news taken but not sent.
	relist bool
}

// open follows the topics that announce the player's games and lists them, placing the stream now
// or where Last-Event-ID left it.
func (ps *playerStream) open(ctx context.Context, principal play.Principal) error {
	ps.principal = principal
	if principal.Kind == play.Student && principal.Resolved {
		ps.s.hub.Follow(ps.sub, live.ClassroomTopic(principal.ClassroomID))
	}
	at, games, err := ps.s.play.PlayerGames(ctx, principal)
	if err != nil {
		return err
	}
	ps.floor = playerStreamFloor(at)
	ps.pos, ps.joinedAt = map[string]gamePosition{}, map[string]time.Time{}
	ps.followers, ps.others = map[string]*play.SeatFollower{}, map[string]bool{}
	for _, g := range games {
		ps.learn(g.ID, g.JoinedAt, ps.startingPosition(g))
	}
	ps.relist = true // what was recorded before a seat token's games were followed
	return nil
}

// playerStreamFloor is the floor of a stream that listed the player's games at `at`: a seat taken
// before it was committed by then. Whole milliseconds, as event ids carry it.
func playerStreamFloor(at time.Time) time.Time {
	return time.UnixMilli(at.Add(-classroomResumeWindow).UnixMilli())
}

// startingPosition is where a stream that opens starts in game g.
func (ps *playerStream) startingPosition(g play.PlayerGame) gamePosition {
	now := gamePosition{seq: g.LastSeq, event: play.YourTurn}
	if g.Over {
		now.event = play.GameEnded
	}
	if ps.resume == nil {
		return now
	}
	if pos, ok := ps.resume.games[g.ID]; ok {
		return pos
	}
	if g.JoinedAt.After(ps.resume.floor) {
		return gamePosition{seq: -1, event: play.YourTurn} // the resumed stream had not learned of it
	}
	now.event = play.GameEnded // it had sent all of it
	return now
}

// learn adds a game of the player's at a position.
func (ps *playerStream) learn(gameID string, joinedAt time.Time, pos gamePosition) {
	ps.pos[gameID], ps.joinedAt[gameID] = pos, joinedAt
	if ps.principal.Kind == play.GameToken {
		ps.s.hub.Follow(ps.sub, live.GameTopic(gameID))
	}
}

// catchUp sends what is new in the games with news.
func (ps *playerStream) catchUp(ctx context.Context, out *eventWriter) error {
	named, all := ps.sub.News()
	var err error
	if ps.principal.Kind == play.Student {
		if named, err = ps.s.sendDueSoon(ctx, out, named, ps.principal.StudentID); err != nil {
			return err
		}
	}
	games, err := ps.gamesWithNews(ctx, named, all || ps.relist)
	slices.Sort(games)
	for err == nil && len(games)+len(ps.rematches) > 0 {
		if len(games) == 0 {
			games, ps.rematches = ps.rematches, nil
		}
		err = ps.sendNews(ctx, out, games[0])
		games = games[1:]
	}
	ps.relist, ps.rematches = err != nil, nil
	return err
}

// gamesWithNews is which of the player's games the named ones are, learning those the stream did
// not know; with all, which of all the player's games have anything unsent.
func (ps *playerStream) gamesWithNews(ctx context.Context, named []string, all bool) ([]string, error) {
	if all {
		return ps.listNews(ctx)
	}
	var games []string
	for _, id := range named {
		if pos, known := ps.pos[id]; known {
			if pos.done() { // news of a game over: its rematch
				if err := ps.learnRematchOf(ctx, id); err != nil {
					return nil, err
				}
			}
			games = append(games, id)
			continue
		}
		if ps.others[id] {
			continue
		}
		g, err := ps.s.play.Load(ctx, id)
		if err != nil {
			return nil, err
		}
		if seat, ok := playerSeat(&g.GameRecord, ps.principal); ok {
			ps.learn(id, seat.JoinedAt, gamePosition{seq: -1, event: play.YourTurn})
			games = append(games, id)
		} else if g.Status != play.StatusLobby {
			ps.others[id] = true // the player may still join a lobby
		}
	}
	return games, nil
}

// listNews lists the player's games, learning those the stream did not know, and returns those
// with anything unsent. Every seat taken a resume window before the listing is known after it, so
// the floor moves up.
func (ps *playerStream) listNews(ctx context.Context) ([]string, error) {
	at, list, err := ps.s.play.PlayerGames(ctx, ps.principal)
	if err != nil {
		if ps.principal.Kind == play.GameToken && domain.ErrorCode(err) == "unauthorized" {
			// the seat token's last seat was left since the stream opened (heard here before the
			// revocation's notice): it ends as the notice would have ended it
			return nil, live.Revoked(live.SeatLeft)
		}
		return nil, err
	}
	var games []string
	for _, g := range list {
		pos, known := ps.pos[g.ID]
		if !known {
			pos = gamePosition{seq: -1, event: play.YourTurn}
			ps.learn(g.ID, g.JoinedAt, pos)
		}
		if !pos.done() && (g.LastSeq > pos.seq || pos.event < play.YourTurn || g.Over) {
			games = append(games, g.ID)
		}
	}
	if floor := playerStreamFloor(at); floor.After(ps.floor) {
		ps.floor = floor
	}
	return games, nil
}

// learnRematchOf learns the rematch of a finished game, when the player sits in it: a seat token
// acts in its game's rematch too, and its stream follows no classroom to hear of it otherwise.
func (ps *playerStream) learnRematchOf(ctx context.Context, gameID string) error {
	g, err := ps.s.play.Load(ctx, gameID)
	if err != nil {
		return err
	}
	return ps.learnRematch(ctx, g.RematchID)
}

// learnRematch learns the game rematchID names, if the stream does not know it and the player
// sits in it, to be sent in the current catch-up.
func (ps *playerStream) learnRematch(ctx context.Context, rematchID *string) error {
	if rematchID == nil {
		return nil
	}
	if _, known := ps.pos[*rematchID]; known || ps.others[*rematchID] {
		return nil
	}
	g, err := ps.s.play.Load(ctx, *rematchID)
	if err != nil {
		return err
	}
	if seat, ok := playerSeat(&g.GameRecord, ps.principal); ok {
		ps.learn(g.ID, seat.JoinedAt, gamePosition{seq: -1, event: play.YourTurn})
		ps.rematches = append(ps.rematches, g.ID)
	}
	return nil
}

// playerSeat is the principal's seat in a game, if they hold one.
func playerSeat(g *play.GameRecord, principal play.Principal) (play.Seat, bool) {
	caller, err := play.CallerOf(g, principal)
	if err != nil || !caller.HasSeat() {
		return play.Seat{}, false
	}
	for _, seat := range g.Seats {
		if seat.Seat == caller.Seat {
			return seat, true
		}
	}
	return play.Seat{}, false
}

// sendNews sends the player's events of one game after the stream's position in it, and its end
// once it is over.
func (ps *playerStream) sendNews(ctx context.Context, out *eventWriter, gameID string) error {
	pos := ps.pos[gameID]
	if pos.done() {
		return nil
	}
	// A position inside an entry (some of its events sent) reads that entry again, skipping those.
	after, partial := pos.seq, pos.event < play.YourTurn
	if partial {
		after = pos.seq - 1
	}
	for {
		shared, err := ps.s.readProgress(ctx, gameID, after)
		if err != nil {
			return err
		}
		p := shared.Progress // shared with the game's other streams: read, never changed
		if err := ps.learnRematch(ctx, p.Game.RematchID); err != nil {
			return err
		}
		seat, ok := playerSeat(&p.Game.GameRecord, ps.principal)
		if !ok { // the player left the lobby, or gave up the seat the token held: forget the game
			delete(ps.pos, gameID)
			delete(ps.joinedAt, gameID)
			delete(ps.followers, gameID)
			if ps.principal.Kind == play.GameToken && len(ps.pos) == 0 {
				return live.Revoked(live.SeatLeft) // a seat token that holds no seat any more
			}
			return nil
		}
		if len(p.Entries) > 0 || p.Game.Status.Over() {
			if err := ps.s.confirmAuthority(ctx, p.Game, ps.principal, ""); err != nil {
				return err
			}
		}
		f := ps.followers[gameID]
		if f == nil && len(p.Entries) > 0 { // the end of a game with nothing new needs none
			if f, err = ps.s.play.FollowSeat(ctx, p.Game, seat.Seat, after); err != nil {
				return err
			}
			ps.followers[gameID] = f
		}
		for _, e := range p.Entries {
			events, err := f.Next(p.Game, e)
			if err != nil {
				delete(ps.followers, gameID)
				return err
			}
			for _, ev := range events {
				if partial && e.Seq == pos.seq && ev <= pos.event {
					continue
				}
				data := openapi.PlayerEvent{Event: openapi.PlayerEventKind(ev.String()), GameId: mustUUID(gameID),
					Game: openapi.GameKind(p.Game.Kind), Seat: seat.Seat, Seq: e.Seq, Version: e.Version,
					Status: openapi.GameStatus(p.Game.StatusAfter(e))}
				if err := ps.send(out, gameID, gamePosition{seq: e.Seq, event: ev}, data); err != nil {
					delete(ps.followers, gameID)
					return err
				}
			}
			ps.pos[gameID] = gamePosition{seq: e.Seq, event: play.YourTurn}
			after = e.Seq
		}
		if !p.Caught(after) {
			continue
		}
		if !p.Game.Status.Over() {
			return nil
		}
		g := p.Game
		if ps.principal.Kind == play.Student {
			if err := ps.s.sendAssignmentDone(ctx, out, g, ps.principal.StudentID); err != nil {
				return err
			}
		}
		return ps.send(out, gameID, gamePosition{seq: p.LastSeq, event: play.GameEnded}, openapi.PlayerEvent{
			Event: openapi.GameEnded, GameId: mustUUID(gameID), Game: openapi.GameKind(g.Kind), Seat: seat.Seat,
			Seq: p.LastSeq, Version: g.Version, Status: openapi.GameStatus(g.Status), Winners: ptr(orEmpty(g.Winners)),
		})
	}
}

// send moves the stream's position in a game to pos and sends the event that took it there.
func (ps *playerStream) send(out *eventWriter, gameID string, pos gamePosition, data openapi.PlayerEvent) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	ps.pos[gameID] = pos
	id := formatPlayerEventID(ps.floor, ps.pos, ps.joinedAt)
	return out.event(id, string(data.Event), body)
}
