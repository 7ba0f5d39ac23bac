// Package apitest drives the API over real HTTP in tests and checks every response it receives
// against openapi.yaml, so the server cannot drift from its contract unnoticed.
package apitest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"primegames"
	"primegames/contract"
)

// Contract is openapi.yaml loaded for validation.
type Contract struct {
	spec   *openapi3.T
	router routers.Router
	// facts are the schemas declared for each refusal code's facts (x-refusal-codes).
	facts map[string][]*openapi3.Schema
}

var (
	contractOnce sync.Once
	loaded       *Contract
	contractErr  error
)

// LoadContract parses openapi.yaml once per test binary.
func LoadContract(t testing.TB) *Contract {
	t.Helper()
	contractOnce.Do(func() { loaded, contractErr = NewContract(primegames.OpenAPI) })
	if contractErr != nil {
		t.Fatalf("openapi.yaml: %v", contractErr)
	}
	return loaded
}

var registerDecoders sync.Once

// NewContract parses a contract other than openapi.yaml itself, such as one merged with a test's
// own kind of game (contract.ForKinds).
func NewContract(data []byte) (*Contract, error) {
	registerDecoders.Do(func() {
		// Bodies that are not JSON are checked only for being present; their schema is a string.
		for _, ct := range []string{"application/yaml", "text/html", "text/css", "text/javascript", "image/png", "image/svg+xml", "application/x-ndjson", "text/event-stream"} {
			openapi3filter.RegisterBodyDecoder(ct, openapi3filter.PlainBodyDecoder)
		}
	})
	spec, err := contract.Load(data)
	if err != nil {
		return nil, err
	}
	router, err := gorillamux.NewRouter(spec)
	return &Contract{spec: spec, router: router, facts: factsByCode(spec)}, err
}

// Check validates one response against the operation its request matched. A response to a request
// that matches no operation must be a problem document, except a CORS preflight: it asks the server,
// not an operation, and must be answered 204 without a body.
func (c *Contract) Check(req *http.Request, status int, header http.Header, body []byte) error {
	if isPreflight(req) {
		if status != http.StatusNoContent || len(body) > 0 {
			return &openapi3filter.ResponseError{Reason: "a CORS preflight answered " + http.StatusText(status) + " with " + strconv.Itoa(len(body)) + " bytes, want 204 No Content"}
		}
		return nil
	}
	// HEAD is answered as the GET of the same path, without a body; it is checked against the head
	// operation the contract declares beside every GET, made from it (tools/mergekinds).
	head := req.Method == http.MethodHead
	if head && len(body) > 0 {
		return &openapi3filter.ResponseError{Reason: "a HEAD response has a body of " + strconv.Itoa(len(body)) + " bytes"}
	}
	if header.Get("Content-Encoding") == "gzip" && !head && status != http.StatusNotModified {
		plain, err := gunzip(body)
		if err != nil {
			return &openapi3filter.ResponseError{Reason: "a body sent with Content-Encoding: gzip does not decompress", Err: err}
		}
		body = plain
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		if head {
			return nil // a refusal of a route without GET (404, 405), without its problem document
		}
		return c.checkProblem(status, header, body)
	}
	if head {
		// kin-openapi passes every response to a HEAD unchecked; the route, found for HEAD, is the
		// head operation, and the request the validator sees says GET only to be checked against it.
		asGet := req.Clone(req.Context())
		asGet.Method = http.MethodGet
		req = asGet
	}
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	if err := validateResponse(in, status, header, body, false); err != nil {
		// The quick check stops at the first mismatch and describes none; the slow one, which
		// renders every branch of every oneOf and anyOf it tried, runs only to explain a failure.
		if detailed := validateResponse(in, status, header, body, true); detailed != nil {
			return detailed
		}
		return err
	}
	return c.checkFacts(header, body)
}

