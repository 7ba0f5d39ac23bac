// Package client is a typed HTTP client of the service, generated from openapi.yaml for the api
// tests (which check every response against the contract in api/apitest). Do not edit client.gen.go;
// run `go generate ./api/openapi`.
package client
