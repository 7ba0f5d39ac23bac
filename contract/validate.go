package contract

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/labstack/echo/v4"
	oapimw "github.com/oapi-codegen/echo-middleware"
)

// validateRequests checks each request of a route of the contract against it, as
// oapimw.OapiRequestValidatorWithOptions does, but without asking a second router which operation
// the request is for: echo has found it already, and matching the path against every path of the
// contract's regular expressions again cost a tenth of a GET's CPU. Requests that match no route
// of the contract are not checked (they get echo's own 404 or 405).
//
// The validator's verdict depends only on what it reads (it sets no defaults, and authentication
// is identify's, not its): the operation, the path, the query, the header parameters the contract
// declares for the operation and, for an operation that takes a body, the Content-Type and the
// body; and it is the verdict on each of them. So a request whose operation, path and query are
// those of a request that passed (passedRequests) and whose body, operation and Content-Type are
// those of a request that passed (passedBodies), not necessarily the same one, has only its header
// parameters checked: a client polling its game's legal actions sends the same GET again and
// again, and an action is most often a body sent before (a roll, a draw, a move of the same dice)
// on the path of the game's earlier actions, with another Idempotency-Key. A request with a body
// that passed before and a path or query not seen has everything but its body checked; checking
// an action against the contract's anyOf of every kind's actions cost a tenth of its CPU.
//
// A body refused is explained (explainBody): by explain when it says what is wrong (the service's
// own words for a bad option), else by the field where the body departs from its schema.
func validateRequests(spec *openapi3.T, options *oapimw.Options, explain func(error) error) echo.MiddlewareFunc {
	return newValidator(spec, options, explain).Middleware
}

// Validator checks requests against the contract: CheckBody a request's body as one JSON document,
// Middleware the whole request (validateRequests).
type Validator struct {
	operations           map[string]*contractOperation
	options, withoutBody *oapimw.Options
	explain              func(error) error
	// passedBodies are the bodies (with their operation and Content-Type) that passed CheckBody and
	// the contract, passedRequests the requests (but their bodies and header parameters) that
	// passed the contract.
	passedBodies, passedRequests *passedKeys
}

// NewValidator is the service's validator of requests against spec; a body the contract refuses is
// explained by explain first, when it is not nil and says what is wrong.
func NewValidator(spec *openapi3.T, explain func(error) error) *Validator {
	return newValidator(spec, &oapimw.Options{
		// Defaults stay out of the body: each engine fills in its own options, and the schemas of both
		// games' options would otherwise both write theirs.
		// Messages leave out the schema and the value: writing a 60 KB body into each message of an
		// anyOf costs far more than validating it, and the service's problems use only the reason.
		Options: openapi3filter.Options{
			AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
			SkipSettingDefaults:     true,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()},
		},
	}, explain)
}

func newValidator(spec *openapi3.T, options *oapimw.Options, explain func(error) error) *Validator {
	withoutBody := *options
	withoutBody.Options.ExcludeRequestBody = true
	return &Validator{
		operations: contractOperations(spec), options: options, withoutBody: &withoutBody, explain: explain,
		passedBodies: newPassedKeys(passedKeysMax), passedRequests: newPassedKeys(passedKeysMax),
	}
}

// bodyKeyName is where CheckBody leaves a body's key for Middleware, in the request's echo.Context.
const bodyKeyName = "contract.bodyKey"

// CheckBody says why body, the whole body of c's request, is not one JSON document as
// CheckJSONDocument takes it; nil when it is. A body that passed it and the contract before, for
// the same operation and Content-Type, passed this check too and is not checked again: the same
// bytes get the same verdict. It leaves the body's key for Middleware, which then reads the body
// no second time to know whether it passed.
func (v *Validator) CheckBody(c echo.Context, body []byte) error {
	opKey := c.Request().Method + " " + c.Path()
	if key, ok := bodyKey(opKey, c.Request().Header.Get(echo.HeaderContentType), body); ok {
		c.Set(bodyKeyName, key)
		if v.passedBodies.has(key) {
			return nil
		}
	}
	return CheckJSONDocument(body)
}

// Middleware checks each request of a route of the contract against it (validateRequests).
func (v *Validator) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		opKey := req.Method + " " + c.Path()
		op, ok := v.operations[opKey]
		if !ok {
			return next(c)
		}
		// The verdict is the verdict on each part: the body (with its Content-Type), and the
		// path, query and header parameters, each checked on its own. So a body that passed once
		// and a path and query that passed once, perhaps with another body, pass together, with
		// the header parameters checked each time.
		bodyKey, bodyKnown := "", !op.takesBody
		if op.takesBody {
			bodyKey, bodyKnown = bodyKeyOf(c, opKey)
		}
		bodyPassed := !op.takesBody || bodyKnown && v.passedBodies.has(bodyKey)
		requestKey, requestKnown := op.requestKey(opKey, req)
		if bodyPassed && requestKnown && v.passedRequests.has(requestKey) && op.headersPass(req, &v.options.Options) {
			return next(c)
		}
		opts := v.options
		if op.takesBody && bodyPassed {
			opts = v.withoutBody
		}
		found := foundRoute{route: op.route, params: pathParams(op.route.Path, req.URL.EscapedPath())}
		if err := oapimw.ValidateRequestFromContext(c, found, opts); err != nil {
			return explainBody(err, req, v.explain)
		}
		if op.takesBody && bodyKnown && opts == v.options {
			v.passedBodies.add(bodyKey)
		}
		if requestKnown {
			v.passedRequests.add(requestKey)
		}
		return next(c)
	}
}

// contractOperation is an operation of the contract, with what the validator's verdict on a
// request for it depends on besides the path and the query.
type contractOperation struct {
	route *routers.Route
	// headers are the header parameters declared, in the validator's order: the path's (but those
	// the operation declares again), then the operation's.
	headers   []*openapi3.Parameter
	cookies   bool // some parameter is a cookie
	takesBody bool
}

// headersPass checks req's header parameters alone, as the validator does.
func (op *contractOperation) headersPass(req *http.Request, options *openapi3filter.Options) bool {
	if len(op.headers) == 0 {
		return true
	}
	input := &openapi3filter.RequestValidationInput{Request: req, Route: op.route, Options: options}
	for _, p := range op.headers {
		if openapi3filter.ValidateParameter(req.Context(), input, p) != nil {
			return false
		}
	}
	return true
}

// requestKeyMaxBytes bounds a remembered request's key: longer ones are always checked.
const requestKeyMaxBytes = 512

// requestKey is everything of req but its body and header parameters that the validator's verdict
// depends on: the operation, the path, the query and any cookies; false when the request is not
// one to remember.
func (op *contractOperation) requestKey(opKey string, req *http.Request) (string, bool) {
	var key strings.Builder
	key.WriteString(opKey)
	key.WriteByte(0)
	key.WriteString(req.URL.EscapedPath())
	key.WriteByte(0)
	key.WriteString(req.URL.RawQuery)
	if op.cookies {
		writeValues(&key, req.Header.Values("Cookie"))
	}
	if key.Len() > requestKeyMaxBytes {
		return "", false
	}
	return key.String(), true
}

const (
	passedKeysMax     = 4096 // bodies, and requests, remembered: about 1 MB and 2 MB at most
	validBodyMaxBytes = 200  // larger bodies are always checked
)

// bodyKeyOf is what the validator's verdict on the body of c's request depends on: the operation,
// the Content-Type and the body (as CheckBody left it, or else read anew); false when the body is
// not one to remember.
func bodyKeyOf(c echo.Context, opKey string) (string, bool) {
	if key, ok := c.Get(bodyKeyName).(string); ok {
		return key, true
	}
	req := c.Request()
	if req.GetBody == nil || req.ContentLength <= 0 || req.ContentLength > validBodyMaxBytes {
		return "", false
	}
	r, err := req.GetBody()
	if err != nil {
		return "", false
	}
	body, err := io.ReadAll(io.LimitReader(r, validBodyMaxBytes+1))
	if err != nil {
		return "", false
	}
	return bodyKey(opKey, req.Header.Get(echo.HeaderContentType), body)
}

