#!/usr/bin/env bash
# Measures what replays of one long game cost the server (issue 23, "Fair share"): starts the
# service on a fresh database, has tools/replayload create a Primed game of 6 expert computers with
# the most rounds (bot_delay_ms 0), wait for it to finish, then send N (8) GET replay.svg at once
# while a person creates games, and print the server's RSS before and at its peak, each replay's
# time and size, and the person's POST p50/p99 idle and meanwhile. docs/performance.md has results.
#
# Needs Go, psql, curl and a Postgres where PGUSER may create databases (PGHOST, PGPORT, PGUSER,
# PGPASSWORD: 127.0.0.1, 5432, postgres by default). SERVER=path runs that server binary instead of
# building this checkout's (to measure another commit); QUERY is the replay's query string (from=,
# count=); N the replays at once, ROUNDS bursts of them one after the other, SPREAD=1 a window
# of 100 entries each across the game (from=0, 100, ...); GAME a finished game to reuse when the database is kept (DB=name).
set -euo pipefail

export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
N=${N:-8}
QUERY=${QUERY:-}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
app_db=${DB:-"replayload_$$_$(date +%s)"}
server_pid=""

cleanup() {
	if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
		kill "$server_pid"
		wait "$server_pid" 2>/dev/null || true
	fi
	[ -n "${DB:-}" ] || psql -qX -d postgres -c "DROP DATABASE IF EXISTS $app_db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

server=${SERVER:-}
if [ -z "$server" ]; then
	go build -o "$work/primegames" ./cmd/primegames
	server=$work/primegames
fi
go build -o "$work/replayload" ./tools/replayload
[ -n "${DB:-}" ] && psql -qX -d postgres -tc "SELECT 1 FROM pg_database WHERE datname = '$app_db'" | grep -q 1 ||
	psql -qX -d postgres -c "CREATE DATABASE $app_db" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
API="http://127.0.0.1:$port"
DATABASE_URL="postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$app_db?sslmode=disable" \
	LISTEN_ADDR="127.0.0.1:$port" RATE_LIMIT=0 LOG_LEVEL=warn WRITE_TIMEOUT=${WRITE_TIMEOUT:-40s} \
	"$server" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
	curl -fs "$API/readyz" >/dev/null 2>&1 && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
	sleep 0.1
done
"$work/replayload" -url "$API" -pid "$server_pid" -n "$N" -query "$QUERY" -rounds "${ROUNDS:-1}" ${SPREAD:+-spread} ${GAME:+-game "$GAME"}
grep -c '"request cut short"' "$work/server.log" | sed 's/^/responses logged as cut short: /' || true
