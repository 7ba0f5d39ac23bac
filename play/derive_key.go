package play

import "crypto/sha256"

// deriveKey32 is hkdf.Key(sha256.New, secret, nil, info, 32) — the same 32 bytes — written with
// sha256.Sum256 on buffers that stay on the stack: crypto/hkdf builds two HMACs and their digests
// (some twenty allocations), and every action with an Idempotency-Key derives its lookup.
func deriveKey32(secret []byte, info string) []byte {
	var salt [sha256.Size]byte // RFC 5869: no salt is HashLen zeros
	prk := hmacSHA256(salt[:], secret)
	var message [256]byte
	key := hmacSHA256(prk[:], append(append(message[:0], info...), 1)) // T(1) = HMAC(PRK, info ‖ 0x01)
	return key[:]
}

// hmacSHA256 is HMAC-SHA256 (RFC 2104).
func hmacSHA256(key, message []byte) [sha256.Size]byte {
	const block = 64
	if len(key) > block {
		long := sha256.Sum256(key)
		key = long[:]
	}
	var inner [block + 256]byte
	padded := append(inner[:0], key...)[:block] // the key, then zeros to the block
	var outer [block + sha256.Size]byte
	for i := range block {
		outer[i] = padded[i] ^ 0x5c
		padded[i] ^= 0x36
	}
	innerSum := sha256.Sum256(append(padded, message...))
	copy(outer[block:], innerSum[:])
	return sha256.Sum256(outer[:])
}
