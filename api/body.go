package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"

	"primegames/domain"
)

// A request body's shape is bounded, because decoding and validating it against the contract costs
// far more than its size suggests for a deep body and for one of many small values (every anyOf
// branch of the validator copies the whole value). The contract needs five levels and a few dozen
// values.
const (
	maxJSONDepth   = 32   // objects and arrays nested in one another
	maxJSONEntries = 1000 // object members and array elements in all
)

// bodyGate reads a request's body once, before the validator or a handler does, and lets the request
// on only when the body is what the operation takes: none for an operation without a request body;
// otherwise at most BodyLimitBytes of one JSON document (checkJSONDocument). Whatever reads the body
// after it reads these checked bytes.
func (s *Server) bodyGate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.isContractRoute(c) {
			return next(c)
		}
		req := c.Request()
		if !s.bodyRoutes[req.Method+" "+c.Path()] {
			if req.ContentLength != 0 && !emptyBody(req.Body) {
				return &refusal{http.StatusRequestEntityTooLarge, "body_not_allowed", "This request takes no body; send it without one (or with an empty object, {})."}
			}
			req.ContentLength, req.Body = 0, http.NoBody
			return next(c)
		}
		if req.ContentLength == 0 {
			return next(c) // the validator says that the body is required
		}
		if err := checkJSONContentType(req.Header.Get(echo.HeaderContentType)); err != nil {
			return err
		}
		body, err := s.readLimited(c)
		if err != nil {
			return err
		}
		if len(body) > 0 {
			if err := checkJSONDocument(body); err != nil {
				return err
			}
		}
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		req.Body, _ = req.GetBody()
		return next(c)
	}
}

// emptyBody reports whether a body holds nothing but, at most, an empty JSON object: many HTTP
// clients send "{}" with every POST, and it asks for nothing. It reads a few bytes at most.
func emptyBody(body io.Reader) bool {
	const enough = 64
	head, err := io.ReadAll(io.LimitReader(body, enough+1))
	if err != nil || len(head) > enough {
		return false
	}
	trimmed := bytes.TrimSpace(head)
	return len(trimmed) == 0 || bytes.Equal(bytes.Join(bytes.Fields(trimmed), nil), []byte("{}"))
}

func checkJSONContentType(header string) error {
	mediaType, params, err := mime.ParseMediaType(header)
	if err == nil && mediaType == echo.MIMEApplicationJSON {
		if charset, ok := params["charset"]; !ok || strings.EqualFold(charset, "utf-8") {
			return nil
		}
	}
	if header == "" {
		header = "none"
	}
	return &refusal{http.StatusUnsupportedMediaType, "unsupported_media_type",
		"The request body must be JSON in UTF-8, sent with Content-Type: application/json; the Content-Type was " + header + "."}
}

// readLimited reads the whole body, refusing one larger than the limit whether or not it declared
// its length, and one that arrives slower than the server's read timeout.
func (s *Server) readLimited(c echo.Context) ([]byte, error) {
	req, limit := c.Request(), s.cfg.BodyLimitBytes
	if req.ContentLength > limit {
		return nil, tooLarge(limit)
	}
	var buf bytes.Buffer
	if req.ContentLength > 0 {
		buf.Grow(int(req.ContentLength))
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(c.Response().Writer, req.Body, limit))
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case err == nil:
		return buf.Bytes(), nil
	case errors.As(err, &tooBig):
		return nil, tooLarge(limit)
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, &refusal{http.StatusRequestTimeout, "request_timeout", "The request body arrived too slowly; send the request again."}
	default:
		return nil, domain.Invalid("invalid", "The request body could not be read to its end: %v.", err)
	}
}

func tooLarge(limit int64) error {
	return &refusal{http.StatusRequestEntityTooLarge, "payload_too_large",
		fmt.Sprintf("The request body is larger than this server accepts (%d bytes at most).", limit)}
}

// bodyRoutes lists the operations of the contract that take a request body (all of them JSON), as
// "METHOD /path/:param" like echo names its routes.
func bodyRoutes(spec *openapi3.T) map[string]bool {
	routes := map[string]bool{}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody != nil {
				routes[method+" "+pathParameter.ReplaceAllString(path, ":$1")] = true
			}
		}
	}
	return routes
}

var pathParameter = regexp.MustCompile(`\{([^}]+)\}`)

// checkJSONDocument says why body is not one JSON document in valid UTF-8, within maxJSONDepth
// and maxJSONEntries, whose strings hold no NUL and no half of a surrogate pair; nil when it is.
// It allocates nothing for a body it refuses for its shape, however deep or wide.
func checkJSONDocument(body []byte) error {
	if !utf8.Valid(body) {
		return domain.Invalid("invalid", "The request body is not valid UTF-8 text.")
	}
	// The shape first: json.Valid keeps a stack as deep as the body nests.
	if err := checkShapeAndEscapes(body); err != nil {
		return err
	}
	if !json.Valid(body) {
		var syntax *json.SyntaxError
		if err := json.Unmarshal(body, new(json.RawMessage)); errors.As(err, &syntax) {
			return domain.Invalid("invalid", "The request body is not one JSON document: %v (at byte %d).", syntax, syntax.Offset)
		}
		return domain.Invalid("invalid", "The request body is not one JSON document.")
	}
	return nil
}

// checkShapeAndEscapes walks the body once, tracking strings so that what is inside them does not
// count. Syntax is left to json.Valid. Entries are counted as commas and opening brackets: at least
// one per member or element.
func checkShapeAndEscapes(body []byte) error {
	depth, entries, inString := 0, 0, false
	for i := 0; i < len(body); i++ {
		switch b := body[i]; {
		case inString && b == '"':
			inString = false
		case inString && b == '\\':
			n, err := checkEscape(body[i:], i)
			if err != nil {
				return err
			}
			i += n - 1
		case inString:
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > maxJSONDepth {
				return domain.Invalid("invalid", "The request body nests objects and arrays more than %d deep; no request of this API needs more than a few levels.", maxJSONDepth)
			}
			entries++
		case b == ',':
			entries++
		case b == '}' || b == ']':
			depth--
		}
		if entries > maxJSONEntries {
			return domain.Invalid("invalid", "The request body holds more than %d values; no request of this API needs more than a few dozen.", maxJSONEntries)
		}
	}
	return nil
}

// checkEscape looks at the escape at the start of s (a backslash) and returns its length. It refuses
// \u0000, which Postgres cannot store and no field has a use for, and a \uD800–\uDFFF escape that
// is not half of a high-low pair, which stands for no character at all.
func checkEscape(s []byte, offset int) (int, error) {
	r, ok := hex4(s)
	if !ok {
		return min(2, len(s)), nil // a one-letter escape, or one json.Valid will refuse
	}
	switch {
	case r == 0:
		return 0, domain.Invalid("invalid", "The request body contains a NUL character (\\u0000), which no field accepts.")
	case !utf16.IsSurrogate(r):
		return 6, nil
	}
	if low, ok := hex4(s[6:]); ok && utf16.DecodeRune(r, low) != utf8.RuneError {
		return 12, nil
	}
	return 0, domain.Invalid("invalid", "The request body contains %s at byte %d, half of a UTF-16 surrogate pair without its other half; text must be whole Unicode characters.", s[:6], offset)
}

// hex4 reads the code unit of a \uXXXX escape at the start of s.
func hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range s[2:6] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}
