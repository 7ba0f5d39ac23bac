package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// errNotOneValue is DecodeStrict's complaint about anything after the first JSON value.
var errNotOneValue = errors.New("it must be a single JSON value with nothing after it")

// DecodeStrict decodes raw into v the way every engine reads what it is sent or has stored: raw must
// be exactly one JSON value, and an object field that v does not have is an error rather than
// something silently dropped. The error is encoding/json's (or errNotOneValue), for the caller to
// wrap in its own words.
func DecodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errNotOneValue
	}
	return nil
}
