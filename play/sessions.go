package play

import (
	"context"
	"errors"
	"strings"
	"time"
)

// A browser session is an account's credential kept in an HttpOnly cookie: a sign-in with
// return_to makes one (SignInBrowser), and the session token (pgb_…) in the cookie then works as
// an account token does (resolveAccount), until logout, 12 hours without a request, or 7 days
// after the sign-in. Only its hash is kept (migration 00041).

const (
	// SessionIdle is how long a session works after its last request.
	SessionIdle = 12 * time.Hour
	// SessionLifetime is how long a session works at most after its sign-in.
	SessionLifetime = 7 * 24 * time.Hour
	// MaxSessions bounds the sessions an account holds: a new one ends the oldest beyond it.
	MaxSessions = 20
	// sessionSeenEvery is how stale a session's last request may be kept before a request records
	// it again (one write a minute at most per session, not one per request).
	sessionSeenEvery = time.Minute
)

// SessionStore keeps accounts' browser sessions.
type SessionStore interface {
	// InsertSession stores a session of the account, deleting its expired ones and its oldest
	// beyond MaxSessions.
	InsertSession(ctx context.Context, accountID string, hash []byte, now, expiresAt time.Time) error
	// AccountOfSession is the account whose session has hash, unexpired at now and seen after
	// idleSince; it records now as the session's last request when that was before seenBefore.
	// ErrNotFound when there is none.
	AccountOfSession(ctx context.Context, hash []byte, now, idleSince, seenBefore time.Time) (string, error)
	// DeleteSession deletes the session with hash (none: no error).
	DeleteSession(ctx context.Context, hash []byte) error
}

// IsSessionToken reports whether token has the form of a browser session's token.
func IsSessionToken(token string) bool { return strings.HasPrefix(token, tokenPrefixes[TokenSession]) }

// accountOf finds the account of an account token or session p.
func (a *authorities) accountOf(ctx context.Context, p Principal) (string, error) {
	now := a.clock.Now()
	if p.session {
		return a.sessions.AccountOfSession(ctx, p.TokenHash, now, now.Add(-SessionIdle), now.Add(-sessionSeenEvery))
	}
	return a.accounts.AccountOfToken(ctx, p.TokenHash, now)
}

// BrowserSignIn is an account with a new browser session's token, for its cookie.
type BrowserSignIn struct {
	Account   Account
	Token     string
	ExpiresAt time.Time
}

// SignInBrowser finds or makes the account the provider vouched for (issuer, subject) and begins a
// browser session of it.
func (s *Service) SignInBrowser(ctx context.Context, issuer, subject, name string) (*BrowserSignIn, error) {
	acc, err := s.upsertAccount(ctx, issuer, subject, name)
	if err != nil {
		return nil, err
	}
	token, hash := NewToken(TokenSession)
	now := s.now()
	expires := now.Add(SessionLifetime)
	if err := s.store.SessionStore.InsertSession(ctx, acc.ID, hash, now, expires); err != nil {
		return nil, err
	}
	return &BrowserSignIn{Account: *acc, Token: token, ExpiresAt: expires}, nil
}

// SignOut ends the browser session whose token is token; the streams it holds end. A token that
// is no session's ends nothing.
func (s *Service) SignOut(ctx context.Context, token string) error {
	if !IsSessionToken(token) {
		return nil
	}
	err := s.store.SessionStore.DeleteSession(ctx, hashToken(token))
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}
