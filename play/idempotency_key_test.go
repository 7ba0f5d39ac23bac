package play

import "testing"

func TestStrongIdempotencyKey(t *testing.T) {
	t.Parallel()
	for key, want := range map[string]bool{
		"3f1c9a52-7d4e-4b8a-9c61-0e2f5b7a8d13":  true,  // a random UUID
		"9f86d081884c7d659a2feaa0c55ad015":      true,  // 16 random bytes in hex
		"q3V8ZxPw0tYbN2mKc7LdRg":                true,  // 16 random bytes in base64url
		"MZXW6YTBOI2DMNZQGA4TSMBQGE":            true,  // base32, as Go's rand.Text
		"9f86d081884c7d659a2feaa0c55ad01":       false, // 31 hex digits
		"9f86d081-884c-7d65-9a2f-eaa0c55ad0":    false, // 30 hex digits, hyphens aside
		"q3V8ZxPw0tYbN2mKc7LdR":                 false, // 21 characters
		"0123456789012345678901":                false, // decimal digits count as hex
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": false,
		"abababababababababababab":              false,
		"k1":                                    false,
		"":                                      false,
	} {
		if got := strongIdempotencyKey(key); got != want {
			t.Errorf("strongIdempotencyKey(%q) = %v, want %v", key, got, want)
		}
	}
}
