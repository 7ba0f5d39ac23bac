package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"primegames/repo"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"primegames/api"
	"primegames/outbound"
	"primegames/play"
)

// config is everything the binary reads from the environment. The configuration table of docs/operations.md
// lists the same variables with the same defaults.
type config struct {
	ListenAddr  string
	DatabaseURL string
	// DatabaseDirectURL is Postgres itself, for the sessions that must not go through a pooler.
	DatabaseDirectURL string
	// DatabaseReplicaURL is a hot standby that reads may go to.
	DatabaseReplicaURL string
	// TransactionPooler is DB_POOLER=transaction: DatabaseURL is a pooler in transaction mode.
	TransactionPooler bool
	LogLevel          slog.Level
	BodyLimitBytes    int64
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	ShutdownGrace     time.Duration
	DBMaxConns        int32
	// DBStatementTimeout bounds a statement and an idle transaction of the pool's sessions.
	DBStatementTimeout time.Duration
	// RecordCacheBytes bounds the game records kept between requests (repo.PoolOptions); -1 keeps none.
	RecordCacheBytes int
	MigrateOnStart   bool
	// Live updates.
	StreamLimit        int
	StreamHeartbeat    time.Duration
	StreamWriteTimeout time.Duration
	// Expensive requests (api.Config.RenderLimit, RenderQueue): 0 for RenderLimit is half the
	// cores; -1 for RenderQueue is none (RENDER_QUEUE=0).
	RenderLimit, RenderQueue int
	// AdminToken, when set, is required to create classrooms.
	AdminToken string
	// Per-client limits; 0 disables RateLimit and StreamsPerClient.
	RateLimit        float64
	RateBurst        int
	StreamsPerClient int
	TrustedProxies   []*net.IPNet
	// Wrong guesses of typed codes: per address an hour, per instance a minute (0 disables).
	CodeGuessesPerAddress, CodeGuessesPerInstance int
	// CodeGuessesPerClass bounds the wrong students' sign-in codes tried with one class code, an
	// hour (CODE_GUESSES_PER_CLASS; issue 41).
	CodeGuessesPerClass int
	// CORSOrigins are the browser origins allowed to call the API; none turns CORS off.
	CORSOrigins []string
	// AdminAddr, when set, is where the profiler (net/http/pprof) listens; empty turns it off.
	AdminAddr string
	// LobbyTTL and IdleGameTTL say when the worker aborts a lobby nobody started and an active game
	// nobody plays.
	LobbyTTL    time.Duration
	IdleGameTTL time.Duration
	// Quotas bound the games one client and one address may hold (0: no bound).
	Quotas play.Quotas
	// Webhooks: where they may go (outbound.Config.AllowedHosts: empty is any public host), the
	// time one request may take, the subscriptions one token may hold, and how many a worker sends
	// at once.
	WebhookAllowedHosts []string
	WebhookTimeout      time.Duration
	WebhookQuota        int
	WebhookConcurrency  int
	// WebhookAddressQuota bounds the subscriptions made from one address (0: none);
	// WebhookPendingPerSubscription and WebhookPendingPerOwner the deliveries waiting (0: none).
	WebhookAddressQuota           int
	WebhookPendingPerSubscription int
	WebhookPendingPerOwner        int
	// SecretKey is the deployment's secret (SECRET_KEY), from which the keys that seal webhooks'
	// signing keys at rest and picture links are derived; without it no webhooks are sent or
	// accepted, and each instance seals picture links with a key of its own.
	SecretKey string
	// WebhookSecretOverlap is how long a rotated webhook secret still signs.
	WebhookSecretOverlap time.Duration
	// WebhookSend says whether this instance sends webhooks (WEBHOOK_SEND, true); when false it
	// still accepts subscriptions and queues deliveries, which the instances that send take.
	WebhookSend bool
	// OIDC is the OpenID provider teachers sign in with (OIDC_ISSUER, OIDC_CLIENT_ID,
	// OIDC_CLIENT_SECRET, PUBLIC_URL); no issuer: sign-in is off.
	OIDC api.OIDCConfig
}

