package play

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"primegames/domain"
	"primegames/domain/names"
)

// A teacher's account is a person an OpenID provider vouched for, known by the provider's issuer
// and its subject for them. It owns classrooms and holds account tokens (pga_…), named and
// expiring, each hashed at rest. An account token presented for a classroom its account owns is
// that classroom's teacher: every teacher endpoint under /v1/classrooms/{classroom_id} takes it.

// AccountTokenLifetime is how long an account token works unless asked otherwise.
const AccountTokenLifetime = 90 * 24 * time.Hour

// MaxAccountTokenLifetime is the longest lifetime an account token may be given.
const MaxAccountTokenLifetime = 365 * 24 * time.Hour

// MaxAccountTokens bounds the tokens one account holds at once (expired ones not counted).
const MaxAccountTokens = 50

// MaxOwnedClassrooms bounds the classrooms one account owns (made or attached; co-taught ones and
// those an LTI course made are not counted: an operator's platform bounds those).
const MaxOwnedClassrooms = 200

// SignInLifetime is how long a sign-in begun at the provider may take to come back.
const SignInLifetime = 10 * time.Minute

// Account is a signed-in teacher: the provider's issuer and subject, and the display name the
// provider gave (no email is kept).
type Account struct {
	ID        string
	Issuer    string
	Subject   string
	Name      string
	CreatedAt time.Time
}

// AccountToken is one of an account's tokens, without the token itself.
type AccountToken struct {
	ID        string
	Name      string
	CreatedAt time.Time
	ExpiresAt time.Time
}

// PendingSignIn is what a sign-in under way must come back with: kept under the hash of its state
// until the callback takes it, once.
type PendingSignIn struct {
	Nonce    string
	Verifier string // the PKCE code verifier
	ReturnTo string
	Provider string // the name of the provider it went to ("default": OIDC_ISSUER's)
}

// AccountStore keeps accounts, their tokens and classrooms, and the sign-ins under way.
type AccountStore interface {
	// UpsertAccount finds the account of (issuer, subject), making it when there is none, and sets
	// its name.
	UpsertAccount(ctx context.Context, issuer, subject, name string, now time.Time) (*Account, error)
	// Account reads an account; ErrNotFound when there is none.
	Account(ctx context.Context, id string) (*Account, error)
	// InsertAccountToken stores a token of the account; ErrTaken when the account already holds
	// MaxAccountTokens unexpired at now.
	InsertAccountToken(ctx context.Context, accountID, name string, hash []byte, now, expiresAt time.Time) (*AccountToken, error)
	// AccountOfToken is the account whose token, unexpired at now, has hash; ErrNotFound if none.
	AccountOfToken(ctx context.Context, hash []byte, now time.Time) (string, error)
	// AccountTokens lists the account's tokens unexpired at now, oldest first.
	AccountTokens(ctx context.Context, accountID string, now time.Time) ([]AccountToken, error)
	// DeleteAccountToken deletes one of the account's tokens; ErrNotFound when it holds no such token.
	DeleteAccountToken(ctx context.Context, accountID, tokenID string) error
	// AccountClassrooms lists the classrooms the account owns or co-teaches, oldest first.
	AccountClassrooms(ctx context.Context, accountID string) ([]Classroom, error)
	// InsertOwnedClassroom stores a new classroom the account owns; ErrTaken when the join code is
	// taken, ErrFull when the account owns MaxOwnedClassrooms already.
	InsertOwnedClassroom(ctx context.Context, accountID, name, joinCode string, teacherHash []byte) (*Classroom, error)
	// SetClassroomOwner makes the account own the classroom if no other account does; ErrTaken
	// when another does, ErrFull when the account owns MaxOwnedClassrooms already.
	SetClassroomOwner(ctx context.Context, classroomID, accountID string) error
	// SavePendingSignIn keeps a sign-in under the hash of its state until expiresAt, deleting a
	// bounded number of expired ones.
	SavePendingSignIn(ctx context.Context, stateHash []byte, p PendingSignIn, now, expiresAt time.Time) error
	// TakePendingSignIn deletes and returns the sign-in kept under stateHash, unexpired at now;
	// ErrNotFound when there is none (never made, taken already, expired).
	TakePendingSignIn(ctx context.Context, stateHash []byte, now time.Time) (*PendingSignIn, error)
}

// resolveAccount finds whose account token p is; presented for a classroom (p.ClassroomID set
// before) or for a game (p.GameID set before), it becomes that classroom's teacher when the account
// teaches it (teaching.go).
func (a *authorities) resolveAccount(ctx context.Context, p Principal) (Principal, error) {
	classroomID, gameID := p.ClassroomID, p.GameID
	p.ClassroomID, p.GameID = "", ""
	accountID, err := a.accountOf(ctx, p)
	if errors.Is(err, ErrNotFound) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	p.Resolved, p.AccountID = true, accountID
	return a.taughtClassroom(ctx, p, classroomID, gameID)
}

