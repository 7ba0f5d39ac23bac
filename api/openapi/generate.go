// Package openapi is generated from the service's contract, openapi.yaml: the echo server interface
// and the request and response types. Do not edit openapi.gen.go; change openapi.yaml and run
// `go generate ./api/openapi`.
package openapi

//go:generate go tool oapi-codegen -config config.yaml ../../openapi.yaml
