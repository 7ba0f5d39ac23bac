package apitest

import (
	"bytes"
	"io"
	"net/http"

	"primegames.dev/client"
)

// Client is the Go client module's typed client (primegames.dev/client, in clients/go), sending
// its requests through s: every response it decodes has been checked against the contract first.
func (s *Server) Client() *client.ClientWithResponses {
	s.t.Helper()
	c, err := client.NewClientWithResponses(s.URL, client.WithHTTPClient(checked{s}))
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
func Bearer(token string) client.RequestEditorFn { return client.Bearer(token) }
