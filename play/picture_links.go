package play

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"time"

	"primegames/domain"
)

// A picture link lets an <img src> (or a replay's Link header) show one game's pictures as one
// viewer sees them, for minutes, without the viewer's token in the address, where logs, history and
// Referer would keep it. It is two query parameters: exp, when it ends (Unix seconds), and sig, the
// viewer (the kind and hash of the token that asked for it) sealed with AES-GCM under a key derived
// from the service's link secret, with the game's id and exp as the sealed data's context. So a
// link opens one game until exp, and nothing can be read from it; and since it is the viewer's
// token that is checked when the picture is drawn, a token revoked or rotated ends its links too.
// The nonce is derived from what it seals (as in AES-GCM-SIV), so that a viewer asking again within
// the same pictureLinkStep gets the same link, which a browser's cache then keeps.

const (
	// PictureLinkTTL is the least a picture link lasts; it lasts up to PictureLinkTTL +
	// pictureLinkStep, its end rounded up to a step so that links asked for meanwhile are the same.
	PictureLinkTTL  = 10 * time.Minute
	pictureLinkStep = 5 * time.Minute
)

// PictureLink is a viewer's link to one game's pictures: the query that opens them, and its end.
type PictureLink struct {
	Query     string // exp=…&sig=…
	ExpiresAt time.Time
}

// newLinkSealer seals picture links under keys derived from secret.
func newLinkSealer(secret []byte) *linkSealer {
	block, err := aes.NewCipher(deriveKey32(secret, "primegames picture link seal"))
	if err != nil {
		panic(err) // a 32-byte key is always an AES key
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &linkSealer{aead: aead, nonceKey: deriveKey32(secret, "primegames picture link nonce")}
}

type linkSealer struct {
	aead     cipher.AEAD
	nonceKey []byte
}

// linkSealerOf is the service's, or one with a random secret of this process's when none was set.
func (s *Service) linkSealerOf() *linkSealer {
	s.linksOnce.Do(func() {
		if s.links == nil {
			secret := make([]byte, 32)
			_, _ = rand.Read(secret)
			s.links = newLinkSealer(secret)
		}
	})
	return s.links
}

// NewPictureLink makes p's link to the pictures of game id; p must be a token's principal.
func (s *Service) NewPictureLink(p Principal, gameID string) (PictureLink, error) {
	if len(p.TokenHash) == 0 {
		return PictureLink{}, domain.Errorf(domain.KindUnauthorized, "unauthorized", "A picture link is made for a token: send the token whose view the pictures show.")
	}
	end := s.now().Add(PictureLinkTTL + pictureLinkStep - 1).Truncate(pictureLinkStep)
	exp := strconv.FormatInt(end.Unix(), 10)
	l := s.linkSealerOf()
	plain := append([]byte{byte(p.Kind)}, p.TokenHash...)
	aad := pictureLinkContext(gameID, exp)
	mac := hmacSHA256(l.nonceKey, append(append([]byte{}, plain...), aad...))
	nonce := mac[:l.aead.NonceSize()]
	sealed := l.aead.Seal(append([]byte(nil), nonce...), nonce, plain, aad) // the nonce, then the sealed viewer
	return PictureLink{Query: "exp=" + exp + "&sig=" + base64.RawURLEncoding.EncodeToString(sealed), ExpiresAt: end}, nil
}

// PictureLinkPrincipal opens a picture link of game id: the principal of the token it was made for,
// looked up anew (Resolve), or 401 when it is not one of this game's links or has ended.
func (s *Service) PictureLinkPrincipal(ctx context.Context, gameID, exp, sig string) (Principal, error) {
	end, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return Nobody, badPictureLink()
	}
	if !s.now().Before(time.Unix(end, 0)) {
		return Nobody, domain.Errorf(domain.KindUnauthorized, "picture_link_expired",
			"This picture link ended at %s; ask for a new one (GET /v1/games/%s/picture-links).", time.Unix(end, 0).UTC().Format(time.RFC3339), gameID)
	}
	sealed, err := base64.RawURLEncoding.DecodeString(sig)
	l := s.linkSealerOf()
	if err != nil || len(sealed) < l.aead.NonceSize() {
		return Nobody, badPictureLink()
	}
	n := l.aead.NonceSize()
	plain, err := l.aead.Open(nil, sealed[:n], sealed[n:], pictureLinkContext(gameID, exp))
	if err != nil || len(plain) < 2 {
		return Nobody, badPictureLink()
	}
	p := Principal{Kind: PrincipalKind(plain[0]), TokenHash: plain[1:]}
	return s.Resolve(ctx, p)
}

func pictureLinkContext(gameID, exp string) []byte {
	b := binary.AppendUvarint(nil, uint64(len(gameID)))
	return append(append(append(b, gameID...), '\n'), exp...)
}

func badPictureLink() error {
	return domain.Errorf(domain.KindUnauthorized, "picture_link_invalid",
		"This picture link is not one of this game's; ask for a new one with the viewer's token.")
}
