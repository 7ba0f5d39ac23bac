package play

import (
	"bytes"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"math/rand/v2"
	"strings"
	"testing"
)

// deriveKey32 gives crypto/hkdf's bytes for secrets and infos of every length around the sizes its
// buffers hold, so the lookups of keys kept before it was written are found the same.
func TestDeriveKeyIsHKDF(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, secretLen := range []int{0, 1, 31, 32, 63, 64, 65, 100, 255, 256, 257, 400, 1000} {
		for _, info := range []string{"", "primegames idempotency lookup\nactions", strings.Repeat("i", 255), strings.Repeat("j", 300)} {
			secret := make([]byte, secretLen)
			for i := range secret {
				secret[i] = byte(r.Uint32())
			}
			want, err := hkdf.Key(sha256.New, secret, nil, info, 32)
			if err != nil {
				t.Fatal(err)
			}
			if got := deriveKey32(secret, info); !bytes.Equal(got, want) {
				t.Fatalf("secret of %d bytes, info of %d: %x, hkdf.Key %x", secretLen, len(info), got, want)
			}
			mac := hmac.New(sha256.New, secret) // keys longer than a block too
			mac.Write([]byte(info))
			if got := hmacSHA256(secret, []byte(info)); !bytes.Equal(got[:], mac.Sum(nil)) {
				t.Fatalf("HMAC with a key of %d bytes, message of %d differs", secretLen, len(info))
			}
		}
	}
}

func BenchmarkDeriveKey(b *testing.B) {
	secret := []byte(strings.Repeat("c", 64) + "\n" + "3f2a9c1e-0b7d-4e5f-8a6b-1c2d3e4f5a6b")
	b.Run("hkdf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = hkdf.Key(sha256.New, secret, nil, "primegames idempotency lookup\nactions", 32)
		}
	})
	b.Run("deriveKey32", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			deriveKey32(secret, "primegames idempotency lookup\nactions")
		}
	})
}
