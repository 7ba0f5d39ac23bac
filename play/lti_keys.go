package play

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"errors"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// The tool's key pairs (RS256, Security Framework §6): made on the first start that finds none,
// the private key kept sealed (AES-256-GCM under a key derived from SECRET_KEY, bound to the key's
// id) so that the database alone holds nothing that signs; the public key served at
// GET /v1/lti/jwks. A rotation makes a new current key and keeps the previous one published for
// LTIConfig.KeyOverlap, so that a platform caching the key set meets no unknown key id.

// LTIToolKey is one of the tool's key pairs as stored.
type LTIToolKey struct {
	KID       string
	PublicJWK json.RawMessage
	Sealed    []byte // the private key, PKCS #8, sealed
	CreatedAt time.Time
}

func (s *Service) ltiAEAD() (cipher.AEAD, error) {
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(deriveKey32(s.lti.SealingKey, "primegames lti tool keys"))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithRandomNonce(block)
}

// newLTIToolKey makes a key pair, its public half as a JWK, its private half sealed.
func (s *Service) newLTIToolKey() (LTIToolKey, error) {
	aead, err := s.ltiAEAD()
	if err != nil {
		return LTIToolKey{}, err
	}
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return LTIToolKey{}, err
	}
	kid := randomCode()[:22]
	pub, err := jose.JSONWebKey{Key: &priv.PublicKey, KeyID: kid, Algorithm: string(jose.RS256), Use: "sig"}.MarshalJSON()
	if err != nil {
		return LTIToolKey{}, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return LTIToolKey{}, err
	}
	return LTIToolKey{KID: kid, PublicJWK: pub, Sealed: aead.Seal(nil, nil, der, []byte(kid)), CreatedAt: s.now()}, nil
}

// openLTIToolKey unseals a stored key's private half.
func (s *Service) openLTIToolKey(k LTIToolKey) (*rsa.PrivateKey, error) {
	aead, err := s.ltiAEAD()
	if err != nil {
		return nil, err
	}
	der, err := aead.Open(nil, nil, k.Sealed, []byte(k.KID))
	if err != nil {
		return nil, errors.New("lti: the tool's key does not open with this SECRET_KEY")
	}
	key, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, err
	}
	priv, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("lti: the tool's key is not an RSA key")
	}
	return priv, nil
}

// EnsureLTIToolKey makes the tool's first key pair when there is none (every instance may call it
// at start; one key comes of it). Without SECRET_KEY it does nothing.
func (s *Service) EnsureLTIToolKey(ctx context.Context) error {
	if !s.LTIEnabled() {
		return nil
	}
	keys, err := s.store.LTIToolKeys(ctx, s.now())
	if err != nil || len(keys) > 0 {
		return err
	}
	k, err := s.newLTIToolKey()
	if err != nil {
		return err
	}
	_, err = s.store.InsertLTIToolKey(ctx, k, false, time.Time{})
	return err
}

// ltiToolKeys are the tool's published keys, current first, the first made when there is none.
func (s *Service) ltiToolKeys(ctx context.Context) ([]LTIToolKey, error) {
	keys, err := s.store.LTIToolKeys(ctx, s.now())
	if err == nil && len(keys) == 0 {
		if err = s.EnsureLTIToolKey(ctx); err == nil {
			keys, err = s.store.LTIToolKeys(ctx, s.now())
		}
	}
	if err == nil && len(keys) == 0 {
		err = errors.New("lti: the tool has no key pair")
	}
	return keys, err
}

// LTIKeySet is the tool's published public keys, current first, as a JWKS document.
func (s *Service) LTIKeySet(ctx context.Context) (json.RawMessage, error) {
	if err := s.ltiOn(); err != nil {
		return nil, err
	}
	keys, err := s.ltiToolKeys(ctx)
	if err != nil {
		return nil, err
	}
	set := struct {
		Keys []json.RawMessage `json:"keys"`
	}{Keys: make([]json.RawMessage, 0, len(keys))}
	for _, k := range keys {
		set.Keys = append(set.Keys, k.PublicJWK)
	}
	return json.Marshal(set)
}

// RotateLTIToolKey makes a new current key pair; the one before stays published for KeyOverlap.
// It answers the new key's id.
func (s *Service) RotateLTIToolKey(ctx context.Context, p Principal) (string, error) {
	if err := mustBeAdmin(p); err != nil {
		return "", err
	}
	k, err := s.newLTIToolKey()
	if err != nil {
		return "", err
	}
	// The current key must open: a SECRET_KEY changed since would leave keys nobody can use.
	keys, err := s.store.LTIToolKeys(ctx, s.now())
	if err != nil {
		return "", err
	}
	if len(keys) > 0 {
		if _, err := s.openLTIToolKey(keys[0]); err != nil {
			return "", err
		}
	}
	if _, err := s.store.InsertLTIToolKey(ctx, k, true, s.now().Add(s.lti.KeyOverlap)); err != nil {
		return "", err
	}
	return k.KID, nil
}
