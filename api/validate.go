package api

import (
	"net/http"
	"strings"

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
func validateRequests(spec *openapi3.T, options *oapimw.Options) echo.MiddlewareFunc {
	routes := contractOperations(spec)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			route, ok := routes[c.Request().Method+" "+c.Path()]
			if !ok {
				return next(c)
			}
			found := foundRoute{route: route, params: pathParams(route.Path, c.Request().URL.EscapedPath())}
			if err := oapimw.ValidateRequestFromContext(c, found, options); err != nil {
				return err
			}
			return next(c)
		}
	}
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
