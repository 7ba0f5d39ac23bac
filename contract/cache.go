package contract

import (
	"crypto/sha256"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// parsedContracts keeps each contract parsed once per process, by the hash of its text: parsing
// the 185 KB contract takes about 100 ms, and a process that builds many servers (tests, a server
// per kind set) would pay it each time. The parsed contract is only read after it is built.
var parsedContracts sync.Map // [sha256.Size]byte → *parsedContract

type parsedContract struct {
	once sync.Once
	spec *openapi3.T
	err  error
}

// Parse is Load, once per process for each contract text.
func Parse(contract []byte) (*openapi3.T, error) {
	v, _ := parsedContracts.LoadOrStore(sha256.Sum256(contract), &parsedContract{})
	p := v.(*parsedContract)
	p.once.Do(func() { p.spec, p.err = Load(contract) })
	return p.spec, p.err
}
