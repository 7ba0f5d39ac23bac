package api

import (
	"crypto/sha256"
	"encoding/base64"
	"math"
	"net"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"primegames/domain"
)

// Per-client limits: a request rate with a burst, and a cap on the event streams a client holds
// open on an instance. A client is its token when the request carries one (hashed: tokens are not
// kept), else its address. The address is the peer's, or, when the peer is one of the trusted
// proxies, the one X-Forwarded-For names.

// addressShare is how many clients' limits one address has in all, whatever tokens its requests
// carry: a classroom behind one router holds many real tokens, while tokens a client makes up must
// not multiply what it may send or hold open.
const addressShare = 10

// clientIPExtractor finds a request's address: X-Forwarded-For counts only when the peer is one of
// trusted (and then the nearest address it names that is not itself a trusted proxy).
func clientIPExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// clientKey names the client of a request: its bearer token, or the access_token of a route that
// takes one, when it sends one, else its address.
func clientKey(c echo.Context) string {
	token, err := bearerToken(c)
	if err != nil || token == "" {
		token = ""
		if queryTokenRoutes[c.Path()] {
			token = c.QueryParam("access_token")
		}
	}
	if token == "" {
		return "ip:" + c.RealIP()
	}
	sum := sha256.Sum256([]byte(token))
	return "token:" + base64.RawStdEncoding.EncodeToString(sum[:16])
}

// addressKey names everything that comes from one address, with a token or without.
func addressKey(c echo.Context) string { return "address:" + c.RealIP() }

// rateLimits limits each client to perSecond on average with bursts of burst, and each address to
// addressShare times that.
func rateLimits(perSecond float64, burst int) []echo.MiddlewareFunc {
	return []echo.MiddlewareFunc{
		rateLimit(perSecond*addressShare, burst*addressShare, addressKey),
		rateLimit(perSecond, burst, clientKey),
	}
}

// rateLimit refuses, with 429 rate_limited, the requests of a client (as key names it) beyond
// perSecond on average with bursts of burst. Health, readiness and metrics are not limited: probes
// and scrapers share addresses and must get through.
func rateLimit(perSecond float64, burst int, key func(echo.Context) string) echo.MiddlewareFunc {
	retryAfter := strconv.Itoa(int(math.Ceil(1 / perSecond)))
	return echomw.RateLimiterWithConfig(echomw.RateLimiterConfig{
		Skipper: func(c echo.Context) bool {
			switch c.Path() {
			case "/healthz", "/readyz", "/metrics":
				return true
			}
			return false
		},
		IdentifierExtractor: func(c echo.Context) (string, error) { return key(c), nil },
		Store: echomw.NewRateLimiterMemoryStoreWithConfig(echomw.RateLimiterMemoryStoreConfig{
			Rate: rate.Limit(perSecond), Burst: burst,
			// A client idle this long has its whole burst back, so forgetting it changes nothing;
			// this bounds the memory to the clients of the last few seconds.
			ExpiresIn: max(time.Second, time.Duration(float64(burst)/perSecond*float64(time.Second))),
		}),
		DenyHandler: func(c echo.Context, _ string, _ error) error {
			c.Response().Header().Set("Retry-After", retryAfter)
			return domain.Errorf(domain.KindRateLimited, "rate_limited",
				"Too many requests from this client; slow down and try again in %s seconds.", retryAfter)
		},
	})
}
