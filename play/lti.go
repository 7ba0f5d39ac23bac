package play

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"primegames/domain"
)

// LTI 1.3 (1EdTech Security Framework 1.0, LTI Core 1.3): the operator registers the LMSs
// (platforms) with the admin token; a platform starts a launch at the login initiation, which keeps
// a state and a nonce (hashed, ten minutes) and sends the browser to the platform's OIDC
// authorization URL; the platform form-posts a signed ID token back to the launch, which the HTTP
// layer verifies against the platform's keys and hands here (LTILaunch) with the state. An
// Instructor's launch signs into the account of (platform, subject) and the classroom of the course
// (context), made on the first launch; a Learner's finds or makes the classroom's student. The
// launch answers a one-time code (hashed, two minutes), which the page in the LMS's frame trades
// for a token (TakeLTIHandover): no cookie is needed, third-party cookies being blocked in frames.

// LTI bounds and lifetimes.
const (
	MaxLTIPlatforms     = 100              // registrations at once
	MaxLTIDeployments   = 50               // deployment ids of one registration
	LTILoginLifetime    = 10 * time.Minute // a login initiation's state and nonce
	LTIHandoverLifetime = 2 * time.Minute  // a launch's one-time code
	LTITokenLifetime    = 8 * time.Hour    // the account token an instructor's launch hands over
	LTILeeway           = time.Minute      // the clock skew allowed on an ID token's exp and iat
	LTIKeyOverlap       = 7 * 24 * time.Hour
	ltiMaxURL           = 2000
	ltiMaxField         = 255
)

// The LTI claims (LTI Core 1.3 §5.3, §5.4).
const (
	ltiClaimMessageType  = "https://purl.imsglobal.org/spec/lti/claim/message_type"
	ltiClaimVersion      = "https://purl.imsglobal.org/spec/lti/claim/version"
	ltiClaimDeploymentID = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
	ltiClaimRoles        = "https://purl.imsglobal.org/spec/lti/claim/roles"
	ltiClaimContext      = "https://purl.imsglobal.org/spec/lti/claim/context"
	ltiRoleMembership    = "http://purl.imsglobal.org/vocab/lis/v2/membership"
)

// LTIConfig configures LTI: without a SealingKey (SECRET_KEY) every LTI endpoint answers 503
// lti_disabled, the tool's private keys having nowhere safe to be kept.
type LTIConfig struct {
	SealingKey []byte
	// KeyOverlap is how long a retired tool key stays published after a rotation (LTIKeyOverlap).
	KeyOverlap time.Duration
}

// WithLTI turns LTI on with cfg.
func WithLTI(cfg LTIConfig) Option {
	return func(s *Service) {
		if cfg.KeyOverlap <= 0 {
			cfg.KeyOverlap = LTIKeyOverlap
		}
		s.lti = cfg
	}
}

// LTIPlatform is a registered LMS.
type LTIPlatform struct {
	ID            string
	Issuer        string
	ClientID      string
	DeploymentIDs []string
	JWKSURL       string
	AuthURL       string
	TokenURL      string
	CreatedAt     time.Time
}

// LTILogin is a login initiation under way, kept under the hash of its state.
type LTILogin struct {
	PlatformID string
	NonceHash  []byte
}

// LTIHandover is what a launch's one-time code opens: an instructor's account and classroom, or a
// learner's student.
type LTIHandover struct {
	AccountID   string // an instructor's; "" for a learner
	ClassroomID string
	StudentID   string // a learner's; "" for an instructor
}

// LTIRoster is the course a classroom was made for: its platform, the hash of its context id and
// the URL of its members (Names and Role Provisioning Services), "" when the platform gave none.
type LTIRoster struct {
	PlatformID     string
	ContextHash    []byte
	MembershipsURL string
}

