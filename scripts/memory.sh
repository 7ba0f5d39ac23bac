#!/usr/bin/env bash
# Measures an instance's memory under malformed requests (issue 39, part 4): starts the service on
# a fresh database with its defaults (trusting this machine's X-Forwarded-For), reads its RSS, sends
# REQUESTS (12,000) malformed requests with tools/malformedload, and reads the RSS and its peak
# (VmRSS, VmHWM in /proc) right after and again after SETTLE seconds. Only for a server on this
# machine (Linux). A measurement, not a test; docs/performance.md has results. SERVER=path runs
# another build (an earlier one, for the figure before); any VAR=value argument goes to the
# server's environment (scripts/memory.sh GOMEMLIMIT=off). See fresh-server.sh for what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fresh-server.sh

rss() { awk '/^VmRSS|^VmHWM/ {printf "%s %.1f MB  ", $1, $2/1024}' "/proc/$server_pid/status"; echo; }
fresh_server memory TRUSTED_PROXIES=0.0.0.0/0 "$@"
go build -o "$work/malformedload" ./tools/malformedload
echo "started:       $(rss)"
"$work/malformedload" -url "$API" -requests "${REQUESTS:-12000}" -concurrency "${CONCURRENCY:-64}"
echo "right after:   $(rss)"
sleep "${SETTLE:-10}"
echo "${SETTLE:-10} s later:   $(rss)"
