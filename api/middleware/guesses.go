package middleware

import (
	"math"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/domain"
)

// A code a person types (a lobby's invite code, a classroom's join code, and the sign-in codes to
// come) withstands guessing because wrong guesses are counted: every attempt takes one guess from
// two budgets before it is tried, its address's (an IPv4 address, an IPv6 /64, whatever token the
// request carries) and this instance's, and gives it back unless the code was wrong. A budget is a
// bucket that holds its limit and fills again over its window; an empty one refuses with 429
// too_many_guesses before the code is looked up.
//
// A new route that takes a typed code (the sign-in codes of issue 41) runs its lookup through
// the server's GuessGuard.Attempt and adds the code of its "no such code" refusal to wrongCodes; nothing else.
//
// With 8-character codes (31^8 ≈ 8.5·10^11) and the defaults (30 an hour per address, 300 a minute
// per instance), 50 addresses guess 25 codes a minute, and 10,000 open lobbies take them
// 8.5·10^11 / 10^4 / 25 minutes ≈ 6.5 years; any number of addresses, 300 a minute per instance:
// 197 days divided by the instances (docs/operations.md, docs/performance.md).

// GuessLimits bound the wrong guesses of codes a person types; zero values disable the guard.
type GuessLimits struct {
	PerAddress        int           // wrong guesses an address may make at once, and again over PerAddressWindow
	PerAddressWindow  time.Duration // (an hour)
	PerInstance       int           // wrong guesses this instance takes at once from all addresses, and again over PerInstanceWindow
	PerInstanceWindow time.Duration // (a minute)
	// PerClass bounds the wrong students' sign-in codes tried with one class code (AttemptIn), from
	// all addresses, at once and again over PerClassWindow (an hour); 0: no such budget.
	PerClass       int
	PerClassWindow time.Duration
}

// wrongCodes are the refusals that mean the code was guessed wrong.
var wrongCodes = map[string]bool{
	"invite_code_not_found":       true,
	"wrong_invite_code":           true,
	"join_code_not_found":         true,
	"co_teacher_invite_not_found": true, // api/coteachers.go
	// A student's sign-in (api/sign_in_cards.go): a wrong personal code or an unknown class code.
	"sign_in_code_not_found": true,
	"lti_handover_invalid":   true, // an LTI launch's one-time code (api/lti.go)
}

// GuessFacts are the facts of too_many_guesses: which budget is spent (address or instance), how
// many wrong guesses it allows over how many seconds, and when one is allowed again.
type GuessFacts struct {
	Scope             string `json:"scope"`
	Limit             int    `json:"limit"`
	WindowSeconds     int    `json:"window_seconds"`
	RetryAfterSeconds int    `json:"retry_after_seconds"`
}

// GuessGuard holds the budgets; nil lets every attempt through.
type GuessGuard struct {
	limits GuessLimits
	now    func() time.Time

	mu        sync.Mutex
	instance  guessBucket
	addresses map[netip.Prefix]*guessBucket // only those with a guess spent: bounded by PerInstance over PerAddressWindow
	classes   map[string]*guessBucket       // likewise, by class code (AttemptIn)
	swept     time.Time
}

// guessBucket is a budget: tokens left as of at.
type guessBucket struct {
	tokens float64
	at     time.Time
}

// NewGuessGuard is the guard of limits, nil when they disable it.
func NewGuessGuard(limits GuessLimits, now func() time.Time) *GuessGuard {
	if limits.PerAddress <= 0 || limits.PerInstance <= 0 {
		return nil
	}
	return &GuessGuard{limits: limits, now: now, addresses: map[netip.Prefix]*guessBucket{}, classes: map[string]*guessBucket{},
		instance: guessBucket{tokens: float64(limits.PerInstance), at: now()}}
}

// GuessAddress is the budget's key of an address: an IPv4 address, the /64 of an IPv6 one (a
// single home or phone is given a whole /64).
func GuessAddress(ip string) netip.Prefix {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return netip.Prefix{}
	}
	a = a.Unmap()
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.WithZone("").Prefix(64)
	return p
}

// Attempt runs try, the trying of a code the request c brings, within the budgets: refused with
// too_many_guesses when either is empty, counted when try answers that the code is wrong.
func (g *GuessGuard) Attempt(c echo.Context, try func() error) error {
	return g.AttemptIn(c, "", try)
}

