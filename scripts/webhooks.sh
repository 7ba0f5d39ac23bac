#!/usr/bin/env bash
# Measures the webhook sender (issue 39). A measurement, not a test; docs/performance.md has results.
#
#   scripts/webhooks.sh latency   move -> webhook at a healthy local receiver (tools/hooklatency),
#                                 p50/p99/max: on one instance, then across two (the moves and the
#                                 subscriptions on an instance that sends nothing, WEBHOOK_SEND=false;
#                                 the sending on the other).
#   scripts/webhooks.sh backlog   an idle backlog of 50,000 pending deliveries for receivers that fail
#                                 and are not due (tools/hookbacklog): the claim's and the next-due
#                                 search's times, then the CPU the server's Postgres backends and the
#                                 server use over IDLE (20 s) with no new work, in % of a core.
#
# N moves (200); HANGING=64 has as many receivers that never answer hold a request each while the
# moves on one instance are timed (TIMEOUT, 10s, bounds the wait for one webhook); SERVER=another build to measure it (for one before migration 00032, HEADS=false
# fills the backlog as it kept it, and TIME=false skips the timings, which call this checkout's
# code). See fresh-server.sh for what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fresh-server.sh

mode=${1:-latency}
sealing_key=scripts-webhooks-sealing-key-0123456789
fresh_server webhooks WEBHOOK_ALLOWED_HOSTS=127.0.0.1 RATE_LIMIT=0 SECRET_KEY=$sealing_key WEBHOOK_ADDRESS_QUOTA=0
db_url="postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$fresh_db?sslmode=disable"

# cpu_ticks PID... sums the user and system clock ticks the processes have used.
cpu_ticks() {
	local total=0 pid
	for pid in "$@"; do
		[ -r "/proc/$pid/stat" ] || continue
		# fields 14 and 15 (utime, stime), counted after the command's closing parenthesis
		total=$((total + $(sed 's/.*) //' "/proc/$pid/stat" | awk '{print $12 + $13}')))
	done
	echo "$total"
}

case $mode in
latency)
	go build -o "$work/hooklatency" ./tools/hooklatency
	echo "one instance:"
	"$work/hooklatency" -url "$API" -n "${N:-200}" -hanging "${HANGING:-0}" -timeout "${TIMEOUT:-10s}"
	# A second instance on the same database that sends nothing: the moves and subscriptions go
	# there; the first instance's sender is woken by their commits.
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	env LOG_LEVEL=error WEBHOOK_ALLOWED_HOSTS=127.0.0.1 RATE_LIMIT=0 SECRET_KEY=$sealing_key WEBHOOK_ADDRESS_QUOTA=0 WEBHOOK_SEND=false DATABASE_URL="$db_url" \
		LISTEN_ADDR="127.0.0.1:$port" "${SERVER:-$work/primegames}" serve >"$work/server-a.log" 2>&1 &
	extra_pids+=($!)
	for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
	echo "across two instances (moves on A, sent by B):"
	"$work/hooklatency" -url "http://127.0.0.1:$port" -n "${N:-200}"
	;;
backlog)
	go build -o "$work/hookbacklog" ./tools/hookbacklog
	timing=()
	if [ "${TIME:-true}" = true ]; then timing=(-time); fi
	"$work/hookbacklog" -db "$db_url" -heads="${HEADS:-true}" "${timing[@]}"
	sleep 2
	idle=${IDLE:-20}
	mapfile -t backends < <(psql -qXAt -d "$fresh_db" -c "SELECT pid FROM pg_stat_activity WHERE datname = '$fresh_db' AND pid <> pg_backend_pid()")
	hz=$(getconf CLK_TCK)
	pg_before=$(cpu_ticks "${backends[@]}") server_before=$(cpu_ticks "$server_pid")
	sleep "$idle"
	pg_after=$(cpu_ticks "${backends[@]}") server_after=$(cpu_ticks "$server_pid")
	awk -v pg=$((pg_after - pg_before)) -v srv=$((server_after - server_before)) -v hz="$hz" -v s="$idle" -v n="${#backends[@]}" \
		'BEGIN { printf "idle for %d s: Postgres (%d backends) %.1f %% of a core, the server %.1f %%\n", s, n, 100 * pg / hz / s, 100 * srv / hz / s }'
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
	;;
*)
	echo "usage: $0 latency|backlog" >&2
	exit 2
	;;
esac
