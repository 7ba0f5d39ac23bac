package primed

import (
	_ "embed"

	"primegames/domain"
)

//go:embed schemas.yaml
var schemas []byte

// Kind is Primed as the service hosts it.
var Kind = domain.GameKind{Rules: Rules, Schemas: schemas, Tally: Tally, TallyOutcome: TallyOutcome, Measures: Measures, Mistake: mistake, Greedy: greedy,
	Advisor: &Advisor, Picture: picture}