// LTIPlatformStore keeps the registrations, the logins under way and the tool's keys.
type LTIPlatformStore interface {
	// InsertLTIPlatform stores a registration; ErrTaken when (issuer, client id) is registered,
	// ErrFull when max are.
	InsertLTIPlatform(ctx context.Context, p LTIPlatform, max int) (*LTIPlatform, error)
	// LTIPlatforms lists the registrations, oldest first.
	LTIPlatforms(ctx context.Context) ([]LTIPlatform, error)
	// LTIPlatform reads a registration; ErrNotFound when there is none.
	LTIPlatform(ctx context.Context, id string) (*LTIPlatform, error)
	// UpdateLTIPlatform replaces a registration's fields (not its id); ErrNotFound, ErrTaken.
	UpdateLTIPlatform(ctx context.Context, p LTIPlatform) (*LTIPlatform, error)
	// DeleteLTIPlatform deletes a registration and what hangs on it; ErrNotFound when none.
	DeleteLTIPlatform(ctx context.Context, id string) error
	// LTIPlatformsOfIssuer lists the registrations of an issuer.
	LTIPlatformsOfIssuer(ctx context.Context, issuer string) ([]LTIPlatform, error)
	// SaveLTILogin keeps a login under the hash of its state until expiresAt, deleting a bounded
	// number of expired ones.
	SaveLTILogin(ctx context.Context, stateHash []byte, l LTILogin, now, expiresAt time.Time) error
	// TakeLTILogin deletes and returns the login kept under stateHash, unexpired at now;
	// ErrNotFound when there is none.
	TakeLTILogin(ctx context.Context, stateHash []byte, now time.Time) (*LTILogin, error)
	// LTIToolKeys lists the tool's published keys at now: the current one first, then the retired
	// ones still published.
	LTIToolKeys(ctx context.Context, now time.Time) ([]LTIToolKey, error)
	// InsertLTIToolKey stores k as the current key. With rotate, the current key retires, published
	// until publishUntil; without, k is stored only if there is no current key (false if there is).
	InsertLTIToolKey(ctx context.Context, k LTIToolKey, rotate bool, publishUntil time.Time) (bool, error)
}

// LTILaunchStore keeps what launches made: the courses' classrooms, the learners' students and the
// one-time codes.
type LTILaunchStore interface {
	// LTIClassroom is the classroom of a platform's course (by the hash of its context id);
	// ErrNotFound when none was made.
	LTIClassroom(ctx context.Context, platformID string, contextHash []byte) (string, error)
	// EnsureLTIClassroom is the classroom of the course, made owned by accountID when there is
	// none (with name, join code and teacher token hash); ErrTaken when the join code is. A
	// membershipsURL that is not empty becomes the course's roster URL.
	EnsureLTIClassroom(ctx context.Context, platformID string, contextHash []byte, accountID, name, joinCode string, teacherHash []byte, membershipsURL string) (string, error)
	// LTIRosterOf is the course a classroom was made for and its roster URL; ErrNotFound when the
	// classroom is no course's.
	LTIRosterOf(ctx context.Context, classroomID string) (*LTIRoster, error)
	// EnsureLTIStudent is the student of the learner (by learnerHash) in the classroom, made with
	// name and tokenHash when there is none; removed reports a student the teacher removed.
	// ErrTaken when a current student's name has the key nameKey.
	EnsureLTIStudent(ctx context.Context, classroomID string, learnerHash []byte, name, nameKey string, tokenHash []byte) (st *StudentRecord, removed bool, err error)
	// SetLTIStudentToken replaces a current student's token hash; ErrNotFound when removed.
	SetLTIStudentToken(ctx context.Context, studentID string, hash []byte) (*StudentRecord, error)
	// SaveLTIHandover keeps a one-time code's hash until expiresAt, deleting a bounded number of
	// expired ones.
	SaveLTIHandover(ctx context.Context, codeHash []byte, h LTIHandover, now, expiresAt time.Time) error
	// TakeLTIHandover deletes and returns what the code opens, unexpired at now; ErrNotFound when
	// none.
	TakeLTIHandover(ctx context.Context, codeHash []byte, now time.Time) (*LTIHandover, error)
}

// LTIEnabled reports whether LTI is on (SECRET_KEY set).
func (s *Service) LTIEnabled() bool { return len(s.lti.SealingKey) > 0 }

func (s *Service) ltiOn() error {
	if !s.LTIEnabled() {
		return domain.Errorf(domain.KindUnavailable, "lti_disabled", "LTI is off on this service: the operator sets SECRET_KEY to turn it on.")
	}
	return nil
}

func mustBeAdmin(p Principal) error {
	if p.Kind == Admin {
		return nil
	}
	if p.Kind == Anonymous {
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs the operator's admin token: Authorization: Bearer <admin token>.")
	}
	return domain.Errorf(domain.KindForbidden, "admin_token_required", "This request needs the operator's admin token; this is another kind of token.")
}

func ltiPlatformNotFound() error {
	return domain.Errorf(domain.KindNotFound, "lti_platform_not_found", "There is no such LTI platform registration.")
}

