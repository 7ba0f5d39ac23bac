package api_test

import (
	"net/http"
	"testing"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// With ADMIN_TOKEN set, only its holder creates classrooms.
func TestAdminTokenGuardsClassroomCreation(t *testing.T) {
	t.Parallel()
	s := adminServer(t, "operator-secret")
	body := map[string]string{"name": "4C"}
	for name, headers := range map[string][]string{
		"no token":    nil,
		"wrong token": bearer("guess"),
	} {
		if resp := s.Post("/v1/classrooms", body, headers...); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s = %d, want 401", name, resp.StatusCode)
		}
	}
	if resp := s.Post("/v1/classrooms", body, bearer("operator-secret")...); resp.StatusCode != http.StatusCreated {
		t.Errorf("admin token = %d, want 201: %s", resp.StatusCode, resp.Body)
	}
}

// The profiler is served only on ADMIN_ADDR (cmd/primegames), never on the public address.
func TestPublicAddressServesNoProfiler(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/profile?seconds=1", "/debug/pprof/heap"} {
		if resp := s.Get(path); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404", path, resp.StatusCode)
		}
	}
}

// adminServer starts an instance whose ADMIN_TOKEN is token.
func adminServer(t *testing.T, token string) *apitest.Server {
	t.Helper()
	cfg := testConfig()
	cfg.AdminToken = token
	srv, err := newAPI(cfg, repotest.NewDB(t), quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return apitest.Start(t, srv)
}