// validateResponse checks one response against its operation. Without details it is several times
// faster on the large unions of the contract (legal actions, history entries), where kin-openapi
// would otherwise format the schema of every branch that did not match.
func validateResponse(in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte, details bool) error {
	opts := &openapi3filter.Options{IncludeResponseStatus: true}
	if details {
		opts.MultiError = true
	} else {
		opts.SchemaValidationOptions = []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()}
	}
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                opts,
	})
}

func gunzip(body []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func isPreflight(req *http.Request) bool {
	return req.Method == http.MethodOptions && req.Header.Get("Origin") != "" && req.Header.Get("Access-Control-Request-Method") != ""
}

func (c *Contract) checkProblem(status int, header http.Header, body []byte) error {
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		return &openapi3filter.ResponseError{Reason: "status " + http.StatusText(status) + " for an unknown route has content type " + ct + ", want application/problem+json"}
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	if err := c.spec.Components.Schemas["Problem"].Value.VisitJSON(v); err != nil {
		return err
	}
	return c.checkFacts(header, body)
}

// Server is the API under test on a real listener.
type Server struct {
	URL      string
	t        testing.TB
	contract *Contract
	client   *http.Client
}

// Start serves handler over HTTP until the test ends, checking its responses against openapi.yaml.
func Start(t testing.TB, handler http.Handler) *Server {
	t.Helper()
	return StartWith(t, handler, LoadContract(t))
}

// StartWith is Start checking responses against contract.
func StartWith(t testing.TB, handler http.Handler, contract *Contract) *Server {
	t.Helper()
	ts := httptest.NewServer(handler)
	t.Cleanup(ts.Close)
	return &Server{URL: ts.URL, t: t, contract: contract, client: ts.Client()}
}

// Response is a received response whose body has been read.
type Response struct {
	*http.Response
	Body []byte
}

// JSON decodes the body into v, failing the test when it is not JSON.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decoding %s: %v\n%s", r.Request.URL.Path, err, r.Body)
	}
}

// Problem is the RFC 9457 body of an error response.
type Problem struct {
	Type     string `json:"type"`
	Title    string `json:"title"`
	Status   int    `json:"status"`
	Detail   string `json:"detail"`
	Instance string `json:"instance"`
	Code     string `json:"code"`
	// Facts are the refusal's machine-readable facts, when it has any.
	Facts json.RawMessage `json:"facts"`
}

// Problem decodes an error response, failing the test when it is not a problem document.
func (r *Response) Problem(t testing.TB) Problem {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Fatalf("%s %s: content type %q, want application/problem+json", r.Request.Method, r.Request.URL.Path, ct)
	}
	var p Problem
	r.JSON(t, &p)
	return p
}

// Do sends req, reads the whole response and fails the test if it breaks the contract.
func (s *Server) Do(req *http.Request) *Response {
	s.t.Helper()
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatalf("%s %s: reading body: %v", req.Method, req.URL, err)
	}
	if err := s.contract.Check(req, resp.StatusCode, resp.Header, body); err != nil {
		s.t.Errorf("%s %s answered %d against the contract: %v\n%s", req.Method, req.URL.Path, resp.StatusCode, err, truncate(body))
	}
	return &Response{Response: resp, Body: body}
}

// Request builds a request to path with an optional JSON body and header pairs ("Name", "value", ...).
func (s *Server) Request(method, path string, body any, headers ...string) *http.Request {
	s.t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		r = bytes.NewReader(b)
	case string:
		r = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			s.t.Fatalf("encoding request body: %v", err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.URL+path, r)
	if err != nil {
		s.t.Fatalf("building request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return req
}

// Get is Do(Request("GET", path, nil, headers...)).
func (s *Server) Get(path string, headers ...string) *Response {
	s.t.Helper()
	return s.Do(s.Request(http.MethodGet, path, nil, headers...))
}

// Post is Do(Request("POST", path, body, headers...)).
func (s *Server) Post(path string, body any, headers ...string) *Response {
	s.t.Helper()
	return s.Do(s.Request(http.MethodPost, path, body, headers...))
}

func truncate(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}
