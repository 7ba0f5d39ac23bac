package play

import (
	"crypto/sha256"
	"crypto/subtle"
	"strings"
	"time"
)

// PrincipalKind is who a request speaks for.
type PrincipalKind int

const (
	Anonymous     PrincipalKind = iota // no token
	GameToken                          // a seat or creator token: the game it is presented to says which
	Teacher                            // a teacher token
	Student                            // a student token
	Admin                              // the operator's admin token
	Observer                           // a read-only token of one game or one classroom
	AccountHolder                      // a signed-in teacher's account token (accounts.go)
)

// Principal is the caller of a request, worked out once from its bearer token. Below the HTTP layer
// only the token's hash and what it resolved to travel, never the token itself.
type Principal struct {
	Kind PrincipalKind
	// TokenHash is the hash of the token presented, for any kind but Anonymous and Admin.
	TokenHash []byte
	// Resolved is set for a teacher or student token that belongs to a current classroom member;
	// ClassroomID and StudentID (a student's only) then name them.
	Resolved    bool
	ClassroomID string
	StudentID   string
	// An observer token, once resolved, names its row (ObserverID) and what it watches: GameID,
	// or ClassroomID for a classroom's observer; ExpiresAt when it expires.
	ObserverID string
	GameID     string
	ExpiresAt  *time.Time
	// AccountID is set for an account token once resolved; an account token presented for a
	// classroom its account owns resolves to that classroom's Teacher (accounts.go).
	AccountID string
	// credential joins an Idempotency-Key as the secret of a stored result; it is derived from the
	// token but is not the hash the database keeps.
	credential []byte
	// session is set for a browser session's token (sessions.go), an account's all the same.
	session bool
}

// Nobody is the anonymous principal.
var Nobody = Principal{Kind: Anonymous}

// IdentifyToken classifies a bearer token ("" for none). adminToken, when set, is the operator's.
// Teacher and student principals still need Resolve to know whose they are.
func IdentifyToken(token, adminToken string) Principal {
	if token == "" {
		return Nobody
	}
	if adminToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(adminToken)) == 1 {
		return Principal{Kind: Admin}
	}
	p := Principal{Kind: GameToken, TokenHash: hashToken(token), credential: idempotencyCredential(token)}
	if strings.HasPrefix(token, tokenPrefixes[TokenAccount]) || IsSessionToken(token) {
		p.Kind, p.session = AccountHolder, IsSessionToken(token)
		return p
	}
	if strings.HasPrefix(token, tokenPrefixes[TokenObserver]) {
		p.Kind = Observer
		return p
	}
	if kind, ok := classroomTokenKind(token); ok {
		p.Kind = Teacher
		if kind == TokenStudent {
			p.Kind = Student
		}
	}
	return p
}

// idempotencyCredential is what of a token joins an Idempotency-Key's secret: a hash under its own
// label, so that the token hash kept in the database does not open stored results.
func idempotencyCredential(token string) []byte {
	sum := sha256.Sum256([]byte("primegames idempotency credential\n" + token))
	return sum[:]
}

// Member reports whether the principal is a current member of a classroom (its teacher or one of
// its students).
func (p Principal) Member() bool { return (p.Kind == Teacher || p.Kind == Student) && p.Resolved }

// IsObserver reports whether the principal is a current observer token.
func (p Principal) IsObserver() bool { return p.Kind == Observer && p.Resolved }

// IsTeacher reports whether the principal is the resolved teacher of a classroom.
func (p Principal) IsTeacher() bool { return p.Kind == Teacher && p.Resolved }
