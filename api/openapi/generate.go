// Package openapi is generated from the service's contract, openapi.yaml: the echo server interface
// and the request and response types (openapi.gen.go), and a typed client over the same types that
// the api tests drive the server with (client.gen.go). Do not edit either; change openapi.yaml (or a
// game kind's schemas.yaml) and run `go generate ./api/openapi`, which first merges the kinds'
// schemas into openapi.yaml.
package openapi

//go:generate go run ../../tools/mergekinds ../../openapi.yaml
//go:generate go tool oapi-codegen -config config.yaml ../../openapi.yaml
//go:generate go tool oapi-codegen -config client.config.yaml ../../openapi.yaml
