// Package primegames holds what the whole module shares at its root: the OpenAPI contract.
package primegames

import _ "embed"

// OpenAPI is openapi.yaml, the contract the server implements and serves at /openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte
