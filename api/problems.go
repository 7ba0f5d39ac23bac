package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

const problemContentType = "application/problem+json"

const (
	// statusClientClosedRequest is recorded for a request whose client went away before the answer
	// (nginx's 499): it is not the server's fault, so it is not a 5xx.
	statusClientClosedRequest = 499
	// unavailableRetryAfter is the Retry-After, in seconds, of a 503 that does not set its own.
	unavailableRetryAfter = 2
)

// statusOfKind is the one map from error kinds to HTTP statuses.
var statusOfKind = map[domain.Kind]int{
	domain.KindInvalid:      http.StatusBadRequest,
	domain.KindIllegal:      http.StatusUnprocessableEntity,
	domain.KindNotYourTurn:  http.StatusConflict,
	domain.KindNotFound:     http.StatusNotFound,
	domain.KindConflict:     http.StatusConflict,
	domain.KindPrecondition: http.StatusPreconditionFailed,
	domain.KindUnauthorized: http.StatusUnauthorized,
	domain.KindForbidden:    http.StatusForbidden,
	domain.KindRateLimited:  http.StatusTooManyRequests,
	domain.KindUnavailable:  http.StatusServiceUnavailable,
	domain.KindInternal:     http.StatusInternalServerError,
}

// codeOfStatus names echo's own errors (routing, body limit, binding) in the service's terms.
var codeOfStatus = map[int]string{
	http.StatusBadRequest:            "invalid",
	http.StatusUnauthorized:          "unauthorized",
	http.StatusForbidden:             "forbidden",
	http.StatusNotFound:              "not_found",
	http.StatusMethodNotAllowed:      "method_not_allowed",
	http.StatusNotAcceptable:         "not_acceptable",
	http.StatusRequestEntityTooLarge: "payload_too_large",
	http.StatusUnsupportedMediaType:  "unsupported_media_type",
	http.StatusTooManyRequests:       "rate_limited",
	http.StatusServiceUnavailable:    "unavailable",
}

// shedCodes are the refusals of a server that is working as meant and sheds load: a request beyond
// the render gate's queue or the streams an instance holds, or for webhooks on a server whose
// operator set no SECRET_KEY. Each is logged once, as a warning, by the access log; an
// error in the log is a fault to look into.
var shedCodes = map[string]bool{"renders_busy": true, "streams_full": true, "webhooks_disabled": true,
	"sign_in_codes_disabled": true,
	"lti_disabled":           true, "lti_platform_keys_unavailable": true, "lti_platform_unavailable": true} // LTI without SECRET_KEY; a platform out of reach (lti.go)

// shedKey marks a request whose answer is a shed refusal, for the access log.
const shedKey = "shed"

// handleError is echo's error handler: every error any handler or middleware returns becomes an
// RFC 9457 problem here, and nowhere else.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	p := s.problemFor(err)
	translateProblem(&p, err, lang(c))
	if p.Status >= 500 && clientGone(c) {
		// The failure followed from the client leaving (its context ended the work), and nobody
		// reads the answer; the status only tells the log and the metrics what happened.
		s.logger.LogAttrs(c.Request().Context(), slog.LevelInfo, "client closed the request",
			slog.String("request_id", middleware.RequestIDOf(c)), slog.String("error", err.Error()))
		_ = c.NoContent(statusClientClosedRequest)
		return
	}
	if quota := (*domain.Error)(nil); errors.As(err, &quota) {
		if facts, ok := quota.Facts.(play.QuotaFacts); ok && facts.RetryAfterSeconds > 0 {
			c.Response().Header().Set("Retry-After", strconv.Itoa(facts.RetryAfterSeconds))
		}
	}
	if p.Status == http.StatusServiceUnavailable && c.Response().Header().Get("Retry-After") == "" {
		c.Response().Header().Set("Retry-After", strconv.Itoa(unavailableRetryAfter))
	}
	if p.Status == http.StatusUnauthorized {
		// RFC 6750: a 401 names the scheme that would have let the caller in.
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, "Bearer")
	}
	p.Instance = ptr(c.Request().URL.Path)
	p.RequestId = ptr(middleware.RequestIDOf(c))
	switch {
	case shedCodes[p.Code]:
		c.Set(shedKey, true)
	case p.Status >= 500:
		s.logger.LogAttrs(c.Request().Context(), slog.LevelError, "request failed",
			slog.String("request_id", middleware.RequestIDOf(c)), slog.String("error", err.Error()))
	}
	if p.Status == http.StatusMethodNotAllowed {
		// echo has already set the Allow header.
		p.Detail = ptr(lang(c).Sprintf("%s is not allowed here; see the Allow header", methodOf(c)))
	}
	c.Response().Header().Set(echo.HeaderContentType, problemContentType)
	if werr := c.JSON(p.Status, p); werr != nil {
		s.logger.Warn("writing a problem response failed", "request_id", middleware.RequestIDOf(c), "error", werr)
	}
}

// clientGone reports whether the client closed the request (gave up or disconnected) before it was
// answered.
func clientGone(c echo.Context) bool {
	return errors.Is(c.Request().Context().Err(), context.Canceled)
}

