#!/usr/bin/env bash
# A soak of the server (issue 23): starts the service on a fresh database, plays games against it
# with tools/loadgen's lean loop for DURATION (30m) at CONCURRENCY (8) games at once, and samples
# the server's resident memory (RSS) and Go heap every INTERVAL seconds (10). It prints the samples
# as they come (minute, RSS MB, heap MB, goroutines, games created so far) and at the end the RSS of
# the first, middle and last thirds, so that growth shows as a rising third. Not a test: a
# measurement; docs/performance.md has results.
#
# Needs Go, psql, curl and a Postgres where PGUSER may create databases (PGHOST, PGPORT, PGUSER,
# PGPASSWORD: 127.0.0.1, 5432, postgres by default).
set -euo pipefail

export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
DURATION=${DURATION:-30m}
CONCURRENCY=${CONCURRENCY:-8}
INTERVAL=${INTERVAL:-10}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
db="soak_$$_$(date +%s)"
server_pid="" load_pid=""

cleanup() {
	for pid in $load_pid $server_pid; do
		if kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
	done
	psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

go build -o "$work/primegames" ./cmd/primegames
go build -o "$work/loadgen" ./tools/loadgen
psql -qX -d postgres -c "CREATE DATABASE $db"
port=$((20000 + RANDOM % 10000))
auth=$PGUSER${PGPASSWORD:+:$PGPASSWORD}
DATABASE_URL="postgres://$auth@$PGHOST:$PGPORT/$db?sslmode=disable" LISTEN_ADDR="127.0.0.1:$port" LOG_LEVEL=error \
	"$work/primegames" serve 2>"$work/server.log" &
server_pid=$!
api=http://127.0.0.1:$port
for _ in $(seq 1 100); do curl -fsS "$api/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "$api/readyz" >/dev/null

"$work/loadgen" -url "$api" -mode lean -duration "$DURATION" -concurrency "$CONCURRENCY" -seed 1 >"$work/load.txt" 2>&1 &
load_pid=$!

metric() { awk -v name="$1" '$1 == name { print $2; exit }' <<<"$metrics"; }
start=$(date +%s)
samples=()
echo "minute rss_mb heap_mb goroutines"
while kill -0 "$load_pid" 2>/dev/null; do
	rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status")
	metrics=$(curl -fsS "$api/metrics")
	heap=$(metric go_memstats_heap_inuse_bytes)
	goroutines=$(metric go_goroutines)
	minute=$(awk -v s="$(( $(date +%s) - start ))" 'BEGIN { printf "%.1f", s / 60 }')
	printf '%s %.1f %.1f %s\n' "$minute" "$(awk -v k="$rss_kb" 'BEGIN { print k / 1024 }')" \
		"$(awk -v b="$heap" 'BEGIN { print b / 1048576 }')" "$goroutines"
	samples+=("$rss_kb")
	sleep "$INTERVAL"
done
wait "$load_pid" || true
tail -5 "$work/load.txt"
n=${#samples[@]}
third() { # the mean RSS in MB of samples [from, to)
	local sum=0 i
	for ((i = $1; i < $2; i++)); do sum=$((sum + samples[i])); done
	awk -v s="$sum" -v n="$(( $2 - $1 ))" 'BEGIN { printf "%.1f", s / n / 1024 }'
}
if [ "$n" -ge 3 ]; then
	echo "RSS mean by third of the run (MB): $(third 0 $((n / 3))) $(third $((n / 3)) $((2 * n / 3))) $(third $((2 * n / 3)) "$n")"
fi