// loadConfig reads the configuration through getenv and reports the first bad value in one line.
func loadConfig(getenv func(string) string) (config, error) {
	r := envReader{getenv: getenv}
	cfg := config{
		ListenAddr:         r.str("LISTEN_ADDR", ":8080"),
		DatabaseURL:        r.str("DATABASE_URL", ""),
		DatabaseDirectURL:  r.str("DATABASE_DIRECT_URL", ""),
		TransactionPooler:  r.pooler("DB_POOLER"),
		DatabaseReplicaURL: r.str("DATABASE_REPLICA_URL", ""),
		LogLevel:           r.level("LOG_LEVEL", slog.LevelInfo),
		BodyLimitBytes:     r.bytes("BODY_LIMIT", 64<<10),
		ReadTimeout:        r.duration("READ_TIMEOUT", 10*time.Second),
		WriteTimeout:       r.duration("WRITE_TIMEOUT", 30*time.Second),
		IdleTimeout:        r.duration("IDLE_TIMEOUT", 120*time.Second),
		ShutdownGrace:      r.duration("SHUTDOWN_GRACE", 15*time.Second),
		DBMaxConns:         int32(r.positiveInt("DB_MAX_CONNS", 10)),
		DBStatementTimeout: r.duration("DB_STATEMENT_TIMEOUT", repo.DefaultStatementTimeout),
		RecordCacheBytes:   r.recordCache("RECORD_CACHE"),
		MigrateOnStart:     r.boolean("MIGRATE_ON_START", true),

		StreamLimit:        r.positiveInt("STREAM_LIMIT", 1000),
		StreamHeartbeat:    r.duration("STREAM_HEARTBEAT", 15*time.Second),
		StreamWriteTimeout: r.duration("STREAM_WRITE_TIMEOUT", 10*time.Second),
		AdminToken:         r.str("ADMIN_TOKEN", ""),
		RenderLimit:        r.count("RENDER_LIMIT", 0),
		RenderQueue:        r.renderQueue("RENDER_QUEUE"),

		RateLimit:              r.rate("RATE_LIMIT", 50),
		RateBurst:              r.positiveInt("RATE_BURST", 100),
		StreamsPerClient:       r.count("STREAM_LIMIT_PER_CLIENT", 20),
		TrustedProxies:         r.networks("TRUSTED_PROXIES"),
		CodeGuessesPerAddress:  r.count("CODE_GUESSES_PER_ADDRESS", 30),
		CodeGuessesPerInstance: r.count("CODE_GUESSES_PER_INSTANCE", 300),
		CodeGuessesPerClass:    r.count("CODE_GUESSES_PER_CLASS", 100),
		CORSOrigins:            r.origins("CORS_ORIGINS"),
		AdminAddr:              r.str("ADMIN_ADDR", ""),
		LobbyTTL:               r.duration("LOBBY_TTL", play.DefaultLobbyTTL),
		IdleGameTTL:            r.duration("IDLE_GAME_TTL", play.DefaultIdleGameTTL),
		Quotas: play.Quotas{
			OpenGames:            r.count("QUOTA_OPEN_GAMES", play.DefaultQuotas.OpenGames),
			ComputerGames:        r.count("QUOTA_COMPUTER_GAMES", play.DefaultQuotas.ComputerGames),
			AddressOpenGames:     r.count("QUOTA_ADDRESS_OPEN_GAMES", play.DefaultQuotas.AddressOpenGames),
			AddressComputerGames: r.count("QUOTA_ADDRESS_COMPUTER_GAMES", play.DefaultQuotas.AddressComputerGames),
		},
		WebhookAllowedHosts: r.list("WEBHOOK_ALLOWED_HOSTS"),
		WebhookTimeout:      r.duration("WEBHOOK_TIMEOUT", outbound.DefaultTimeout),
		WebhookQuota:        r.positiveInt("WEBHOOK_QUOTA", play.DefaultWebhookConfig.Quota),
		WebhookConcurrency:  r.positiveInt("WEBHOOK_CONCURRENCY", play.DefaultWebhookConfig.Concurrency),

		WebhookAddressQuota:           r.count("WEBHOOK_ADDRESS_QUOTA", play.DefaultWebhookConfig.AddressQuota),
		WebhookPendingPerSubscription: r.count("WEBHOOK_PENDING_PER_SUBSCRIPTION", play.DefaultWebhookConfig.PendingPerSubscription),
		WebhookPendingPerOwner:        r.count("WEBHOOK_PENDING_PER_OWNER", play.DefaultWebhookConfig.PendingPerOwner),
		WebhookSecretOverlap:          r.duration("WEBHOOK_SECRET_OVERLAP", play.DefaultWebhookConfig.SecretOverlap),
		SecretKey:                     r.sealingKey("SECRET_KEY"),
		WebhookSend:                   r.boolean("WEBHOOK_SEND", true),
		OIDC: api.OIDCConfig{Issuer: r.str("OIDC_ISSUER", ""), ClientID: r.str("OIDC_CLIENT_ID", ""),
			ClientSecret: r.str("OIDC_CLIENT_SECRET", ""), PublicURL: r.str("PUBLIC_URL", "")},
	}
	if r.err == nil && cfg.OIDC.Issuer != "" && (cfg.OIDC.ClientID == "" || cfg.OIDC.PublicURL == "") {
		r.err = fmt.Errorf("configuration: OIDC_ISSUER needs OIDC_CLIENT_ID and PUBLIC_URL (the redirect URI is PUBLIC_URL + /v1/auth/oidc/callback)")
	}
	if r.err == nil {
		cfg.OIDC.Providers, r.err = oidcProviders(getenv, cfg.OIDC.PublicURL)
	}
	if r.err == nil && cfg.TransactionPooler && cfg.DatabaseDirectURL == "" {
		r.err = fmt.Errorf("configuration: DB_POOLER=transaction needs DATABASE_DIRECT_URL, the address of Postgres itself " +
			"(not the pooler) for the live updates' LISTEN and the migrations' lock, which need a session of their own")
	}
	return cfg, r.err
}

