package play

import (
	"context"
	"errors"
	"sync"
	"time"

	"primegames/domain"
)

// Service is the game master: every request about games passes through it.
type Service struct {
	store Stores
	// parts are the parts of the service that ask for fewer ports than the whole (parts.go).
	parts
	kinds *domain.Catalogue
	// botsDue wakes this instance's bot worker when a write of its own makes a bot due.
	botsDue chan struct{}
	// ttls say when the worker aborts a game nobody plays.
	ttls AbandonTTLs
	// states are the games' snapshots last read or written, decoded.
	states *decodedStates
	// tallies are the active games' kept tallies last written, decoded.
	tallies *countedTallies
	// clock is the time the service reasons about (see Clock).
	clock Clock
	// passTimeout bounds one pass of the worker (worker_stall.go).
	passTimeout time.Duration
	// checkpoints are states along games' histories, from which a fold starts (checkpoints.go).
	checkpoints *checkpoints
	// quotas bound what one client may hold (Create).
	quotas Quotas
	// fair is the worker's round robin between owners and its figures.
	fair *fairness
	// reviewRound is the worker's turn among the classrooms with games to review (review_worker.go).
	reviewRound reviewRound
	// webhookCfg and webhookSender are the webhooks' bounds and their HTTP client (WithWebhooks).
	webhookCfg    WebhookConfig
	webhookSender WebhookSender
	// webhookWake wakes the webhook worker (WakeWebhooks).
	webhookWake chan struct{}
	// links seal picture links (picture_links.go): WithLinkSecret's, else a random one made once.
	links     *linkSealer
	linksOnce sync.Once
	// signInSecret is what the students' sign-in codes derive from (WithSignInCodeSecret).
	signInSecret []byte
	// lti configures LTI launches (WithLTI, lti.go); without its sealing key LTI is off.
	lti LTIConfig
}

// New is the game master over store, for the kinds of game in the catalogue, configured by opts.
func New(store Stores, kinds *domain.Catalogue, opts ...Option) *Service {
	s := &Service{store: store, kinds: kinds, botsDue: make(chan struct{}, 1),
		ttls: AbandonTTLs{Lobby: DefaultLobbyTTL, Idle: DefaultIdleGameTTL}, states: newDecodedStates(), tallies: newCountedTallies(), clock: SystemClock(),
		checkpoints: newCheckpoints(), quotas: DefaultQuotas, fair: newFairness(store.Dues, store.Updater), webhookCfg: DefaultWebhookConfig,
		webhookWake: make(chan struct{}, 1)}
	for _, opt := range opts {
		opt(s)
	}
	s.parts = newParts(store, s)
	return s
}

// update runs fn in one transaction whose time, the time its writes record and its expiry checks
// compare with, is the clock's now.
func (s *Service) update(ctx context.Context, fn func(Tx) error) error {
	return s.store.Update(ctx, s.now(), fn)
}

// now is the clock's time.
func (s *Service) now() time.Time { return s.clock.Now() }

// Kinds is the catalogue of the kinds of game the service hosts.
func (s *Service) Kinds() *domain.Catalogue { return s.kinds }

// Resolve finds whose a teacher or student token is. A token that is no current member's stays
// unresolved: what that means depends on what it is presented for.
func (s *Service) Resolve(ctx context.Context, p Principal) (Principal, error) {
	return s.authorities.Resolve(ctx, p)
}

func (a *authorities) Resolve(ctx context.Context, p Principal) (Principal, error) {
	var kind TokenKind
	switch p.Kind {
	case Observer:
		return a.resolveObserver(ctx, p)
	case AccountHolder:
		return a.resolveAccount(ctx, p)
	case Teacher:
		kind = TokenTeacher
	case Student:
		kind = TokenStudent
	default:
		return p, nil
	}
	classroomID, studentID, err := a.store.ClassroomMember(ctx, kind, p.TokenHash)
	if errors.Is(err, ErrNotFound) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	p.Resolved, p.ClassroomID, p.StudentID = true, classroomID, studentID
	return p, nil
}

// Get reads a game and says who the principal is in it.
func (s *Service) Get(ctx context.Context, id string, p Principal) (*Game, Caller, error) {
	rec, caller, err := s.GetRecord(ctx, id, p)
	if err != nil {
		return nil, AnonymousCaller, err
	}
	g, err := s.Decode(rec)
	return g, caller, err
}

// GetRecord is Get without decoding the game's snapshot, for a caller that may have what it needs
// from this version of the game already; Decode decodes it when it does not.
func (s *Service) GetRecord(ctx context.Context, id string, p Principal) (*GameRecord, Caller, error) {
	rec, err := s.loadGame(ctx, id)
	if err != nil {
		return nil, AnonymousCaller, err
	}
	caller, err := CallerOf(rec, p)
	if err != nil {
		return nil, AnonymousCaller, err
	}
	return rec, caller, nil
}

// Decode gives a record read by GetRecord its rules and its state.
func (s *Service) Decode(rec *GameRecord) (*Game, error) { return s.decodeGame(rec) }

func (s *Service) loadGame(ctx context.Context, id string) (*GameRecord, error) {
	return readGame(ctx, s.store.GameReader, id)
}

// readGame reads a game through games, refusing one that does not exist.
func readGame(ctx context.Context, games GameReader, id string) (*GameRecord, error) {
	rec, err := games.Game(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, gameNotFound(id)
	}
	return rec, err
}

// lockGame reads and locks a game inside a transaction.
func lockGame(ctx context.Context, tx GameTx, id string) (*GameRecord, error) {
	rec, err := tx.LockGame(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, gameNotFound(id)
	}
	return rec, err
}

// lockGameWithResult is lockGame that also reads the result kept under lookup, if any.
func lockGameWithResult(ctx context.Context, tx GameTx, id string, lookup []byte) (*GameRecord, *KeptResult, error) {
	rec, kept, err := tx.LockGameWithResult(ctx, id, lookup)
	if errors.Is(err, ErrNotFound) {
		return nil, nil, gameNotFound(id)
	}
	return rec, kept, err
}

// Load reads a game without identifying anyone, for tools and tests that see everything.
func (s *Service) Load(ctx context.Context, id string) (*Game, error) {
	rec, err := s.loadGame(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.decodeGame(rec)
}
