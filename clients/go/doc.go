// Package client is a Go client of the Prime games API (Prime Climb and Primed): the request and
// response types and a typed client generated from the service's contract, openapi.yaml
// (client.gen.go), and a few hand-written helpers:
//
//   - kinds.go: Kind and typed accessors (PrimeClimb, Primed) on the values whose fields depend on
//     the kind of game (Game, LegalActions, HistoryEntry, Scores), so that a switch on the kind
//     gives that kind's state directly;
//   - stream.go: FollowGame, FollowClassroom and FollowMe, which read a live stream as NDJSON, skip
//     heartbeats, remember the last id to resume from and end a stream silent longer than its
//     idle limit with ErrStreamSilent (Stream.SetIdleLimit; 45 s, three heartbeats, by default);
//   - auth.go: Bearer, a request editor that sends a token;
//   - requests.go: a game's options and an action from the kind's own types (PrimeClimbGame,
//     PrimedGame, Player, Computer, OptionsOf, ActionOf, PostActionOf), where the generated
//     requests take JSON.
//
// The module has no dependency on the server. Do not edit client.gen.go: it is regenerated from
// the repository root with `go generate ./api/openapi` (config: oapi-codegen.yaml).
package client
