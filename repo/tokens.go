package repo

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// Token prefixes tell a person reading a log or a script which kind of token they hold.
const (
	seatTokenPrefix    = "pgs_"
	creatorTokenPrefix = "pgc_"
)

// newToken returns a token with 256 random bits and the hash that is all the database keeps of it.
func newToken(prefix string) (token string, hash []byte) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	token = prefix + base64.RawURLEncoding.EncodeToString(b[:])
	return token, hashToken(token)
}

func hashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// newSeed returns a game's secret seed (G-1).
func newSeed() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	var v int64
	for _, x := range b {
		v = v<<8 | int64(x)
	}
	return v
}
