package play

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"

	"primegames/domain"
)

// Idempotency is a request that a client may send more than once (Idempotency-Key). The key is a
// secret: the store keeps neither it nor the result in a form that can be read without it.
type Idempotency struct {
	key         string
	requestHash []byte // of the request body, to tell a retry from a different request
}

// NewIdempotency is a request with an Idempotency-Key and its body; nil without a key.
func NewIdempotency(key *string, body []byte) *Idempotency {
	if key == nil {
		return nil
	}
	sum := sha256.Sum256(body)
	return &Idempotency{key: *key, requestHash: sum[:]}
}

// byPrincipal binds the key to a caller their token has identified; scope names the caller by id
// (a seat number, a student id), never by the token. The token joins the secret, so a short key is
// enough and the stored result cannot be read without the token.
func (i *Idempotency) byPrincipal(p Principal, scope string) (*resultSlot, error) {
	if i == nil {
		return nil, nil
	}
	return newResultSlot(scope, p.credential, i.key, i.requestHash), nil
}

// byRetiringToken binds the key to a caller whose token the request itself retires, so that a retry
// comes with a token that no longer identifies anyone: the key must be strong enough to be a secret
// of its own.
func (i *Idempotency) byRetiringToken(p Principal, scope string) (*resultSlot, error) {
	if i == nil {
		return nil, nil
	}
	if !strongIdempotencyKey(i.key) {
		return nil, weakKey("This request replaces the token it carries, so a retry is answered on its Idempotency-Key")
	}
	return i.byPrincipal(p, scope)
}

// byAnyone binds the key to a request that no token identifies: the key alone is the secret, so it
// must be one nobody else could guess.
func (i *Idempotency) byAnyone(scope string) (*resultSlot, error) {
	if i == nil {
		return nil, nil
	}
	if !strongIdempotencyKey(i.key) {
		return nil, weakKey("This request carries no token, so its Idempotency-Key is its only secret")
	}
	return newResultSlot(scope, nil, i.key, i.requestHash), nil
}

// idempotent runs do unless the same request was already answered, in which case it returns the
// result kept then. It runs inside the caller's transaction: the kept result and the work it
// describes are committed together or not at all.
func idempotent[T any](ctx context.Context, tx Tx, slot *resultSlot, do func() (T, error)) (T, error) {
	var zero T
	if slot == nil {
		return do()
	}
	// Requests with the same key wait for each other here.
	if err := tx.LockResult(ctx, slot.lookup); err != nil {
		return zero, err
	}
	hash, sealed, err := tx.StoredResult(ctx, slot.lookup)
	switch {
	case err == nil:
		var kept T
		return kept, slot.openKept(&KeptResult{RequestHash: hash, Sealed: sealed}, &kept)
	case !errors.Is(err, ErrNotFound):
		return zero, err
	}
	result, err := do()
	if err != nil {
		return zero, err
	}
	return result, slot.keep(ctx, tx, result)
}

// lookupOf is the slot's lookup, nil without a slot.
func (s *resultSlot) lookupOf() []byte {
	if s == nil {
		return nil
	}
	return s.lookup
}

// keep seals result and stores it in the slot; nothing without a slot.
func (s *resultSlot) keep(ctx context.Context, tx Tx, result any) error {
	if s == nil {
		return nil
	}
	sealed, err := s.seal(result)
	if err != nil {
		return err
	}
	return tx.StoreResult(ctx, s.lookup, s.requestHash, sealed)
}

// openKept opens the result kept in the slot, unless the key answered a different request.
func (s *resultSlot) openKept(kept *KeptResult, result any) error {
	if err := s.sameRequest(kept.RequestHash); err != nil {
		return err
	}
	return s.open(kept.Sealed, result)
}

// sameRequest refuses a key kept for a request with another hash.
func (s *resultSlot) sameRequest(requestHash []byte) error {
	if !bytes.Equal(requestHash, s.requestHash) {
		return domain.Errorf(domain.KindIllegal, "idempotency_key_reused",
			"This Idempotency-Key was already used for a different request; use a new key for a new request.")
	}
	return nil
}

