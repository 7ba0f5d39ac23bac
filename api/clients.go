package api

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
)

// A client, for the rate limits (middleware.RateLimits) and the caps on event streams, is its token
// when the request carries one (hashed: tokens are not kept), else its address. The address is the
// peer's, or, when the peer is one of the trusted proxies, the one X-Forwarded-For names
// (middleware.ClientIPExtractor).

// codeRoutes take a code a person types and no token: whatever token a request to them carries,
// made up or not, its client is its address.
var codeRoutes = map[string]bool{"/v1/games/join": true, "/v1/classrooms/join": true}

// clientKey names the client of a request: its bearer token, or the access_token of a route that
// takes one, when it sends one, else its address.
func clientKey(c echo.Context) string {
	if codeRoutes[c.Path()] {
		return "ip:" + addressOf(c)
	}
	token, err := bearerToken(c)
	if err != nil || token == "" {
		token = ""
		if queryTokenRoutes[c.Path()] {
			token = c.QueryParam("access_token")
		}
	}
	if token == "" {
		return "ip:" + addressOf(c)
	}
	sum := sha256.Sum256([]byte(token))
	return "token:" + base64.RawStdEncoding.EncodeToString(sum[:16])
}

// addressKey names everything that comes from one address, with a token or without.
func addressKey(c echo.Context) string { return "address:" + addressOf(c) }

// addressOf is the request's address as limits count it: an IPv4 address, or the /64 of an IPv6
// one, which a single home or phone is given whole.
func addressOf(c echo.Context) string {
	ip := c.RealIP()
	if strings.IndexByte(ip, ':') < 0 {
		return ip // IPv4: the common case costs no parsing
	}
	return middleware.GuessAddress(ip).String()
}
