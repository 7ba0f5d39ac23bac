package middleware

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"regexp"
	"sync"
	"sync/atomic"

	"github.com/labstack/echo/v4"
)

// RequestIDHeader is X-Request-ID in the form net/http canonicalizes it to, which Header.Get and
// Header.Set then take as it is instead of making it anew on each call.
const RequestIDHeader = "X-Request-Id"

var acceptableRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// RequestID keeps the caller's X-Request-ID when it is reasonable, or makes one, and echoes it back.
func RequestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(RequestIDHeader)
		if id == "" || !acceptableRequestID.MatchString(id) {
			id = NewRequestID()
		}
		c.Request().Header.Set(RequestIDHeader, id)
		h := c.Response().Header()
		h.Set(RequestIDHeader, id)
		// No response is to be read as another type than the one it declares: an SVG or a problem
		// shown in a browser stays what it is.
		h.Set("X-Content-Type-Options", "nosniff")
		return next(c)
	}
}

// NewRequestID is unique to the request, and tells nothing: this process's count of requests,
// encrypted with a key drawn when it started (AES is a permutation, so two counts never give the
// same ID, and without the key no count can be read from it). One AES block costs a few
// nanoseconds, less than drawing random bytes.
func NewRequestID() string {
	buf := requestIDBuffers.Get().(*[2 * aes.BlockSize]byte) // the cipher's interface would move arrays of the stack to the heap
	count, id := buf[:aes.BlockSize], buf[aes.BlockSize:]
	binary.BigEndian.PutUint64(count[8:], requestCount.Add(1))
	requestIDCipher.Encrypt(id, count)
	s := hex.EncodeToString(id)
	requestIDBuffers.Put(buf)
	return s
}

var (
	requestIDCipher = func() cipher.Block {
		var key [16]byte
		_, _ = rand.Read(key[:])
		block, err := aes.NewCipher(key[:])
		if err != nil {
			panic(err) // a 16-byte key is always an AES-128 key
		}
		return block
	}()
	requestIDBuffers = sync.Pool{New: func() any { return new([2 * aes.BlockSize]byte) }}
	requestCount     atomic.Uint64
)

// RequestIDOf is the request ID RequestID gave the request.
func RequestIDOf(c echo.Context) string { return c.Response().Header().Get(RequestIDHeader) }
