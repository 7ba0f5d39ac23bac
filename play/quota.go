package play

import (
	"context"
	"encoding/hex"
	"time"

	"primegames/domain"
)

// Quotas bound what one client may hold at once (issue 23). A client is its bearer token when
// the request that created the game carried one, else its address; an address's bounds count every
// game created from it, with a token or without, so that tokens a client makes up do not multiply
// what it may hold. A bound of 0 is no bound.
type Quotas struct {
	// OpenGames is how many games a client with a token may hold in a lobby or active at once;
	// ComputerGames how many of those may be active with no person in a seat.
	OpenGames, ComputerGames int
	// AddressOpenGames and AddressComputerGames are the same bounds for an address: what a client
	// without a token (its address) may hold, and what all the clients behind one address may.
	AddressOpenGames, AddressComputerGames int
}

// The default quotas. A class of 30 children behind one school router holds, in normal play, a game
// or two each and some lobbies nobody started: 500 games not over per address leaves room for ten
// times that. A person with a token rarely has more than a handful of games going; 50 leaves room for
// a teacher's groups and lobbies. Games with no person in them are for watching computers play; a
// client runs a few at a time, a class a few dozen.
var DefaultQuotas = Quotas{OpenGames: 50, ComputerGames: 5, AddressOpenGames: 500, AddressComputerGames: 30}

// computerGameRetry is the Retry-After of a refusal for too many games with no person: computer
// games of the default length end within minutes, so a client that waits a minute may find a slot.
const computerGameRetry = time.Minute

// Owner is whom a new game counts against: Client names the creating client ("token:<hash>" or
// "address:<address>"), Address the address it came from ("" when not known). The store keeps
// only keyed hashes of them.
type Owner struct {
	Client, Address string
}

// Holdings are the games not over that a client and an address hold: Open in a lobby or active,
// Computer active with no person in a seat.
type Holdings struct {
	ClientOpen, ClientComputer, AddressOpen, AddressComputer int
}

// QuotaFacts are the facts of quota_exceeded: which bound (quota open_games or computer_games, for
// the scope client or address), its limit and the count held already. RetryAfterSeconds, when set,
// is how long waiting may take to help (the response's Retry-After); none when only ending games
// helps.
type QuotaFacts struct {
	Quota             string `json:"quota"`
	Scope             string `json:"scope"`
	Limit             int    `json:"limit"`
	Count             int    `json:"count"`
	RetryAfterSeconds int    `json:"retry_after_seconds,omitempty"`
}

// ownerOf is the client that creates a game: the token the principal presented, else the address.
func ownerOf(p Principal, address string) Owner {
	if len(p.TokenHash) > 0 {
		return Owner{Client: "token:" + hex.EncodeToString(p.TokenHash), Address: address}
	}
	return Owner{Client: "address:" + address, Address: address}
}

// checkQuotas refuses a new game that would take the owner beyond a quota; computerOnly says
// whether it starts with no person in a seat.
func (s *Service) checkQuotas(ctx context.Context, tx Tx, o Owner, computerOnly bool) error {
	q := s.quotas
	if q == (Quotas{}) {
		return nil
	}
	h, err := tx.Holdings(ctx, o)
	if err != nil {
		return err
	}
	token := len(o.Client) > len("token:") && o.Client[:len("token:")] == "token:"
	type bound struct {
		quota, scope string
		limit, count int
		applies      bool
	}
	bounds := []bound{ // the narrower bounds first: their refusals say more
		{"computer_games", "client", q.ComputerGames, h.ClientComputer, computerOnly && token},
		{"computer_games", "address", q.AddressComputerGames, h.AddressComputer, computerOnly && o.Address != ""},
		{"open_games", "client", q.OpenGames, h.ClientOpen, token},
		{"open_games", "address", q.AddressOpenGames, h.AddressOpen, o.Address != ""},
	}
	for _, b := range bounds {
		if !b.applies || b.limit <= 0 || b.count < b.limit {
			continue
		}
		facts := QuotaFacts{Quota: b.quota, Scope: b.scope, Limit: b.limit, Count: b.count}
		who := "This client holds"
		if b.scope == "address" {
			who = "The clients at this address hold"
		}
		if b.quota == "computer_games" {
			facts.RetryAfterSeconds = int(computerGameRetry.Seconds())
			return domain.Errorf(domain.KindRateLimited, "quota_exceeded",
				"%s %d games with no person in them, the most allowed; wait for one to end, or abort one, then try again.", who, b.count).
				WithFacts(facts)
		}
		return domain.Errorf(domain.KindRateLimited, "quota_exceeded",
			"%s %d games in a lobby or under way, the most allowed; finish or abort one before creating another.", who, b.count).
			WithFacts(facts)
	}
	return nil
}
