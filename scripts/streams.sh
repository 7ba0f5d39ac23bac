#!/usr/bin/env bash
# Measures what idle live-update streams cost the server (issue 28): starts the service on a fresh
# database allowing N (10000) streams from one client, then runs tools/streamload: the server's RSS
# per stream, the database reads while they sit idle against as long a time with none, and one
# move's fan-out to every game stream. A measurement, not a test; docs/performance.md has results.
# See fresh-server.sh for what it needs; it raises this shell's open-file limit to N + 1000.
# FANOUT=all times an abort every stream hears instead of one move to the game streams.
# PROFILE=folder saves the server's heap and goroutine profiles there, taken with the streams open.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fresh-server.sh

N=${N:-10000}
ulimit -n "$((N + 1000))"
profile=()
if [ -n "${PROFILE:-}" ]; then
	mkdir -p "$PROFILE"
	admin_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	profile=(-admin "http://127.0.0.1:$admin_port" -profile "$PROFILE")
fi
fresh_server streams STREAM_LIMIT="$N" STREAM_LIMIT_PER_CLIENT=0 RATE_LIMIT=0 \
	${PROFILE:+ADMIN_ADDR=127.0.0.1:$admin_port}
go build -o "$work/streamload" ./tools/streamload
"$work/streamload" -url "$API" -pid "$server_pid" -n "$N" -idle "${IDLE:-20s}" -batch "${BATCH:-500}" -fanout "${FANOUT:-game}" "${profile[@]}"
