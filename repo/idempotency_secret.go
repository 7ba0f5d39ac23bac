package repo

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"errors"
	"strings"
)

// storedResponse is where a response kept for an Idempotency-Key lives: a row found by a hash of
// the secret, holding the response encrypted with a key derived from the same secret. The secret is
// the Idempotency-Key, joined by the caller's token when a token identifies the caller.
type storedResponse struct {
	lookup      []byte
	aead        cipher.AEAD
	requestHash []byte
}

func newStoredResponse(scope, credential, key string, requestHash []byte) (*storedResponse, error) {
	// Neither a token nor a header value holds a newline, so the joined secret is unambiguous.
	secret := []byte(credential + "\n" + key)
	lookup, err := hkdf.Key(sha256.New, secret, nil, "primegames idempotency lookup\n"+scope, 32)
	if err != nil {
		return nil, err
	}
	sealKey, err := hkdf.Key(sha256.New, secret, nil, "primegames idempotency response\n"+scope, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(sealKey)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCMWithRandomNonce(block)
	if err != nil {
		return nil, err
	}
	return &storedResponse{lookup: lookup, aead: aead, requestHash: requestHash}, nil
}

// seal encrypts a response, bound to its row and its request.
func (s *storedResponse) seal(r Response) ([]byte, error) {
	plain, err := encodeResponse(r)
	if err != nil {
		return nil, err
	}
	return s.aead.Seal(nil, nil, plain, s.additionalData()), nil
}

func (s *storedResponse) open(sealed []byte) (Response, error) {
	plain, err := s.aead.Open(nil, nil, sealed, s.additionalData())
	if err != nil {
		return Response{}, errors.New("idempotency: a stored response does not open with its own key")
	}
	return decodeResponse(plain)
}

func (s *storedResponse) additionalData() []byte {
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
