#!/usr/bin/env bash
# Measures what a flood of computer games from one address does to everyone else (issue 23, "Fair
# share"): starts the service on a fresh database with its default limits (trusting this machine's
# X-Forwarded-For, so that one client can pose as several addresses), then runs tools/floodload:
# IDLE (20s), FLOOD (60s) and AFTER (30s) phases, people playing computers and each other and
# games with a 3 s turn clock throughout, and printing per phase the lateness of computer moves
# and turn clocks and the people's POST p50/p99. A measurement, not a test: run it on an otherwise
# idle machine; docs/performance.md has results. SERVER=path runs another server build; see
# fresh-server.sh for what else it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fresh-server.sh

fresh_server flood TRUSTED_PROXIES=127.0.0.1/32
go build -o "$work/floodload" ./tools/floodload
"$work/floodload" -url "$API" -idle "${IDLE:-20s}" -flood "${FLOOD:-60s}" -after "${AFTER:-30s}"
echo "worker queue depth at the end:"
curl -fs "$API/metrics" | grep -E '^worker_queue_depth' || true
