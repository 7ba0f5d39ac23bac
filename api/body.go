package api

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/domain"
)

// bodyGate reads a request's body once, before the validator or a handler does, and lets the request
// on only when the body is what the operation takes: none for an operation without a request body;
// otherwise at most BodyLimitBytes of one JSON document (contract.CheckJSONDocument, which a body
// that passed it and the contract before skips: Validator.CheckBody). Whatever reads the body after
// it reads these checked bytes.
func (s *Server) bodyGate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.isContractRoute(c) {
			return next(c)
		}
		req := c.Request()
		if !s.bodyRoutes[req.Method+" "+c.Path()] {
			if req.ContentLength != 0 && !emptyBody(req.Body) {
				return refuse(http.StatusRequestEntityTooLarge, "body_not_allowed", "This request takes no body; send it without one (or with an empty object, {}).")
			}
			req.ContentLength, req.Body = 0, http.NoBody
			return next(c)
		}
		if req.ContentLength == 0 {
			return next(c) // the validator says that the body is required
		}
		if ltiFormRoutes[req.Method+" "+c.Path()] {
			return s.formBody(c, next) // lti.go
		}
		if err := checkJSONContentType(req.Header.Get(echo.HeaderContentType)); err != nil {
			return err
		}
		body, err := s.readLimited(c)
		if err != nil {
			return err
		}
		if len(body) > 0 {
			if err := s.validator.CheckBody(c, body); err != nil {
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
	return refuse(http.StatusUnsupportedMediaType, "unsupported_media_type",
		"The request body must be JSON in UTF-8, sent with Content-Type: application/json; the Content-Type was %s.", header)
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
		return nil, refuse(http.StatusRequestTimeout, "request_timeout", "The request body arrived too slowly; send the request again.")
	default:
		return nil, domain.Invalid("invalid", "The request body could not be read to its end: %v.", err)
	}
}

func tooLarge(limit int64) error {
	return refuse(http.StatusRequestEntityTooLarge, "payload_too_large",
		"The request body is larger than this server accepts (%d bytes at most).", limit)
}
