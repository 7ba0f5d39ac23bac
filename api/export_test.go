package api

// Every body a test receives is checked against the generated encoding of its value.
func init() { verifyEncodings = true }
