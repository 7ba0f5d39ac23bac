package api

import (
	"testing"

	"primegames"
	"primegames/contract"
)

// Every route the table names is an operation of the contract: a misspelt one would silently run
// without its middleware (a render without the gate).
func TestRouteMiddlewareNamesOperationsOfTheContract(t *testing.T) {
	t.Parallel()
	spec, err := contract.Parse(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	operations := map[string]bool{}
	for _, item := range spec.Paths.Map() {
		for _, op := range item.Operations() {
			operations[op.OperationID] = true
		}
	}
	table := (&Server{}).routeMiddleware()
	if len(table) < 5 {
		t.Fatalf("the table has %d routes; the five renders at least belong in it", len(table))
	}
	for id := range table {
		if !operations[id] {
			t.Errorf("the route table names %q, which is no operation of openapi.yaml", id)
		}
	}
}
