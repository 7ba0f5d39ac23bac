package api

import (
	"context"
	"encoding/json"

	"primegames/api/openapi"
	"primegames/live"
	"primegames/play"
)

// A stream follows its holder's authority (live/authority.go): once the stream knows whose it is,
// it holds the authorities whose end ends it (holdAuthority); the hub checks all of them at once on
// the heartbeat and after the listener reconnects (endedAuthorities); until then, or when a read
// ran ahead of the listener, a stream asks for itself before it writes (confirmAuthority,
// stillHolds); a game stream also works out its caller afresh from each read of the game, so a
// seat left or handed over is seen in the very read that would show what follows. Its last event,
// `revoked`, says why and carries nothing of a game.

// authorityKeys are the authorities of p that its streams of game gameID ("" for a stream of no
// one game) hold.
func authorityKeys(p play.Principal, gameID string) []live.AuthorityKey {
	switch p.Kind {
	case play.Teacher, play.Observer:
		if p.AccountID != "" { // an account teaching the classroom, perhaps as a co-teacher (play/coteachers.go)
			return []live.AuthorityKey{live.TokenAuthority(p.TokenHash), live.TeachingAuthority(p.ClassroomID, p.AccountID)}
		}
		return []live.AuthorityKey{live.TokenAuthority(p.TokenHash)}
	case play.Student:
		return []live.AuthorityKey{live.TokenAuthority(p.TokenHash), live.StudentAuthority(p.StudentID)}
	case play.GameToken:
		if gameID != "" {
			return []live.AuthorityKey{live.SeatAuthority(gameID, p.TokenHash)}
		}
	}
	return nil
}

// holdAuthority makes sub end when p's authority does: its revocation, or an observer token's
// expiry (on the service's clock).
func (s *Server) holdAuthority(sub *live.Subscription, p play.Principal, gameID string) {
	s.hub.Hold(sub, authorityKeys(p, gameID)...)
	if p.IsObserver() && p.ExpiresAt != nil {
		at, stop := s.play.Clock().Timer(*p.ExpiresAt)
		s.hub.RevokeAt(sub, live.ObserverExpired, at, stop)
	}
}

// stillHolds asks again whether p, as a stream of game gameID ("" for none) found it, still holds:
// it returns a live.RevokedError when not. An anonymous stream, and a seat token's stream of its
// games, need not ask.
func (s *Server) stillHolds(ctx context.Context, p play.Principal, gameID string) error {
	switch p.Kind {
	case play.Teacher, play.Student, play.Observer:
		fresh, err := s.play.Resolve(ctx, p.Unresolved())
		if err != nil {
			return err
		}
		if !fresh.Resolved || fresh.StudentID != p.StudentID {
			return live.Revoked(s.lostAuthority(p))
		}
		if fresh.Kind != p.Kind || fresh.ClassroomID != p.ClassroomID { // an account no longer teaching the classroom
			return live.Revoked(live.TeacherRemoved)
		}
	case play.GameToken:
		if gameID == "" {
			return nil
		}
		_, _, err := s.play.GetRecord(ctx, gameID, p)
		if live.IsRefusal(err) {
			return live.Revoked(live.SeatLeft)
		}
		return err
	}
	return nil
}

// lostAuthority is why p, found to hold no more, lost its authority, as far as a stream can tell.
func (s *Server) lostAuthority(p play.Principal) string {
	switch {
	case p.Kind == play.Observer && p.ExpiresAt != nil && !s.play.Clock().Now().Before(*p.ExpiresAt):
		return live.ObserverExpired
	case p.Kind == play.Observer:
		return live.ObserverRevoked
	case p.Kind == play.GameToken || p.Kind == play.Student:
		return live.SeatLeft
	}
	return live.TokenRevoked
}

// streamView is how a stream sees each read of a game: as whom (callerOf), and whether its holder
// may still have what the read shows (confirm, before anything of it is written).
type streamView struct {
	callerOf func(*play.Game) (play.Caller, error)
	confirm  func(context.Context, *play.Game) error
}

// gameStreamView is the view of p's stream of game gameID: its caller worked out from each read (a
// game token whose seat was left or handed to the computer, or a student whose lobby started
// without them, no longer opens the game), its authority confirmed for each.
func (s *Server) gameStreamView(p play.Principal, gameID string) streamView {
	return streamView{
		callerOf: func(g *play.Game) (play.Caller, error) {
			caller, err := play.CallerOf(&g.GameRecord, p)
			if err != nil {
				return caller, live.Revoked(live.SeatLeft)
			}
			return caller, nil
		},
		confirm: func(ctx context.Context, g *play.Game) error { return s.confirmAuthority(ctx, g, p, gameID) },
	}
}

// confirmAuthority makes sure that p, as a stream of game gameID ("" for none) holds it, still held
// its authority when g was read, before anything that read shows is written. A revocation committed
// before the read has been heard, and the stream's flag set, once the hub has passed on g's
// notices up to g's version (live.Hub.Heard); when it has not (the read ran ahead of the listener),
// the stream asks the database. An observer token past its expiry holds no more. A seat token's
// authority is in the read itself (g's seats), and an anonymous stream has none to lose.
func (s *Server) confirmAuthority(ctx context.Context, g *play.Game, p play.Principal, gameID string) error {
	switch {
	case p.Kind != play.Teacher && p.Kind != play.Student && p.Kind != play.Observer:
		return nil
	case p.ExpiresAt != nil && !s.play.Clock().Now().Before(*p.ExpiresAt):
		return live.Revoked(live.ObserverExpired) // whether or not its timer has fired yet
	case s.hub.Heard(g.ID, g.Version):
		return nil
	}
	return s.stillHolds(ctx, p, gameID)
}

// Revoked sends the stream's last event, `revoked`, which says why and nothing of any game.
func (sc *streamConn) Revoked(reason string) error {
	data, err := json.Marshal(openapi.RevokedEvent{Reason: openapi.RevokedEventReason(reason)})
	if err != nil {
		return err
	}
	return sc.out.write("", "revoked", data)
}

// endedAuthorities finds, of the token, student and teaching authorities the hub's streams hold,
// those that have ended (live.Hub.Verify); a seat's authority is in each read of its game.
func (s *Server) endedAuthorities(ctx context.Context, keys []live.AuthorityKey) ([]live.Revocation, error) {
	var hashes [][]byte
	var students []string
	var teachings []play.ClassroomTeaching
	for _, key := range keys {
		if hash, ok := key.Token(); ok {
			hashes = append(hashes, hash)
		} else if student, ok := key.Student(); ok {
			students = append(students, student)
		} else if classroom, account, ok := key.Teaching(); ok {
			teachings = append(teachings, play.ClassroomTeaching{ClassroomID: classroom, AccountID: account})
		}
	}
	var ended []live.Revocation
	if len(hashes) > 0 || len(students) > 0 {
		tokens, removed, err := s.play.EndedAuthorities(ctx, hashes, students)
		if err != nil {
			return nil, err
		}
		for _, hash := range tokens {
			ended = append(ended, live.Revocation{Key: live.TokenAuthority(hash), Reason: live.TokenRevoked})
		}
		for _, student := range removed {
			ended = append(ended, live.Revocation{Key: live.StudentAuthority(student), Reason: live.StudentRemoved})
		}
	}
	if len(teachings) > 0 {
		gone, err := s.play.EndedTeachings(ctx, teachings)
		if err != nil {
			return nil, err
		}
		for _, t := range gone {
			ended = append(ended, live.Revocation{Key: live.TeachingAuthority(t.ClassroomID, t.AccountID), Reason: live.TeacherRemoved})
		}
	}
	return ended, nil
}
