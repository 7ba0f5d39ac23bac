package play

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// rematchLabel sets the hash of a rematch's id apart from any other use of a game's id and seed.
const rematchLabel = "primegames rematch id v1\x00"

// rematchID is the id the rematch of old takes, the same for every request: a UUID (version 8, of
// RFC 9562's own design) made of the SHA-256 of a label, old's id and old's secret seed. A game id
// is no secret (outside a classroom it lets anyone watch the game); the seed, which no answer
// shows, keeps the rematch's id as unguessable as a random one, learnt only from old's link by
// those who may read old.
func rematchID(old *GameRecord) string {
	h := sha256.New()
	h.Write([]byte(rematchLabel))
	h.Write([]byte(old.ID))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(old.Seed)))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x80 // version 8
	u[8] = u[8]&0x3f | 0x80 // variant 10 (RFC 9562)
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}