type envReader struct {
	getenv func(string) string
	err    error
}

func (r *envReader) fail(name, value, want string) {
	if r.err == nil {
		r.err = fmt.Errorf("configuration: %s=%q is not %s", name, value, want)
	}
}

func (r *envReader) str(name, def string) string {
	if v := r.getenv(name); v != "" {
		return v
	}
	return def
}

func (r *envReader) duration(name string, def time.Duration) time.Duration {
	v := r.getenv(name)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		r.fail(name, v, "a positive duration such as 15s or 2m")
		return def
	}
	return d
}

func (r *envReader) positiveInt(name string, def int) int {
	v := r.getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || n > 10000 {
		r.fail(name, v, "a whole number from 1 to 10000")
		return def
	}
	return n
}

// count is positiveInt that also takes 0.
func (r *envReader) count(name string, def int) int {
	if r.getenv(name) == "0" {
		return 0
	}
	return r.positiveInt(name, def)
}

// renderQueue is RENDER_QUEUE: empty for api's default (0), "0" for no queue (-1).
func (r *envReader) renderQueue(name string) int {
	switch r.getenv(name) {
	case "":
		return 0
	case "0":
		return -1
	}
	return r.positiveInt(name, 0)
}

// rate is a number of events per second, 0 included.
func (r *envReader) rate(name string, def float64) float64 {
	v := r.getenv(name)
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0 && f <= 1e6) {
		r.fail(name, v, "a number of requests per second from 0 to 1000000, such as 50 or 0.5")
		return def
	}
	return f
}

// networks is a comma-separated list of addresses and CIDR ranges: 10.0.0.0/8, 192.0.2.7.
func (r *envReader) networks(name string) []*net.IPNet {
	v := r.getenv(name)
	var nets []*net.IPNet
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if !strings.Contains(item, "/") {
			if ip := net.ParseIP(item); ip != nil && ip.To4() != nil {
				item += "/32"
			} else {
				item += "/128"
			}
		}
		_, n, err := net.ParseCIDR(item)
		if err != nil {
			r.fail(name, v, "a comma-separated list of addresses or CIDR ranges, such as 10.0.0.0/8,192.0.2.7")
			return nil
		}
		nets = append(nets, n)
	}
	return nets
}

// origins is a comma-separated list of browser origins (scheme://host[:port], as a browser sends them
// in the Origin header), or * alone for any origin.
// list reads a comma-separated list, leaving out empty items.
func (r *envReader) list(name string) []string {
	var items []string
	for _, item := range strings.Split(r.getenv(name), ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	return items
}

func (r *envReader) origins(name string) []string {
	v := r.getenv(name)
	var origins []string
	for _, item := range strings.Split(v, ",") {
		item = strings.ToLower(strings.TrimSpace(item))
		if item == "" {
			continue
		}
		if !isOrigin(item) && item != "*" {
			r.fail(name, v, "* or a comma-separated list of origins such as https://dash.example.org,http://localhost:5173")
			return nil
		}
		origins = append(origins, item)
	}
	if len(origins) > 1 && slices.Contains(origins, "*") {
		r.fail(name, v, "* alone or a list of origins without *")
		return nil
	}
	return origins
}

// isOrigin reports whether s is exactly scheme://host[:port] with scheme http or https.
func isOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Hostname() != "" &&
		!strings.Contains(u.Host, "*") && s == u.Scheme+"://"+u.Host
}

