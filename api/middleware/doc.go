// Package middleware holds the server's HTTP middleware that needs nothing of its handlers:
// compression (compress.go), request IDs (request_id.go), the request deadline (deadline.go), CORS
// (cors.go), the rate limits (ratelimit.go), the guard on typed codes (guesses.go, which handlers
// run their lookup through) and the connection wrapper that answers net/http's own refusals with
// problem documents (problem_conn.go). api chains them with its own (api/middleware.go: the access log, the body
// gate, the contract's validator, identity) and gives single routes theirs (api/routes.go).
package middleware