// checkLTIPlatform trims and checks a registration's fields.
func checkLTIPlatform(p *LTIPlatform, checkURL func(string) error) error {
	p.Issuer, p.ClientID = strings.TrimSpace(p.Issuer), strings.TrimSpace(p.ClientID)
	if p.Issuer == "" || len(p.Issuer) > ltiMaxField || p.ClientID == "" || len(p.ClientID) > ltiMaxField {
		return domain.Invalid("invalid_lti_platform", "issuer and client_id must each have 1 to %d characters.", ltiMaxField)
	}
	ids := make([]string, 0, len(p.DeploymentIDs))
	for _, d := range p.DeploymentIDs {
		d = strings.TrimSpace(d)
		if d == "" || len(d) > ltiMaxField {
			return domain.Invalid("invalid_lti_platform", "A deployment id must have 1 to %d characters.", ltiMaxField)
		}
		if !slices.Contains(ids, d) {
			ids = append(ids, d)
		}
	}
	if len(ids) == 0 || len(ids) > MaxLTIDeployments {
		return domain.Invalid("invalid_lti_platform", "deployment_ids must list 1 to %d deployment ids.", MaxLTIDeployments)
	}
	p.DeploymentIDs = ids
	for name, raw := range map[string]string{"jwks_url": p.JWKSURL, "auth_url": p.AuthURL, "token_url": p.TokenURL} {
		u, err := url.Parse(raw)
		if err != nil || len(raw) > ltiMaxURL || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.Fragment != "" {
			return domain.Invalid("invalid_lti_platform", "%s must be an http(s) URL without user or fragment, of at most %d characters.", name, ltiMaxURL)
		}
		if name == "jwks_url" && checkURL != nil {
			if err := checkURL(raw); err != nil {
				return domain.Invalid("invalid_lti_platform", "jwks_url is not a host this service may fetch from (%v).", err)
			}
		}
	}
	return nil
}

// RegisterLTIPlatform registers an LMS; checkURL says whether the service may fetch jwks_url.
func (s *Service) RegisterLTIPlatform(ctx context.Context, p Principal, reg LTIPlatform, checkURL func(string) error) (*LTIPlatform, error) {
	if err := mustBeAdmin(p); err != nil {
		return nil, err
	}
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	if err := checkLTIPlatform(&reg, checkURL); err != nil {
		return nil, err
	}
	reg.CreatedAt = s.now()
	out, err := s.store.InsertLTIPlatform(ctx, reg, MaxLTIPlatforms)
	return out, ltiPlatformWriteError(err)
}

func ltiPlatformWriteError(err error) error {
	switch {
	case errors.Is(err, ErrTaken):
		return domain.Errorf(domain.KindConflict, "lti_platform_exists", "This issuer and client_id are registered already; change that registration instead.")
	case errors.Is(err, ErrFull):
		return domain.Errorf(domain.KindConflict, "too_many_lti_platforms", "%d LTI platforms are registered, the most this service keeps; delete one first.", MaxLTIPlatforms)
	case errors.Is(err, ErrNotFound):
		return ltiPlatformNotFound()
	}
	return err
}

// LTIFramingPlatforms lists the registrations for the web app's framing policy (the origins
// allowed to show its LTI pages in a frame): no principal, nothing secret; none when LTI is off.
func (s *Service) LTIFramingPlatforms(ctx context.Context) ([]LTIPlatform, error) {
	if !s.LTIEnabled() {
		return nil, nil
	}
	return s.store.LTIPlatforms(ctx)
}

// LTIPlatforms lists the registrations.
func (s *Service) LTIPlatforms(ctx context.Context, p Principal) ([]LTIPlatform, error) {
	if err := mustBeAdmin(p); err != nil {
		return nil, err
	}
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	return s.store.LTIPlatforms(ctx)
}

// LTIPlatform reads a registration.
func (s *Service) LTIPlatform(ctx context.Context, p Principal, id string) (*LTIPlatform, error) {
	if err := mustBeAdmin(p); err != nil {
		return nil, err
	}
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	if !validUUID(id) {
		return nil, ltiPlatformNotFound()
	}
	out, err := s.store.LTIPlatform(ctx, id)
	return out, ltiPlatformWriteError(err)
}

// UpdateLTIPlatform changes a registration: change is given the registration as it is and changes it.
func (s *Service) UpdateLTIPlatform(ctx context.Context, p Principal, id string, change func(*LTIPlatform), checkURL func(string) error) (*LTIPlatform, error) {
	reg, err := s.LTIPlatform(ctx, p, id)
	if err != nil {
		return nil, err
	}
	change(reg)
	if err := checkLTIPlatform(reg, checkURL); err != nil {
		return nil, err
	}
	out, err := s.store.UpdateLTIPlatform(ctx, *reg)
	return out, ltiPlatformWriteError(err)
}

