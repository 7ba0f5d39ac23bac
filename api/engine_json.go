package api

import gojson "github.com/goccy/go-json"

// marshalEngine encodes what an engine hands over for a body, encoded on every action and every
// read of a new version of a game: a state's view, legal actions, an outcome. It uses
// github.com/goccy/go-json, which writes the same bytes as encoding/json for every value the
// engines hand over (TestEngineJSONAsEncodingJSON) in about half the time.
func marshalEngine(v any) ([]byte, error) { return gojson.Marshal(v) }
