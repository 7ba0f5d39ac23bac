package play

import (
	"context"
	"crypto/subtle"
	"strings"
	"unicode"
	"unicode/utf8"

	"primegames/domain"
)

// A private lobby (NewGame without Public, outside classrooms) is joined with its invite code, a
// code of eight letters and digits that children do not mix up, grouped ABCD-EFGH, as a
// classroom's join code is. Its creator seats players without it, and may choose their seats. A
// lobby's code ends with the lobby: when its game starts or it expires (LOBBY_TTL).
//
// How many guesses a code withstands is the api's guard's (api/guesses.go): 31^8 codes, failed
// guesses counted per address and per instance.

// JoinAsk is what a player joining a lobby sends.
type JoinAsk struct {
	Name string
	// InviteCode opens a private lobby; its creator needs none.
	InviteCode string
	// Seat, when set, is the seat the creator gives the new player: the seats from it on move up
	// by one. Without it the player takes the next seat.
	Seat *int
}

// codeLength is the number of characters of a code a person types (invite and join codes), the
// dash left out: 31^8 = 852,891,037,441 codes.
const codeLength = 8

// NormalCode is a typed code as it is stored: capitals, without the spaces and dashes a child may
// type, and grouped ABCD-EFGH when it has a new code's length. Codes of six characters, drawn
// before codes grew longer, are stored as they were and still match until they end.
func NormalCode(code string) string {
	var b [64]byte
	out := b[:0]
	for _, r := range strings.ToUpper(code) {
		if r == '-' || unicode.IsSpace(r) {
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	if len(out) == codeLength {
		out = append(out[:codeLength/2], append([]byte{'-'}, out[codeLength/2:]...)...)
	}
	return string(out)
}

// mayJoin lets a player into a lobby outside classrooms: anyone into a public one, into a private
// one whoever brings its invite code, and its creator, who alone chooses seats.
func mayJoin(g *GameRecord, creator bool, ask JoinAsk) error {
	if ask.Seat != nil && !creator {
		return domain.Errorf(domain.KindForbidden, "forbidden", "Only the game's creator chooses a new player's seat; send the creator token, or leave seat out.")
	}
	if !g.Private || creator {
		return nil
	}
	code := NormalCode(ask.InviteCode)
	if code == "" {
		return domain.Errorf(domain.KindForbidden, "invite_code_required", "Game %s is private: send its invite_code, which its creator got.", g.ID)
	}
	if subtle.ConstantTimeCompare([]byte(code), []byte(g.InviteCode)) != 1 {
		return domain.Errorf(domain.KindForbidden, "wrong_invite_code", "That is not the invite code of game %s; ask its creator for it.", g.ID)
	}
	return nil
}

// JoinByInviteCode gives a new player a seat in the open lobby whose invite code ask brings.
func (s *Service) JoinByInviteCode(ctx context.Context, p Principal, ask JoinAsk, idem *Idempotency) (*Joined, error) {
	code := NormalCode(ask.InviteCode)
	ids, err := s.store.OpenLobbiesByInviteCode(ctx, code)
	switch {
	case err != nil:
		return nil, err
	case len(ids) == 0:
		return nil, domain.Errorf(domain.KindNotFound, "invite_code_not_found",
			"No open lobby has the invite code %q; check it with whoever gave it to you (a lobby's code stops working once its game starts).", ask.InviteCode)
	case len(ids) > 1:
		// Two lobbies drew the code at the same instant: joining either could seat a child with strangers.
		return nil, domain.Errorf(domain.KindConflict, "invite_code_ambiguous",
			"Two open lobbies have the invite code %q; join with the game's id and its code instead.", ask.InviteCode)
	}
	ask.InviteCode = code
	return s.Join(ctx, ids[0], p, ask, idem)
}
