// Package openapi is generated from the service's contract, openapi.yaml: the echo server interface
// and the request and response types (openapi.gen.go). Do not edit it; change openapi.yaml (or a
// game kind's schemas.yaml) and run `go generate ./api/openapi`, which first merges the kinds'
// schemas into openapi.yaml, then generates this package and the Go client module's types and
// client (clients/go/client.gen.go, the module primegames.dev/client that the api tests use).
package openapi

//go:generate go run ../../tools/mergekinds ../../openapi.yaml
//go:generate go tool oapi-codegen -config config.yaml ../../openapi.yaml
//go:generate go tool oapi-codegen -config ../../clients/go/oapi-codegen.yaml ../../openapi.yaml
