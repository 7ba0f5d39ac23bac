package api

import (
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
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
// A body that passed once for an operation with a Content-Type passes again: the validator's
// verdict on a body depends on nothing else (it sets no defaults in it). So a request whose body,
// operation and Content-Type are those of a request that passed has everything but its body checked
// (validBodies); a POST of an action is most often a body sent before (a roll, a draw, a move of
// the same dice), and checking it against the contract's anyOf of every kind's actions cost a
// tenth of an action's CPU.
func validateRequests(spec *openapi3.T, options *oapimw.Options) echo.MiddlewareFunc {
	routes := contractOperations(spec)
	withoutBody := *options
	withoutBody.Options.ExcludeRequestBody = true
	passed := newValidBodies(validBodiesMax)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			opKey := req.Method + " " + c.Path()
			route, ok := routes[opKey]
			if !ok {
				return next(c)
			}
			found := foundRoute{route: route, params: pathParams(route.Path, req.URL.EscapedPath())}
			key, cacheable := bodyKeyOf(opKey, req)
			opts := options
			if cacheable && passed.has(key) {
				opts = &withoutBody
			}
			if err := oapimw.ValidateRequestFromContext(c, found, opts); err != nil {
				return explainBody(err, req)
			}
			if cacheable && opts == options {
				passed.add(key)
			}
			return next(c)
		}
	}
}

const (
	validBodiesMax    = 4096 // bodies remembered; about 1 MB at most
	validBodyMaxBytes = 200  // larger bodies are always checked
)

// bodyKeyOf is what the validator's verdict on req's body depends on: the operation, the
// Content-Type and the body (as bodyGate read it); false when the body is not one to remember.
func bodyKeyOf(opKey string, req *http.Request) (string, bool) {
	if req.GetBody == nil || req.ContentLength <= 0 || req.ContentLength > validBodyMaxBytes {
		return "", false
	}
	r, err := req.GetBody()
	if err != nil {
		return "", false
	}
	var key strings.Builder
	key.Grow(len(opKey) + 64 + int(req.ContentLength))
	key.WriteString(opKey)
	key.WriteByte(0)
	key.WriteString(req.Header.Get(echo.HeaderContentType))
	key.WriteByte(0)
	if _, err := io.Copy(&key, r); err != nil {
		return "", false
	}
	return key.String(), true
}

// validBodies is a set of body keys that passed validation, forgotten all at once when full.
type validBodies struct {
	mu   sync.RWMutex
	max  int
	keys map[string]struct{}
}

func newValidBodies(max int) *validBodies {
	return &validBodies{max: max, keys: map[string]struct{}{}}
}

func (v *validBodies) has(key string) bool {
	v.mu.RLock()
	defer v.mu.RUnlock()
	_, ok := v.keys[key]
	return ok
}

func (v *validBodies) add(key string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.keys) >= v.max {
		clear(v.keys)
	}
	v.keys[key] = struct{}{}
}

// contractOperations are the operations of spec by "METHOD /echo/:path".
func contractOperations(spec *openapi3.T) map[string]*routers.Route {
	var server *openapi3.Server
	if len(spec.Servers) > 0 {
		server = spec.Servers[0]
	}
	routes := map[string]*routers.Route{}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			routes[method+" "+pathParameter.ReplaceAllString(path, ":$1")] = &routers.Route{
				Spec: spec, Server: server, Path: path, PathItem: item, Method: method, Operation: op,
			}
		}
	}
	return routes
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
