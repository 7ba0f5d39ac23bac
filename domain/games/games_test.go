package games_test

import (
	"slices"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/games/gametest/tinygame"
)

func TestTheServiceHostsPrimeClimbAndPrimed(t *testing.T) {
	var names []string
	for _, k := range games.All().Kinds() {
		names = append(names, k.Name())
	}
	if !slices.Equal(names, []string{"prime-climb", "primed"}) {
		t.Errorf("kinds = %v", names)
	}
	climb, ok := games.All().Lookup("prime-climb")
	if !ok || climb.Board == nil || climb.SchemaPrefix() != "PrimeClimb" {
		t.Errorf("prime-climb: found %v, board %v, prefix %q", ok, climb.Board != nil, climb.SchemaPrefix())
	}
	if _, ok := games.All().Lookup("chess"); ok {
		t.Error("found chess")
	}
}

func TestACatalogueRefusesAnIncompleteOrRepeatedKind(t *testing.T) {
	without := func(change func(*domain.GameKind)) domain.GameKind {
		k := tinygame.Kind
		change(&k)
		return k
	}
	for name, kinds := range map[string][]domain.GameKind{
		"no tally":    {without(func(k *domain.GameKind) { k.Tally = nil })},
		"no schemas":  {without(func(k *domain.GameKind) { k.Schemas = nil })},
		"no rules":    {without(func(k *domain.GameKind) { k.Rules = nil })},
		"twice":       {tinygame.Kind, tinygame.Kind},
		"badly named": {without(func(k *domain.GameKind) { k.Rules = renamed{k.Rules, "Tiny Game"} })},
	} {
		if _, err := domain.NewCatalogue(kinds...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := games.All().With(tinygame.Kind); err != nil {
		t.Errorf("adding the tiny game: %v", err)
	}
	if _, err := games.All().With(games.All().Kinds()[0]); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("adding prime-climb again: %v", err)
	}
}

type renamed struct {
	domain.Rules
	name string
}

func (r renamed) Name() string { return r.name }
