package play

import (
	"context"
	"errors"
)

// Erasing an account (DELETE /v1/me) deletes the account row, and with it (ON DELETE CASCADE) its
// tokens and every other row that names it. Its classrooms are erased with it by default: each
// classroom with its students, their sign-in tokens, its games and their histories, statistics,
// reviews, observer tokens and webhook subscriptions — what a data-protection officer expects of
// "delete my account". KeepClassrooms detaches them instead: they go on under their classroom
// teacher tokens, owned by nobody (docs/privacy.md).

// AccountEraser erases accounts.
type AccountEraser interface {
	// EraseAccount deletes the account and, unless keepClassrooms, the classrooms it owns; it
	// answers how many classrooms it deleted. ErrNotFound when there is no such account.
	EraseAccount(ctx context.Context, accountID string, keepClassrooms bool) (classrooms int, err error)
}

// EraseMyAccount erases the account of the account token p, and its classrooms unless
// keepClassrooms; it answers how many classrooms were erased.
func (s *Service) EraseMyAccount(ctx context.Context, p Principal, keepClassrooms bool) (int, error) {
	if err := mustBeAccount(p); err != nil {
		return 0, err
	}
	n, err := s.store.AccountEraser.EraseAccount(ctx, p.AccountID, keepClassrooms)
	if errors.Is(err, ErrNotFound) {
		return 0, mustBeAccount(Principal{Kind: AccountHolder})
	}
	return n, err
}
