package primeclimb

import (
	"bytes"
	"encoding/json"

	"primegames/domain"
)

// Options are the game options. PrimeCards false is the "no cards" game of PC-11.
type Options struct {
	PrimeCards bool `json:"prime_cards"`
}

// DefaultOptions plays with Prime Cards.
func DefaultOptions() Options { return Options{PrimeCards: true} }

// ParseOptions reads raw options strictly: nil, null or {} mean the defaults; unknown fields are refused.
func ParseOptions(raw json.RawMessage) (Options, error) {
	var in struct {
		PrimeCards *bool `json:"prime_cards"`
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) != 0 && !bytes.Equal(trimmed, []byte("null")) {
		if err := domain.DecodeStrict(trimmed, &in); err != nil {
			return Options{}, domain.Invalid("invalid_options", "prime-climb options must be an object like {\"prime_cards\": true}: %v", err)
		}
	}
	opts := DefaultOptions()
	if in.PrimeCards != nil {
		opts.PrimeCards = *in.PrimeCards
	}
	return opts, nil
}

func (o Options) canonical() json.RawMessage {
	b, _ := json.Marshal(o)
	return b
}
