package repo

import (
	"net"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// A connection to Postgres can go silent without closing: a stuck load balancer, a dead host behind
// a live one, a firewall that lost the flow. Nothing then ends a query's wait on its own. These
// bounds end it: the kernel gives up on a connection whose peer has stopped acknowledging what it
// sent (TCP_USER_TIMEOUT) or that answers no keepalive probe; Postgres ends a statement that runs
// too long and a transaction left idle; and every caller's context carries a deadline (the worker's
// pass, a request's), which pgx honours by closing the connection.
const (
	// DefaultStatementTimeout is Postgres's statement_timeout and idle_in_transaction_session_timeout
	// for the pool's sessions, unless PoolOptions say otherwise.
	DefaultStatementTimeout = 30 * time.Second
	// connectTimeout bounds a new connection's start, when the address sets none.
	connectTimeout = 10 * time.Second
	// tcpUserTimeout is how long sent data may stay unacknowledged before the kernel drops the
	// connection.
	tcpUserTimeout = 20 * time.Second
)

// keepAlive probes an idle connection after 15 s, then every 5 s, and drops it after 3 unanswered.
var keepAlive = net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3}

// boundWaits sets the bounds above on a connection's configuration. A transaction pooler does not
// pass session settings on, so then Postgres's timeouts are left to the role or the database
// (ALTER ROLE … SET statement_timeout).
func boundWaits(cfg *pgconn.Config, statementTimeout time.Duration, pooler bool) {
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	dialer := &net.Dialer{KeepAliveConfig: keepAlive, Control: setTCPUserTimeout}
	cfg.DialFunc = dialer.DialContext
	if pooler || statementTimeout < 0 {
		return
	}
	if statementTimeout == 0 {
		statementTimeout = DefaultStatementTimeout
	}
	ms := strconv.FormatInt(statementTimeout.Milliseconds(), 10)
	for _, param := range statementTimeoutParams {
		if _, set := cfg.RuntimeParams[param]; !set {
			cfg.RuntimeParams[param] = ms
		}
	}
}

// statementTimeoutParams are the session settings that bound a statement and an idle transaction.
var statementTimeoutParams = []string{"statement_timeout", "idle_in_transaction_session_timeout"}

// setTCPUserTimeout sets TCP_USER_TIMEOUT on TCP sockets where the system has it.
func setTCPUserTimeout(network, _ string, c syscall.RawConn) error {
	if network != "tcp" && network != "tcp4" && network != "tcp6" {
		return nil
	}
	var err error
	if cerr := c.Control(func(fd uintptr) { err = setUserTimeout(fd, tcpUserTimeout) }); cerr != nil {
		return cerr
	}
	return err
}