// Unresolved is p as it was before Resolve, to resolve again (a stream asking whether its holder
// still holds): an account token that resolved to a classroom's teacher asks for that classroom.
func (p Principal) Unresolved() Principal {
	if p.AccountID != "" {
		return Principal{Kind: AccountHolder, TokenHash: p.TokenHash, ClassroomID: p.ClassroomID, credential: p.credential, session: p.session}
	}
	return Principal{Kind: p.Kind, TokenHash: p.TokenHash, credential: p.credential}
}

// IsAccount reports whether the principal is a current account token.
func (p Principal) IsAccount() bool { return p.AccountID != "" && p.Resolved }

func mustBeAccount(p Principal) error {
	if p.IsAccount() {
		return nil
	}
	if p.Kind == Anonymous {
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs an account token (pga_…): send it as Authorization: Bearer <token>.")
	}
	if p.Kind == AccountHolder {
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This account token does not work: it was revoked or has expired. Sign in again.")
	}
	return domain.Errorf(domain.KindForbidden, "account_token_required", "This request needs an account token (pga_…), from signing in; this is another kind of token.")
}

// SignedIn is an account with a new account token, shown once.
type SignedIn struct {
	Account Account
	Token   string
	Info    AccountToken
}

// SignIn finds or makes the account the provider vouched for (issuer, subject) and gives it a new
// account token named tokenName.
func (s *Service) SignIn(ctx context.Context, issuer, subject, name string) (*SignedIn, error) {
	acc, err := s.upsertAccount(ctx, issuer, subject, name)
	if err != nil {
		return nil, err
	}
	token, info, err := s.newAccountToken(ctx, acc.ID, "sign-in", AccountTokenLifetime)
	if err != nil {
		return nil, err
	}
	return &SignedIn{Account: *acc, Token: token, Info: *info}, nil
}

// upsertAccount finds or makes the account the provider vouched for (issuer, subject), named name.
func (s *Service) upsertAccount(ctx context.Context, issuer, subject, name string) (*Account, error) {
	if issuer == "" || subject == "" {
		return nil, domain.Invalid("id_token_invalid", "The provider's ID token names no issuer or subject.")
	}
	return s.store.UpsertAccount(ctx, issuer, subject, displayName(name), s.now())
}

