package play

import (
	"bytes"

	"primegames/domain"
)

// Caller is a principal as one game knows them.
type Caller struct {
	Seat    int // -1 when the caller holds no seat
	Creator bool
	// Teacher is the teacher of the game's classroom: they see everything (PR-8).
	Teacher   bool
	StudentID string
	// Observer holds an observer token of the game or of its classroom: a spectator who acts on
	// nothing.
	Observer bool
}

// AnonymousCaller is a caller without a token.
var AnonymousCaller = Caller{Seat: -1}

// ClassroomTeacher is a classroom's teacher as a caller of its games.
var ClassroomTeacher = Caller{Seat: -1, Creator: true, Teacher: true}

// HasSeat reports whether the caller plays in the game.
func (c Caller) HasSeat() bool { return c.Seat >= 0 }

// CallerOf resolves a principal for a game. Nobody is the anonymous caller. A game of a classroom
// exists only for its teacher and its players: anyone else is told it is not found. For other games,
// a token that is not one of the game's is refused.
func CallerOf(g *GameRecord, p Principal) (Caller, error) {
	inClassroom := g.ClassroomID != nil
	switch p.Kind {
	case Anonymous:
		if inClassroom {
			return AnonymousCaller, gameNotFound(g.ID)
		}
		return AnonymousCaller, nil
	case Teacher:
		if !p.Resolved || !inClassroom || *g.ClassroomID != p.ClassroomID {
			return AnonymousCaller, refuseToken(g)
		}
		return ClassroomTeacher, nil
	case Student:
		if !p.Resolved || !inClassroom || *g.ClassroomID != p.ClassroomID {
			return AnonymousCaller, refuseToken(g)
		}
		caller := Caller{Seat: -1, StudentID: p.StudentID}
		for _, s := range g.Seats {
			if s.StudentID != nil && *s.StudentID == p.StudentID {
				caller.Seat = s.Seat
			}
		}
		if !caller.HasSeat() && g.Status != StatusLobby {
			return AnonymousCaller, refuseToken(g)
		}
		return caller, nil
	case Observer:
		watches := p.Resolved && (p.GameID == g.ID || (inClassroom && *g.ClassroomID == p.ClassroomID))
		if !watches {
			return AnonymousCaller, refuseToken(g)
		}
		return Caller{Seat: -1, Observer: true}, nil
	case GameToken:
		caller := Caller{Seat: -1, Creator: bytes.Equal(p.TokenHash, g.CreatorHash)}
		for _, s := range g.Seats {
			if s.TokenHash != nil && bytes.Equal(s.TokenHash, p.TokenHash) {
				caller.Seat = s.Seat
			}
		}
		if !caller.Creator && !caller.HasSeat() {
			return AnonymousCaller, refuseToken(g)
		}
		return caller, nil
	}
	return AnonymousCaller, refuseToken(g)
}

// RequireCaller is CallerOf for requests that need a token.
func RequireCaller(g *GameRecord, p Principal) (Caller, error) {
	if p.Kind == Anonymous {
		if g.ClassroomID != nil {
			return AnonymousCaller, gameNotFound(g.ID)
		}
		return AnonymousCaller, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a token: send it as Authorization: Bearer <token>.")
	}
	return CallerOf(g, p)
}

// refuseToken answers a token that does not open this game: a game of a classroom is not found
// (it exists only for its teacher and players), any other game says the token is wrong.
func refuseToken(g *GameRecord) error {
	if g.ClassroomID != nil {
		return gameNotFound(g.ID)
	}
	return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This token does not belong to game %s.", g.ID)
}

// ViewerFor decides how much of a game the caller may see: everything for the game's teacher and
// once it is over (PR-8), a player's own view for a seat, the public view otherwise.
func ViewerFor(status Status, caller Caller) domain.Viewer {
	switch {
	case status.Over() || caller.Teacher:
		return domain.Full
	case caller.HasSeat():
		return domain.Player(caller.Seat)
	default:
		return domain.Public
	}
}

// MayAct refuses a caller without a seat: only players act.
func MayAct(g *GameRecord, caller Caller) error {
	if !caller.HasSeat() {
		return domain.Errorf(domain.KindForbidden, "forbidden", "Only players act in a game; this token has no seat in game %s.", g.ID)
	}
	if isBotSeat(g, caller.Seat) {
		return domain.Errorf(domain.KindForbidden, "forbidden", "You resigned game %s: the computer plays seat %d now (G-3).", g.ID, caller.Seat)
	}
	return nil
}

// MaySeeLegalActions refuses a caller without a seat: only players have legal actions.
func MaySeeLegalActions(g *GameRecord, caller Caller) error {
	switch {
	case caller.HasSeat():
		return nil
	case caller.Creator || caller.Observer:
		return domain.Errorf(domain.KindForbidden, "forbidden", "Only players have legal actions; this token has no seat in game %s.", g.ID)
	default:
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "Send a seat token as Authorization: Bearer <token> to see your legal actions.")
	}
}

// MayStart lets the game's creator or one of its players start it.
func MayStart(caller Caller) error {
	if !caller.Creator && !caller.HasSeat() {
		return domain.Errorf(domain.KindForbidden, "forbidden", "Only the game's creator or one of its players may start it.")
	}
	return nil
}

// MayAbort lets only the game's creator abort it.
func MayAbort(caller Caller) error {
	if !caller.Creator {
		return domain.Errorf(domain.KindForbidden, "forbidden", "Only the game's creator may abort it; use the creator token returned when the game was created.")
	}
	return nil
}

// MayReview lets the classroom's teacher see a game's refused actions, and anyone who may see the
// game once it is over.
func MayReview(status Status, caller Caller) error {
	if !caller.Teacher && !status.Over() {
		return domain.Errorf(domain.KindForbidden, "forbidden", "A game's refused actions are shown to its teacher, and to its players once the game is over.")
	}
	return nil
}

// MaySeeMoveReview lets the classroom's teacher see a game's move review at any time, and anyone
// who may see the game once it is over: during play it would tell a player the best moves.
func MaySeeMoveReview(status Status, caller Caller) error {
	if !caller.Teacher && !status.Over() {
		return domain.Errorf(domain.KindForbidden, "forbidden", "A game's move review is shown to its teacher, and to everyone who may see the game once it is over.")
	}
	return nil
}

// MayRunClassroom lets only the classroom's teacher manage it.
// MayWatchClassroom lets the classroom's teacher, or an observer token of the classroom, follow its
// games; ClassroomWatcher is then the caller each game sees: the teacher, or a spectator.
func MayWatchClassroom(p Principal, classroomID string) error {
	if p.IsObserver() && p.GameID == "" && p.ClassroomID == classroomID {
		return nil
	}
	return MayRunClassroom(p, classroomID)
}

// ClassroomWatcher is the caller of a classroom's games that a principal MayWatchClassroom is.
func ClassroomWatcher(p Principal) Caller {
	if p.IsObserver() {
		return Caller{Seat: -1, Observer: true}
	}
	return ClassroomTeacher
}

func MayRunClassroom(p Principal, classroomID string) error {
	switch {
	case p.Kind == Anonymous:
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs the classroom's teacher token: send it as Authorization: Bearer <token>.")
	case p.Kind == AccountHolder && p.Resolved:
		return domain.Errorf(domain.KindNotFound, "classroom_not_found", "There is no such classroom.")
	case !p.IsTeacher():
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This is not a teacher token of any classroom.")
	case p.ClassroomID != classroomID:
		return domain.Errorf(domain.KindNotFound, "classroom_not_found", "There is no such classroom.")
	}
	return nil
}
