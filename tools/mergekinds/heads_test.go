package main

import (
	"bytes"
	"maps"
	"slices"
	"testing"

	"primegames"
	"primegames/contract"
)

// openapi.yaml has the head operations declareHeads makes, each with its GET's parameters and
// statuses: a GET changed without `go generate ./api/openapi` fails here.
func TestContractDeclaresAHeadBesideEveryGet(t *testing.T) {
	t.Parallel()
	again, err := declareHeads(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, primegames.OpenAPI) {
		t.Fatal("openapi.yaml's head operations are not the ones its get operations make: run go generate ./api/openapi")
	}
	spec, err := contract.Load(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	heads := 0
	for path, item := range spec.Paths.Map() {
		if item.Get == nil {
			if item.Head != nil {
				t.Errorf("%s declares head without get", path)
			}
			continue
		}
		if item.Head == nil {
			t.Errorf("GET %s has no head operation", path)
			continue
		}
		heads++
		if len(item.Head.Parameters) != len(item.Get.Parameters) {
			t.Errorf("HEAD %s has %d parameters, its GET %d", path, len(item.Head.Parameters), len(item.Get.Parameters))
		}
		if got, want := slices.Sorted(maps.Keys(item.Head.Responses.Map())), slices.Sorted(maps.Keys(item.Get.Responses.Map())); !slices.Equal(got, want) {
			t.Errorf("HEAD %s answers %v, its GET %v", path, got, want)
		}
		for status, response := range item.Head.Responses.Map() {
			if len(response.Value.Content) != 0 {
				t.Errorf("HEAD %s declares content for %s", path, status)
			}
			if len(response.Value.Headers) != len(item.Get.Responses.Value(status).Value.Headers) {
				t.Errorf("HEAD %s %s declares other headers than its GET's", path, status)
			}
		}
	}
	if heads < 30 {
		t.Errorf("only %d head operations", heads)
	}
}
