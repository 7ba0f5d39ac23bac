#!/usr/bin/env bash
# Measures how fast invite codes can be guessed at the default limits (issue 39, part 3): starts the
# service on a fresh database with its defaults (trusting this machine's X-Forwarded-For, so that
# one client can pose as many addresses), then runs tools/guessload, which guesses from ADDRESSES
# addresses with made-up tokens and prints the guesses the server evaluated a minute and the
# expected time to get into any of LOBBIES open lobbies. A measurement, not a test; docs/performance.md
# has results. SERVER=path runs another server build (an earlier one, for the figure before); see
# fresh-server.sh for what else it needs. Any other guessload flag goes through: scripts/guesses.sh -ipv6
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fresh-server.sh

fresh_server guesses TRUSTED_PROXIES=127.0.0.1/32
go build -o "$work/guessload" ./tools/guessload
"$work/guessload" -url "$API" -addresses "${ADDRESSES:-50}" -lobbies "${LOBBIES:-10000}" \
	-warmup "${WARMUP:-60s}" -duration "${DURATION:-120s}" "$@"
