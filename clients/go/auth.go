package client

import (
	"context"
	"net/http"
)

// Bearer sends token as the request's bearer token (a seat, creator, teacher, student or observer
// token); an empty token sends none, which reads what anyone may read.
func Bearer(token string) RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return nil
	}
}
