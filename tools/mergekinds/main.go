// Command mergekinds writes the schemas of the service's game kinds (domain/games) into the
// contract's generated part, and a `head` operation beside every `get` (heads.go);
// `go generate ./api/openapi` runs it before oapi-codegen.
//
//	go run ./tools/mergekinds openapi.yaml
package main

import (
	"fmt"
	"os"

	"primegames/contract"
	"primegames/domain/games"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mergekinds path/to/openapi.yaml")
		os.Exit(2)
	}
	if err := merge(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "mergekinds:", err)
		os.Exit(1)
	}
}

func merge(path string) error {
	base, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	merged, err := contract.MergeKinds(base, games.All().Kinds())
	if err != nil {
		return err
	}
	if merged, err = declareHeads(merged); err != nil {
		return err
	}
	return os.WriteFile(path, merged, 0o644)
}
