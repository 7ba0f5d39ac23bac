package apitest

import (
	"bytes"
	"context"
	"io"
	"net/http"

	"primegames/api/openapi"
)

// Client is the typed client generated from openapi.yaml, sending its requests through s: every
// response it decodes has been checked against the contract first.
func (s *Server) Client() *openapi.ClientWithResponses {
	s.t.Helper()
	c, err := openapi.NewClientWithResponses(s.URL, openapi.WithHTTPClient(checked{s}))
	if err != nil {
		s.t.Fatalf("typed client: %v", err)
	}
	return c
}

// checked is the typed client's transport: Server.Do, with the read body handed back.
type checked struct{ s *Server }

func (c checked) Do(req *http.Request) (*http.Response, error) {
	c.s.t.Helper()
	resp := c.s.Do(req)
	resp.Response.Body = io.NopCloser(bytes.NewReader(resp.Body))
	return resp.Response, nil
}

// Bearer sends token as the request's bearer token; no token sends none.
func Bearer(token string) openapi.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return nil
	}
}
