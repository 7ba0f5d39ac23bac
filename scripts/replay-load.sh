#!/usr/bin/env bash
# Measures what replays of one long game cost the server (issue 23, "Fair share"): starts the
# service on a fresh database, has tools/replayload create a Primed game of 6 expert computers with
# the most rounds (bot_delay_ms 0), wait for it to finish, then send N (8) GET replay.svg at once
# while a person creates games, and print the server's RSS before and at its peak, each replay's
# time and size, and the person's POST p50/p99 idle and meanwhile. docs/performance.md has results.
#
# See fresh-server.sh for what it needs. SERVER=path runs that server binary instead of building
# this checkout's (to measure another commit); QUERY is the replay's query string (from=,
# count=); N the replays at once, ROUNDS bursts of them one after the other, SPREAD=1 a window
# of 100 entries each across the game (from=0, 100, ...); GAME a finished game to reuse when the database is kept (DB=name).
set -euo pipefail

N=${N:-8}
QUERY=${QUERY:-}
cd "$(dirname "$0")/.."
. scripts/fresh-server.sh

fresh_server replayload RATE_LIMIT=0 QUOTA_OPEN_GAMES=0 QUOTA_ADDRESS_OPEN_GAMES=0 LOG_LEVEL=warn WRITE_TIMEOUT="${WRITE_TIMEOUT:-40s}"
go build -o "$work/replayload" ./tools/replayload
"$work/replayload" -url "$API" -pid "$server_pid" -n "$N" -query "$QUERY" -rounds "${ROUNDS:-1}" ${SPREAD:+-spread} ${GAME:+-game "$GAME"}
grep -c '"request cut short"' "$work/server.log" | sed 's/^/responses logged as cut short: /' || true
