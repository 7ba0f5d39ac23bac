package api

import "os"

// Every body a test receives is checked against the generated encoding of its value; benchmarks
// measuring the server as it runs set VERIFY_ENCODINGS=0.
func init() { verifyEncodings = os.Getenv("VERIFY_ENCODINGS") != "0" }