// refusal refuses a request for how HTTP carried it (the body's size, media type or pace); such
// refusals have no domain kind.
type refusal struct {
	status       int
	code, detail string
	// format and args are what detail was made of, for its translation (translateProblem).
	format string
	args   []any
}

// refuse is a refusal with its own status, its detail made of format and args as domain.Errorf's
// is (every format is a message id of play/i18n's catalogs).
func refuse(status int, code, format string, args ...any) *refusal {
	return &refusal{status: status, code: code, detail: fmt.Sprintf(format, args...), format: format, args: args}
}

func (r *refusal) Error() string { return r.code + ": " + r.detail }

func (s *Server) problemFor(err error) openapi.Problem {
	var r *refusal
	if errors.As(err, &r) {
		return newProblem(r.status, r.code, r.detail)
	}
	var de *domain.Error
	if errors.As(err, &de) {
		status := statusOfKind[de.Kind]
		if status == 0 {
			status = http.StatusInternalServerError
		}
		p := newProblem(status, de.Code, de.Message)
		if status >= 500 && de.Kind != domain.KindUnavailable {
			p.Detail = ptr("Something went wrong on our side. Quote the request ID when you report it.")
		}
		if len(de.Fields) > 0 {
			p.Errors = ptr(fieldErrors(de.Fields))
		}
		if (status < 500 || de.Kind == domain.KindUnavailable) && de.Facts != nil {
			if facts, err := json.Marshal(de.Facts); err == nil {
				p.Facts = ptr(openapi.RefusalFacts(facts))
			}
		}
		return p
	}
	if explained := explainOptions(err); explained != nil {
		return s.problemFor(explained)
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return problemForHTTPError(he)
	}
	if s.database.InDoubt(err) {
		return newProblem(http.StatusServiceUnavailable, "unavailable",
			"The database connection was lost while saving: the change may or may not have been made. Reload before trying again, or retry with the same Idempotency-Key.")
	}
	if s.database.IsUnavailable(err) {
		return newProblem(http.StatusServiceUnavailable, "unavailable", "The database is not reachable right now; try again shortly.")
	}
	return newProblem(http.StatusInternalServerError, "internal", "Something went wrong on our side. Quote the request ID when you report it.")
}

func problemForHTTPError(he *echo.HTTPError) openapi.Problem {
	code, known := codeOfStatus[he.Code]
	if !known {
		if he.Code >= 500 {
			return newProblem(http.StatusInternalServerError, "internal", "Something went wrong on our side. Quote the request ID when you report it.")
		}
		code = strings.ReplaceAll(strings.ToLower(http.StatusText(he.Code)), " ", "_")
	}
	detail := ""
	if msg, ok := he.Message.(string); ok {
		detail = msg
	}
	var fields []openapi.FieldError
	var reqErr *openapi3filter.RequestError
	if errors.As(he.Internal, &reqErr) {
		detail, fields = describeRequestError(reqErr)
	}
	if he.Code == http.StatusNotFound {
		detail = "There is nothing at this address."
	}
	p := newProblem(he.Code, code, detail)
	if len(fields) > 0 {
		p.Errors = &fields
	}
	return p
}

// explainOptions says what is wrong with a request's game options that the contract refused as a
// whole: the contract checks them against every kind's options at once (anyOf), which says only
// that none matched. A bad option every kind shares (bot_delay_ms, hints) is explained in the
// service's own words; nil when it is not that.
func explainOptions(err error) error {
	var se *openapi3.SchemaError
	if !errors.As(err, &se) || strings.Join(se.JSONPointer(), "/") != "options" {
		return nil
	}
	options, merr := json.Marshal(se.Value)
	if merr != nil {
		return nil
	}
	return play.CheckSettings(options)
}

// describeRequestError turns a contract violation into a sentence and the field it concerns.
func describeRequestError(e *openapi3filter.RequestError) (string, []openapi.FieldError) {
	field := "body"
	if e.Parameter != nil {
		field = e.Parameter.In + "." + e.Parameter.Name
	}
	reason := e.Reason
	var se *openapi3.SchemaError
	if errors.As(e.Err, &se) {
		if ptrs := se.JSONPointer(); len(ptrs) > 0 {
			field += "." + strings.Join(ptrs, ".")
		}
		reason = se.Reason
	} else if reason == "" && e.Err != nil {
		reason = e.Err.Error()
	}
	if reason == "" {
		reason = "is not valid"
	}
	return field + ": " + reason, []openapi.FieldError{{Field: field, Message: reason}}
}

func fieldErrors(in []domain.FieldError) []openapi.FieldError {
	out := make([]openapi.FieldError, len(in))
	for i, f := range in {
		out[i] = openapi.FieldError{Field: f.Field, Message: f.Message}
	}
	return out
}

func newProblem(status int, code, detail string) openapi.Problem {
	p := openapi.Problem{
		Type:   "urn:primegames:problem:" + code,
		Title:  http.StatusText(status),
		Status: status,
		Code:   code,
	}
	if detail != "" {
		p.Detail = &detail
	}
	return p
}

func ptr[T any](v T) *T { return &v }
