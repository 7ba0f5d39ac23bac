package domain

import (
	"fmt"
	"regexp"
)

// Catalogue is a fixed list of game kinds, looked up by name.
type Catalogue struct {
	kinds []GameKind
}

// kindName is what a kind may be called: it appears in URLs, JSON and the contract's GameKind enum.
var kindName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// NewCatalogue checks that every kind is complete and named once.
func NewCatalogue(kinds ...GameKind) (*Catalogue, error) {
	seen := map[string]bool{}
	for i, k := range kinds {
		switch {
		case k.Rules == nil:
			return nil, fmt.Errorf("game kind %d has no rules", i)
		case !kindName.MatchString(k.Name()):
			return nil, fmt.Errorf("game kind %d is called %q; a name is lowercase words joined by hyphens", i, k.Name())
		case seen[k.Name()]:
			return nil, fmt.Errorf("game kind %q is listed twice", k.Name())
		case len(k.Schemas) == 0:
			return nil, fmt.Errorf("game kind %q has no schemas", k.Name())
		case k.Tally == nil:
			return nil, fmt.Errorf("game kind %q has no tally", k.Name())
		}
		seen[k.Name()] = true
	}
	return &Catalogue{kinds: kinds}, nil
}

// MustCatalogue is NewCatalogue for lists fixed in code; it panics on a mistake in them.
func MustCatalogue(kinds ...GameKind) *Catalogue {
	c, err := NewCatalogue(kinds...)
	if err != nil {
		panic(err)
	}
	return c
}

// With is the catalogue with more kinds after its own.
func (c *Catalogue) With(kinds ...GameKind) (*Catalogue, error) {
	return NewCatalogue(append(c.Kinds(), kinds...)...)
}

// Lookup returns the kind named name ("prime-climb", "primed").
func (c *Catalogue) Lookup(name string) (GameKind, bool) {
	for _, k := range c.kinds {
		if k.Name() == name {
			return k, true
		}
	}
	return GameKind{}, false
}

// Kinds lists every kind, in the catalogue's order.
func (c *Catalogue) Kinds() []GameKind { return append([]GameKind(nil), c.kinds...) }
