#!/usr/bin/env bash
# Measures what a flood of computer games from one address does to everyone else (issue 23, "Fair
# share"): starts the service on a fresh database with its default limits (trusting this machine's
# X-Forwarded-For, so that one client can pose as several addresses), then runs tools/floodload:
# IDLE (20s), FLOOD (60s) and AFTER (30s) phases, people playing computers and each other and
# games with a 3 s turn clock throughout, and printing per phase the lateness of computer moves
# and turn clocks and the people's POST p50/p99. A measurement, not a test: run it on an otherwise
# idle machine; docs/performance.md has results.
#
# Needs Go, psql, curl and a Postgres where PGUSER may create databases (PGHOST, PGPORT, PGUSER,
# PGPASSWORD: 127.0.0.1, 5432, postgres by default). SERVER=path runs that server binary instead of
# building this checkout's.
set -euo pipefail

export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
db="flood_$$_$(date +%s)"
server_pid=""

cleanup() {
	if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
		kill "$server_pid"
		wait "$server_pid" 2>/dev/null || true
	fi
	psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

server=${SERVER:-}
if [ -z "$server" ]; then
	go build -o "$work/primegames" ./cmd/primegames
	server=$work/primegames
fi
go build -o "$work/floodload" ./tools/floodload
psql -qX -d postgres -c "CREATE DATABASE $db" >/dev/null
port=$((20000 + RANDOM % 10000))
API="http://127.0.0.1:$port"
DATABASE_URL="postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$db?sslmode=disable" \
	LISTEN_ADDR="127.0.0.1:$port" TRUSTED_PROXIES=127.0.0.1/32 LOG_LEVEL=error \
	"$server" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
	curl -fs "$API/readyz" >/dev/null 2>&1 && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
	sleep 0.1
done
"$work/floodload" -url "$API" -idle "${IDLE:-20s}" -flood "${FLOOD:-60s}" -after "${AFTER:-30s}"
echo "worker queue depth at the end:"
curl -fs "$API/metrics" | grep -E '^worker_queue_depth' || true