// DeleteLTIPlatform deletes a registration: its courses' classrooms stay, but no launch from it
// works any more.
func (s *Service) DeleteLTIPlatform(ctx context.Context, p Principal, id string) error {
	if err := mustBeAdmin(p); err != nil {
		return err
	}
	if err := s.ltiOn(); err != nil {
		return err
	}
	if !validUUID(id) {
		return ltiPlatformNotFound()
	}
	return ltiPlatformWriteError(s.store.DeleteLTIPlatform(ctx, id))
}

// LTILoginRequest is a platform's login initiation (Security Framework §5.1.1.1).
type LTILoginRequest struct {
	Issuer, LoginHint, TargetLinkURI, MessageHint, ClientID, DeploymentID string
}

// LTILoginStarted is where the login initiation sends the browser, and with what.
type LTILoginStarted struct {
	Platform     LTIPlatform
	State, Nonce string
}

// BeginLTILogin finds the registration of a login initiation and keeps a new state and nonce for
// its launch.
func (s *Service) BeginLTILogin(ctx context.Context, req LTILoginRequest) (*LTILoginStarted, error) {
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	if req.Issuer == "" || req.LoginHint == "" || req.TargetLinkURI == "" {
		return nil, domain.Invalid("lti_login_invalid", "A login initiation must carry iss, login_hint and target_link_uri.")
	}
	if len(req.Issuer) > ltiMaxURL || len(req.ClientID) > ltiMaxURL {
		return nil, ltiPlatformUnknown()
	}
	regs, err := s.store.LTIPlatformsOfIssuer(ctx, req.Issuer)
	if err != nil {
		return nil, err
	}
	var found []LTIPlatform
	for _, r := range regs {
		if (req.ClientID == "" || r.ClientID == req.ClientID) && (req.DeploymentID == "" || slices.Contains(r.DeploymentIDs, req.DeploymentID)) {
			found = append(found, r)
		}
	}
	if len(found) != 1 {
		if len(found) > 1 {
			return nil, domain.Invalid("lti_platform_ambiguous", "This issuer has several registrations; the platform must send client_id with its login initiation.")
		}
		return nil, ltiPlatformUnknown()
	}
	state, nonce := randomCode(), randomCode()
	now := s.now()
	login := LTILogin{PlatformID: found[0].ID, NonceHash: hashToken(nonce)}
	if err := s.store.SaveLTILogin(ctx, hashToken(state), login, now, now.Add(LTILoginLifetime)); err != nil {
		return nil, err
	}
	return &LTILoginStarted{Platform: found[0], State: state, Nonce: nonce}, nil
}

func ltiPlatformUnknown() error {
	return domain.Invalid("lti_platform_unknown", "No LTI platform is registered with this issuer, client_id and deployment; the operator registers it at POST /v1/lti/platforms.")
}

// TakeLTILogin takes the login a launch's state names, once, and reads its registration.
func (s *Service) TakeLTILogin(ctx context.Context, state string) (*LTIPlatform, *LTILogin, error) {
	if err := s.ltiOn(); err != nil {
		return nil, nil, err
	}
	if state == "" || len(state) > 200 {
		return nil, nil, ltiStateRefused()
	}
	login, err := s.store.TakeLTILogin(ctx, hashToken(state), s.now())
	if errors.Is(err, ErrNotFound) {
		return nil, nil, ltiStateRefused()
	}
	if err != nil {
		return nil, nil, err
	}
	reg, err := s.store.LTIPlatform(ctx, login.PlatformID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, ltiStateRefused()
	}
	return reg, login, err
}

func ltiStateRefused() error {
	return domain.Invalid("lti_state_invalid", "This launch's state is unknown, was used already or has expired (after 10 minutes): open the tool from the LMS again.")
}

// ltiTokenRefused refuses an ID token, saying which check it failed (never repeating it).
func ltiTokenRefused(why string) error {
	return domain.Invalid("lti_id_token_invalid", "The platform's ID token did not verify: %s.", why)
}

// LTIRefusedToken is the refusal of an ID token whose signature or form the HTTP layer checked.
func LTIRefusedToken(why string) error { return ltiTokenRefused(why) }

// LTILaunched is a launch verified: the one-time code the page in the LMS's frame trades for a
// token, and whom it launched.
type LTILaunched struct {
	Code    string
	Teacher bool
}

func truncateRunes(s string, n int) string {
	for utf8.RuneCountInString(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
