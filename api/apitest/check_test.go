package apitest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The quick check describes no mismatch, so a failure is checked again with details: a response
// that breaks the contract must still be refused, and the error must say where it breaks it.
func TestCheckRefusesAMismatchAndExplainsIt(t *testing.T) {
	t.Parallel()
	c := LoadContract(t)
	req := httptest.NewRequest(http.MethodGet, "/v1/boards/prime-climb", nil)
	header := http.Header{"Content-Type": {"application/json"}}
	if err := c.Check(req, http.StatusOK, header, []byte(`{"squares":"not a list"}`)); err == nil {
		t.Fatal("a board whose squares are a string passed the contract check")
	} else if !strings.Contains(err.Error(), `"/squares"`) || !strings.Contains(err.Error(), "Schema:") {
		t.Errorf("the error names neither the field that broke the contract nor its schema: %v", err)
	}
	if err := c.Check(req, http.StatusTeapot, header, []byte(`{}`)); err == nil {
		t.Error("a status the operation does not declare passed the contract check")
	}
}

// A HEAD is checked against the head operation the contract declares beside its GET: routed to
// it, held to the statuses and headers it declares, and to no body.
func TestCheckHoldsHeadToItsDeclaredOperation(t *testing.T) {
	t.Parallel()
	c := LoadContract(t)
	game := "/v1/games/7a1d3b1e-9c3f-4d55-8f5e-1d2f3a4b5c6d"
	for path, want := range map[string]string{
		game:                    "headGame",
		game + "/legal-actions": "headLegalActions",
		game + "/events":        "headStreamGameEvents",
	} {
		route, _, err := c.router.FindRoute(httptest.NewRequest(http.MethodHead, path, nil))
		if err != nil {
			t.Errorf("HEAD %s matches no operation: %v", path, err)
		} else if route.Operation.OperationID != want {
			t.Errorf("HEAD %s matches %s, want %s", path, route.Operation.OperationID, want)
		}
	}
	req := httptest.NewRequest(http.MethodHead, game, nil)
	if err := c.Check(req, http.StatusOK, http.Header{"Content-Type": {"application/json"}, "Etag": {`"3"`}}, nil); err != nil {
		t.Errorf("a HEAD of a game answered 200 without a body failed the contract check: %v", err)
	}
	if err := c.Check(req, http.StatusOK, http.Header{"Content-Type": {"application/json"}}, []byte(`{}`)); err == nil {
		t.Error("a HEAD response with a body passed the contract check")
	}
	if err := c.Check(req, http.StatusTeapot, http.Header{}, nil); err == nil {
		t.Error("a HEAD answered with a status its GET does not declare passed the contract check")
	}
	// headGame's 401, like getGame's, must say how to authenticate.
	if err := c.Check(req, http.StatusUnauthorized, http.Header{"Content-Type": {"application/problem+json"}}, nil); err == nil {
		t.Error("a HEAD answered 401 without WWW-Authenticate passed the contract check")
	}
}