// displayName is the provider's name for the person, cut to a length the service shows.
func displayName(name string) string {
	name = strings.Join(strings.Fields(name), " ")
	for utf8.RuneCountInString(name) > 80 {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	if name == "" {
		return "Teacher"
	}
	return name
}

func (s *Service) newAccountToken(ctx context.Context, accountID, name string, lifetime time.Duration) (string, *AccountToken, error) {
	token, hash := NewToken(TokenAccount)
	now := s.now()
	info, err := s.store.InsertAccountToken(ctx, accountID, name, hash, now, now.Add(lifetime))
	if errors.Is(err, ErrTaken) {
		return "", nil, domain.Errorf(domain.KindConflict, "too_many_account_tokens", "This account holds %d tokens already, the most it may; revoke one with DELETE /v1/me/tokens/{token_id}.", MaxAccountTokens)
	}
	if err != nil {
		return "", nil, err
	}
	return token, info, nil
}

// MyAccount reads the account of an account token.
func (s *Service) MyAccount(ctx context.Context, p Principal) (*Account, error) {
	if err := mustBeAccount(p); err != nil {
		return nil, err
	}
	acc, err := s.store.Account(ctx, p.AccountID)
	if errors.Is(err, ErrNotFound) {
		return nil, mustBeAccount(Principal{Kind: AccountHolder})
	}
	return acc, err
}

// MyClassrooms lists the classrooms of the account of an account token.
func (s *Service) MyClassrooms(ctx context.Context, p Principal) ([]Classroom, error) {
	if err := mustBeAccount(p); err != nil {
		return nil, err
	}
	return s.store.AccountClassrooms(ctx, p.AccountID)
}

// MyTokens lists the unexpired tokens of the account of an account token.
func (s *Service) MyTokens(ctx context.Context, p Principal) ([]AccountToken, error) {
	if err := mustBeAccount(p); err != nil {
		return nil, err
	}
	return s.store.AccountTokens(ctx, p.AccountID, s.now())
}

// CreateAccountToken gives the account of p another token, named name, working for lifetime (0:
// AccountTokenLifetime).
func (s *Service) CreateAccountToken(ctx context.Context, p Principal, name string, lifetime time.Duration) (string, *AccountToken, error) {
	if err := mustBeAccount(p); err != nil {
		return "", nil, err
	}
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > 64 {
		return "", nil, domain.Invalid("invalid_token_name", "A token's name must have 1 to 64 characters.")
	}
	if lifetime == 0 {
		lifetime = AccountTokenLifetime
	}
	if lifetime < time.Hour || lifetime > MaxAccountTokenLifetime {
		return "", nil, domain.Invalid("invalid_token_lifetime", "A token's lifetime must be from 1 hour to 365 days.")
	}
	return s.newAccountToken(ctx, p.AccountID, name, lifetime)
}

// RevokeAccountToken deletes one of the account's tokens; the streams that hold it end.
func (s *Service) RevokeAccountToken(ctx context.Context, p Principal, tokenID string) error {
	if err := mustBeAccount(p); err != nil {
		return err
	}
	if !validUUID(tokenID) {
		return accountTokenNotFound()
	}
	err := s.store.DeleteAccountToken(ctx, p.AccountID, tokenID)
	if errors.Is(err, ErrNotFound) {
		return accountTokenNotFound()
	}
	return err
}

func accountTokenNotFound() error {
	return domain.Errorf(domain.KindNotFound, "account_token_not_found", "This account holds no such token.")
}

// CreateOwnedClassroom makes a classroom the account of p owns, with its own teacher token too.
func (s *Service) CreateOwnedClassroom(ctx context.Context, p Principal, name string) (*Classroom, string, error) {
	if err := mustBeAccount(p); err != nil {
		return nil, "", err
	}
	name, err := names.Classroom.Enforce(name)
	if err != nil {
		return nil, "", err
	}
	token, hash := NewToken(TokenTeacher)
	var c *Classroom
	err = withNewJoinCode(func(code string) (err error) {
		c, err = s.store.InsertOwnedClassroom(ctx, p.AccountID, name, code, hash)
		return err
	})
	if errors.Is(err, ErrFull) {
		return nil, "", tooManyClassrooms()
	}
	return c, token, err
}

func tooManyClassrooms() error {
	return domain.Errorf(domain.KindConflict, "too_many_classrooms", "This account owns %d classrooms already, the most it may.", MaxOwnedClassrooms)
}

// AttachClassroom makes the account of p own the classroom whose teacher token is teacherToken.
func (s *Service) AttachClassroom(ctx context.Context, p Principal, classroomID, teacherToken string) (*Classroom, error) {
	if err := mustBeAccount(p); err != nil {
		return nil, err
	}
	teacher, err := s.Resolve(ctx, IdentifyToken(teacherToken, ""))
	if err != nil {
		return nil, err
	}
	if !teacher.IsTeacher() || teacher.ClassroomID != classroomID {
		return nil, domain.Errorf(domain.KindForbidden, "teacher_token_mismatch", "teacher_token is not the current teacher token of this classroom.")
	}
	err = s.store.SetClassroomOwner(ctx, classroomID, p.AccountID)
	if errors.Is(err, ErrTaken) {
		return nil, domain.Errorf(domain.KindConflict, "classroom_owned", "Another account owns this classroom already.")
	}
	if errors.Is(err, ErrFull) {
		return nil, tooManyClassrooms()
	}
	if err != nil {
		return nil, err
	}
	return s.store.Classroom(ctx, classroomID)
}

// BeginSignIn keeps a sign-in under way under the hash of its state, for SignInLifetime.
func (s *Service) BeginSignIn(ctx context.Context, state string, p PendingSignIn) error {
	now := s.now()
	return s.store.SavePendingSignIn(ctx, hashToken(state), p, now, now.Add(SignInLifetime))
}

// TakeSignIn takes the sign-in under way whose state the provider sent back, once; a state never
// given, taken already or expired is refused.
func (s *Service) TakeSignIn(ctx context.Context, state string) (*PendingSignIn, error) {
	if state == "" {
		return nil, signInStateRefused()
	}
	p, err := s.store.TakePendingSignIn(ctx, hashToken(state), s.now())
	if errors.Is(err, ErrNotFound) {
		return nil, signInStateRefused()
	}
	return p, err
}

func signInStateRefused() error {
	return domain.Invalid("sign_in_state_invalid", "This sign-in is not under way: its state is unknown, was used already or has expired (after 10 minutes). Start again at GET /v1/auth/oidc/login.")
}

// validUUID reports whether id can name a row (a path's id the contract did not check).
func validUUID(id string) bool {
	_, err := uuid.Parse(id)
	return err == nil
}
