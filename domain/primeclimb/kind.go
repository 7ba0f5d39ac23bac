package primeclimb

import (
	_ "embed"

	"primegames/domain"
)

//go:embed schemas.yaml
var schemas []byte

// Kind is Prime Climb as the service hosts it; its reference data is the board.
var Kind = domain.GameKind{Rules: Rules, Schemas: schemas, Tally: Tally, TallyOutcome: TallyOutcome, Mistake: mistake, Board: BoardReference{Squares: Board()}, Greedy: greedy, Advisor: &Advisor,
	Picture: picture}

// BoardReference is the board as GET /v1/boards/prime-climb serves it.
type BoardReference struct {
	Squares []Square `json:"squares"`
}