// AttemptIn is Attempt with a third budget, the class's (a student's sign-in with the class code
// class, normalised): however many addresses guess the personal codes of one class, they take no
// more than PerClass wrong ones from it over PerClassWindow. "" or a zero PerClass: no such budget.
func (g *GuessGuard) AttemptIn(c echo.Context, class string, try func() error) error {
	if g == nil {
		return try()
	}
	if g.limits.PerClass <= 0 {
		class = ""
	}
	addr := GuessAddress(c.RealIP())
	if err := g.take(addr, class); err != nil {
		c.Response().Header().Set("Retry-After", strconv.Itoa(err.Facts.(GuessFacts).RetryAfterSeconds))
		return err
	}
	err := try()
	if !wrongCodes[domain.ErrorCode(err)] {
		g.giveBack(addr, class)
	}
	return err
}

func (g *GuessGuard) take(addr netip.Prefix, class string) *domain.Error {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	l := g.limits
	g.instance.fill(now, l.PerInstance, l.PerInstanceWindow)
	if now.Sub(g.swept) > time.Minute {
		for a, b := range g.addresses {
			if b.fill(now, l.PerAddress, l.PerAddressWindow) {
				delete(g.addresses, a)
			}
		}
		for k, b := range g.classes {
			if b.fill(now, l.PerClass, l.PerClassWindow) {
				delete(g.classes, k)
			}
		}
		g.swept = now
	}
	b := g.addresses[addr]
	if b == nil {
		b = &guessBucket{tokens: float64(l.PerAddress), at: now}
	} else if b.fill(now, l.PerAddress, l.PerAddressWindow) {
		delete(g.addresses, addr)
	}
	if b.tokens < 1 {
		return tooManyGuesses("address", l.PerAddress, l.PerAddressWindow, b.wait(l.PerAddress, l.PerAddressWindow),
			"Too many wrong codes from this address; check the code, and try again in %d seconds.")
	}
	if g.instance.tokens < 1 {
		return tooManyGuesses("instance", l.PerInstance, l.PerInstanceWindow, g.instance.wait(l.PerInstance, l.PerInstanceWindow),
			"Too many wrong codes are being tried right now; try again in %d seconds.")
	}
	var cb *guessBucket
	if class != "" {
		if cb = g.classes[class]; cb == nil {
			cb = &guessBucket{tokens: float64(l.PerClass), at: now}
		} else if cb.fill(now, l.PerClass, l.PerClassWindow) {
			delete(g.classes, class)
		}
		if cb.tokens < 1 {
			return tooManyGuesses("classroom", l.PerClass, l.PerClassWindow, cb.wait(l.PerClass, l.PerClassWindow),
				"Too many wrong sign-in codes were tried in this class; ask your teacher, or try again in %d seconds.")
		}
		cb.tokens--
		g.classes[class] = cb
	}
	b.tokens--
	g.instance.tokens--
	g.addresses[addr] = b
	return nil
}

func (g *GuessGuard) giveBack(addr netip.Prefix, class string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	l := g.limits
	g.instance.tokens = min(float64(l.PerInstance), g.instance.tokens+1)
	if b := g.addresses[addr]; b != nil {
		if b.tokens++; b.tokens >= float64(l.PerAddress) {
			delete(g.addresses, addr)
		}
	}
	if b := g.classes[class]; class != "" && b != nil {
		if b.tokens++; b.tokens >= float64(l.PerClass) {
			delete(g.classes, class)
		}
	}
}

// fill adds what the window gave back since b.at, and reports whether b is full.
func (b *guessBucket) fill(now time.Time, limit int, window time.Duration) (full bool) {
	if elapsed := now.Sub(b.at); elapsed > 0 {
		b.tokens = min(float64(limit), b.tokens+float64(limit)*elapsed.Seconds()/window.Seconds())
		b.at = now
	}
	return b.tokens >= float64(limit)
}

// wait is the whole seconds until b holds a guess.
func (b *guessBucket) wait(limit int, window time.Duration) int {
	perSecond := float64(limit) / window.Seconds()
	return max(1, int(math.Ceil((1-b.tokens)/perSecond)))
}

func tooManyGuesses(scope string, limit int, window time.Duration, retryAfter int, format string) *domain.Error {
	return domain.Errorf(domain.KindRateLimited, "too_many_guesses", format, retryAfter).
		WithFacts(GuessFacts{Scope: scope, Limit: limit, WindowSeconds: int(window.Seconds()), RetryAfterSeconds: retryAfter})
}
