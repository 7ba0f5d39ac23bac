package play

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// TokenKind is what a token the service issues opens. The prefix tells a person reading a log or a
// script which kind they hold.
type TokenKind int

const (
	TokenSeat            TokenKind = iota // acts for one seat of one game
	TokenCreator                          // starts and aborts the game it created
	TokenTeacher                          // runs one classroom
	TokenStudent                          // plays as one student of a classroom
	TokenObserver                         // watches one game or one classroom's games, read-only
	TokenAccount                          // a signed-in teacher's account: its classrooms (accounts.go)
	TokenSession                          // a browser session of an account, kept in a cookie (sessions.go)
	TokenCoTeacherInvite                  // a one-time invite to co-teach a classroom (coteachers.go)
)

var tokenPrefixes = map[TokenKind]string{
	TokenSeat:            "pgs_",
	TokenCreator:         "pgc_",
	TokenTeacher:         "pgt_",
	TokenStudent:         "pgl_",
	TokenObserver:        "pgo_",
	TokenAccount:         "pga_",
	TokenSession:         "pgb_",
	TokenCoTeacherInvite: "pgi_",
}

// NewToken returns a token of kind with 256 random bits and the hash that is all the database keeps
// of it.
func NewToken(kind TokenKind) (token string, hash []byte) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	token = tokenPrefixes[kind] + base64.RawURLEncoding.EncodeToString(b[:])
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// classroomTokenKind reports whether token looks like a teacher or a student token. Any other token
// can only be one of a game's own, which the game it is presented to tells apart.
func classroomTokenKind(token string) (TokenKind, bool) {
	switch {
	case strings.HasPrefix(token, tokenPrefixes[TokenTeacher]):
		return TokenTeacher, true
	case strings.HasPrefix(token, tokenPrefixes[TokenStudent]):
		return TokenStudent, true
	}
	return 0, false
}

// NewSeed returns a game's secret seed (G-1).
func NewSeed() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	var v int64
	for _, x := range b {
		v = v<<8 | int64(x)
	}
	return v
}