// bodyKey is the key of a body for an operation and Content-Type; false when it is too large to
// remember.
func bodyKey(opKey, contentType string, body []byte) (string, bool) {
	if len(body) == 0 || len(body) > validBodyMaxBytes {
		return "", false
	}
	var key strings.Builder
	key.Grow(len(opKey) + len(contentType) + 2 + len(body))
	key.WriteString(opKey)
	key.WriteByte(0)
	key.WriteString(contentType)
	key.WriteByte(0)
	key.Write(body)
	return key.String(), true
}

// passedKeys is a set of keys (of bodies or of requests) that passed validation, forgotten all at
// once when full.
type passedKeys struct {
	mu   sync.RWMutex
	max  int
	keys map[string]struct{}
}

func newPassedKeys(max int) *passedKeys {
	return &passedKeys{max: max, keys: map[string]struct{}{}}
}

func (v *passedKeys) has(key string) bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	_, ok := v.keys[key]
	return ok
}

func (v *passedKeys) add(key string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.keys) >= v.max {
		clear(v.keys)
	}
	v.keys[key] = struct{}{}
}

func (o *contractOperation) add(p *openapi3.Parameter) {
	switch p.In {
	case openapi3.ParameterInHeader:
		o.headers = append(o.headers, p)
	case openapi3.ParameterInCookie:
		o.cookies = true
	}
}

// writeValues writes a header's values to a key, their count first: an empty header is not an
// absent one.
func writeValues(key *strings.Builder, values []string) {
	key.WriteByte(0)
	key.WriteString(strconv.Itoa(len(values)))
	for _, v := range values {
		key.WriteByte(1)
		key.WriteString(v)
	}
}

// contractOperations are the operations of spec by "METHOD /echo/:path".
func contractOperations(spec *openapi3.T) map[string]*contractOperation {
	var server *openapi3.Server
	if len(spec.Servers) > 0 {
		server = spec.Servers[0]
	}
	operations := map[string]*contractOperation{}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			o := &contractOperation{
				route:     &routers.Route{Spec: spec, Server: server, Path: path, PathItem: item, Method: method, Operation: op},
				takesBody: op.RequestBody != nil,
			}
			for _, p := range item.Parameters {
				if op.Parameters.GetByInAndName(p.Value.In, p.Value.Name) == nil {
					o.add(p.Value)
				}
			}
			for _, p := range op.Parameters {
				o.add(p.Value)
			}
			operations[method+" "+pathParameter.ReplaceAllString(path, ":$1")] = o
		}
	}
	return operations
}

// pathParams reads the parameters of template ("/v1/games/{id}") from the escaped path of a request
// echo matched to it, as they stand in the path (the validator decodes them).
func pathParams(template, escapedPath string) map[string]string {
	if !strings.Contains(template, "{") {
		return nil
	}
	params := map[string]string{}
	names, values := strings.Split(template, "/"), strings.Split(escapedPath, "/")
	for i, name := range names {
		if strings.HasPrefix(name, "{") && i < len(values) {
			params[strings.Trim(name, "{}")] = values[i]
		}
	}
	return params
}

// foundRoute is the route echo found, told to the validator.
type foundRoute struct {
	route  *routers.Route
	params map[string]string
}

func (f foundRoute) FindRoute(*http.Request) (*routers.Route, map[string]string, error) {
	return f.route, f.params, nil
}

// BodyRoutes lists the operations of the contract that take a request body (all of them JSON), as
// "METHOD /path/:param" like echo names its routes.
func BodyRoutes(spec *openapi3.T) map[string]bool {
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
