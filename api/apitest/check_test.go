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
