package middleware

import (
	"fmt"
	"math"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"primegames/domain"
)

// Per-client limits: a request rate with a burst (RateLimits), and the share of an address in the
// limits of the clients behind it (AddressShare), which the caps on event streams use too. Who a
// client is the caller says (api/clients.go: its token, hashed, or its address).

// AddressShare is how many clients' limits one address has in all, whatever tokens its requests
// carry: a classroom behind one router holds many real tokens, while tokens a client makes up must
// not multiply what it may send or hold open.
const AddressShare = 10

// ClientIPExtractor finds a request's address: X-Forwarded-For counts only when the peer is one of
// trusted (and then the nearest address it names that is not itself a trusted proxy).
func ClientIPExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// The draft's RateLimit and RateLimit-Policy, in the form net/http sends them in (as for
// RequestIDHeader): Header.Set then takes them as they are.
const (
	RateLimitHeader       = "Ratelimit"
	RateLimitPolicyHeader = "Ratelimit-Policy"
)

// RateLimits limits each client (as client names it) to perSecond on average with bursts of burst,
// and each address (as address names it) to AddressShare times that. Every response to a limited request says where the caller stands, with
// the fields of the IETF draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers):
//
//	RateLimit-Policy: "address";q=30;w=3, "client";q=3;w=3
//	RateLimit: "address";r=29;t=1, "client";r=2;t=1
//
// q is a policy's burst, refilled in full over w seconds; r is what is left of it after this
// request, t the seconds until it is full again (whole seconds, rounded up).
func RateLimits(perSecond float64, burst int, client, address func(echo.Context) string) echo.MiddlewareFunc {
	policies := []*ratePolicy{
		newRatePolicy("address", perSecond*AddressShare, burst*AddressShare, address),
		newRatePolicy("client", perSecond, burst, client),
	}
	policyField := make([]string, len(policies))
	for i, p := range policies {
		policyField[i] = fmt.Sprintf("%q;q=%d;w=%d", p.name, p.burst, p.window)
	}
	advertised := strings.Join(policyField, ", ")
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			switch c.Path() {
			case "/healthz", "/readyz", "/metrics": // probes and scrapers share addresses and must get through
				return next(c)
			}
			now := time.Now()
			limiters := make([]*rate.Limiter, len(policies))
			var refused *ratePolicy
			for i, p := range policies {
				limiters[i] = p.limiter(p.key(c), now)
				if refused == nil && !limiters[i].AllowN(now, 1) {
					refused = p
				}
			}
			h := c.Response().Header()
			h.Set(RateLimitPolicyHeader, advertised)
			standing := make([]string, len(policies))
			for i, p := range policies {
				standing[i] = p.standing(limiters[i], now)
			}
			h.Set(RateLimitHeader, strings.Join(standing, ", "))
			if refused != nil {
				h.Set("Retry-After", refused.retryAfter)
				return domain.Errorf(domain.KindRateLimited, "rate_limited",
					"Too many requests from this client; slow down and try again in %s seconds.", refused.retryAfter)
			}
			return next(c)
		}
	}
}

// ratePolicy is one limit: a token bucket per key (a client or an address).
type ratePolicy struct {
	name       string
	perSecond  float64
	burst      int
	window     int    // seconds an empty bucket takes to fill
	retryAfter string // seconds until an empty bucket holds a request
	key        func(echo.Context) string
	// A bucket idle for expiresIn is full again, so forgetting it changes nothing; this bounds the
	// memory to the keys of the last few seconds.
	expiresIn time.Duration

	mu          sync.Mutex
	buckets     map[string]*bucket
	lastCleanup time.Time
}

type bucket struct {
	limiter  *rate.Limiter
	lastSeen time.Time
}

func newRatePolicy(name string, perSecond float64, burst int, key func(echo.Context) string) *ratePolicy {
	fill := float64(burst) / perSecond
	return &ratePolicy{
		name: name, perSecond: perSecond, burst: burst, key: key,
		window:     int(math.Ceil(fill)),
		retryAfter: strconv.Itoa(int(math.Ceil(1 / perSecond))),
		expiresIn:  max(time.Second, time.Duration(fill*float64(time.Second))),
		buckets:    map[string]*bucket{},
	}
}

// limiter is key's bucket, made full when the key is new or forgotten.
func (p *ratePolicy) limiter(key string, now time.Time) *rate.Limiter {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Sub(p.lastCleanup) > p.expiresIn {
		for k, b := range p.buckets {
			if now.Sub(b.lastSeen) > p.expiresIn {
				delete(p.buckets, k)
			}
		}
		p.lastCleanup = now
	}
	b, ok := p.buckets[key]
	if !ok {
		b = &bucket{limiter: rate.NewLimiter(rate.Limit(p.perSecond), p.burst)}
		p.buckets[key] = b
	}
	b.lastSeen = now
	return b.limiter
}

// standing is the policy's member of the RateLimit field: the requests left now and the seconds
// until the bucket is full.
func (p *ratePolicy) standing(l *rate.Limiter, now time.Time) string {
	tokens := max(0, l.TokensAt(now))
	remaining := int(math.Floor(tokens))
	reset := int(math.Ceil((float64(p.burst) - tokens) / p.perSecond))
	return fmt.Sprintf("%q;r=%d;t=%d", p.name, remaining, max(0, reset))
}