// pooler is what stands between the pool and Postgres: none (the default) or a pooler in
// transaction mode.
func (r *envReader) pooler(name string) bool {
	switch v := r.getenv(name); v {
	case "", "none":
		return false
	case "transaction":
		return true
	default:
		r.fail(name, v, "none or transaction")
		return false
	}
}

// minSealingKey is the least a sealing key must hold: 32 characters, such as the output of
// `openssl rand -base64 32` (44).
const minSealingKey = 32

// sealingKey is a secret of at least minSealingKey characters, or none.
func (r *envReader) sealingKey(name string) string {
	v := r.getenv(name)
	if v != "" && len(v) < minSealingKey {
		r.fail(name, "(hidden)", fmt.Sprintf("a secret of at least %d characters, such as the output of `openssl rand -base64 32`", minSealingKey))
		return ""
	}
	return v
}

func (r *envReader) boolean(name string, def bool) bool {
	v := r.getenv(name)
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail(name, v, "true or false")
		return def
	}
	return b
}

func (r *envReader) level(name string, def slog.Level) slog.Level {
	v := r.getenv(name)
	if v == "" {
		return def
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(v)); err != nil {
		r.fail(name, v, "one of debug, info, warn, error")
		return def
	}
	return l
}

// bytes accepts a plain number of bytes or one with a K or M suffix (1024-based): 65536, 64K, 1M.
func (r *envReader) bytes(name string, def int64) int64 {
	v := r.getenv(name)
	if v == "" {
		return def
	}
	s, unit := strings.ToUpper(strings.TrimSpace(v)), int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		s, unit = strings.TrimSuffix(s, "K"), 1<<10
	case strings.HasSuffix(s, "M"):
		s, unit = strings.TrimSuffix(s, "M"), 1<<20
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n*unit > 64<<20 {
		r.fail(name, v, "a size from 1 byte to 64M, such as 65536, 64K or 1M")
		return def
	}
	return n * unit
}

// recordCache is RECORD_CACHE: a size as bytes reads it, or 0 to keep no records (-1).
func (r *envReader) recordCache(name string) int {
	if strings.TrimSpace(r.getenv(name)) == "0" {
		return -1
	}
	return int(r.bytes(name, repo.DefaultRecordCacheBytes))
}

func newLogger(level slog.Level) *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// oidcProviderName is the form of a provider's name in OIDC_PROVIDERS.
var oidcProviderName = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// oidcProviders reads the named OpenID providers besides OIDC_ISSUER's: OIDC_PROVIDERS lists their
// names (comma-separated, e.g. google,microsoft), and each NAME has OIDC_NAME_ISSUER,
// OIDC_NAME_CLIENT_ID and OIDC_NAME_CLIENT_SECRET (NAME upper-cased, dashes as underscores).
func oidcProviders(getenv func(string) string, publicURL string) ([]api.OIDCProvider, error) {
	list := strings.TrimSpace(getenv("OIDC_PROVIDERS"))
	if list == "" {
		return nil, nil
	}
	if publicURL == "" {
		return nil, fmt.Errorf("configuration: OIDC_PROVIDERS needs PUBLIC_URL (the redirect URI is PUBLIC_URL + /v1/auth/oidc/callback)")
	}
	var providers []api.OIDCProvider
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !oidcProviderName.MatchString(name) || name == api.DefaultProvider || seen[name] {
			return nil, fmt.Errorf("configuration: OIDC_PROVIDERS: %q is not a provider's name (lower-case letters, digits and dashes, at most 32, not %q, each once)", name, api.DefaultProvider)
		}
		seen[name] = true
		prefix := "OIDC_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")) + "_"
		p := api.OIDCProvider{Name: name, Issuer: getenv(prefix + "ISSUER"), ClientID: getenv(prefix + "CLIENT_ID"), ClientSecret: getenv(prefix + "CLIENT_SECRET")}
		if p.Issuer == "" || p.ClientID == "" {
			return nil, fmt.Errorf("configuration: the provider %q of OIDC_PROVIDERS needs %sISSUER and %sCLIENT_ID", name, prefix, prefix)
		}
		providers = append(providers, p)
	}
	return providers, nil
}