// entryKey is the slot as a history entry keeps it; nil without a slot.
func (s *resultSlot) entryKey() *EntryKey {
	if s == nil {
		return nil
	}
	return &EntryKey{Lookup: s.lookup, RequestHash: s.requestHash}
}

// resultSlot is where a result kept for an Idempotency-Key lives: a row found by a hash of the
// secret, holding the result encrypted with a key derived from the same secret. The secret is the
// Idempotency-Key, joined by the caller's credential when a token identifies the caller. The
// encryption key is derived only when a result is sealed or opened: an action's key is kept on its
// history entry as two hashes, and most actions seal nothing.
type resultSlot struct {
	scope       string
	secret      []byte
	lookup      []byte
	requestHash []byte
}

func newResultSlot(scope string, credential []byte, key string, requestHash []byte) *resultSlot {
	// Neither a credential (in hex) nor a header value holds a newline, so the joined secret is
	// unambiguous.
	secret := make([]byte, 0, 2*len(credential)+1+len(key))
	secret = append(append(hex.AppendEncode(secret, credential), '\n'), key...)
	lookup := deriveKey32(secret, "primegames idempotency lookup\n"+scope)
	return &resultSlot{scope: scope, secret: secret, lookup: lookup, requestHash: requestHash}
}

// aead is the cipher that seals and opens the slot's result.
func (s *resultSlot) aead() (cipher.AEAD, error) {
	block, err := aes.NewCipher(deriveKey32(s.secret, "primegames idempotency response\n"+s.scope))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithRandomNonce(block)
}

// seal encrypts a result, bound to its row and its request.
func (s *resultSlot) seal(result any) ([]byte, error) {
	plain, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	aead, err := s.aead()
	if err != nil {
		return nil, err
	}
	return aead.Seal(nil, nil, plain, s.additionalData()), nil
}

func (s *resultSlot) open(sealed []byte, result any) error {
	aead, err := s.aead()
	if err != nil {
		return err
	}
	plain, err := aead.Open(nil, nil, sealed, s.additionalData())
	if err != nil {
		return errors.New("idempotency: a stored result does not open with its own key")
	}
	return json.Unmarshal(plain, result)
}

func (s *resultSlot) additionalData() []byte {
	return append(append([]byte{}, s.lookup...), s.requestHash...)
}

// The least an Idempotency-Key must hold when it is a request's only secret: about 128 bits, as a
// random UUID or 16 random bytes in hex, base32 or base64url have.
const (
	minHexKeyDigits  = 32 // a key of hex digits (and hyphens, which do not count) has 4 bits a digit
	minKeyCharacters = 22 // any other key is counted at 6 bits a character
	minKeyDistinct   = 8  // refuses repetitive keys such as "aaaa…" or "abab…"
)

// strongIdempotencyKey reports whether key meets the rule above. It cannot tell a random key from a
// long phrase; it only refuses keys that cannot be random enough.
func strongIdempotencyKey(key string) bool {
	distinct := map[rune]bool{}
	hexDigits, others := 0, 0
	for _, r := range key {
		distinct[r] = true
		switch {
		case strings.ContainsRune("0123456789abcdefABCDEF", r):
			hexDigits++
		case r != '-':
			others++
		}
	}
	if len(distinct) < minKeyDistinct {
		return false
	}
	if others == 0 {
		return hexDigits >= minHexKeyDigits
	}
	return hexDigits+others >= minKeyCharacters
}

// weakKey refuses an Idempotency-Key too weak to serve as a secret, saying why it must be one.
func weakKey(why string) error {
	return domain.Invalid("weak_idempotency_key", why+": use at least %d random hex digits or %d other random characters "+
		"(a random UUID or 16 random bytes), with at least %d different characters.", minHexKeyDigits, minKeyCharacters, minKeyDistinct)
}
