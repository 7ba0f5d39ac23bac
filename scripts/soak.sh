#!/usr/bin/env bash
# A soak of the server (issue 23): starts the service on a fresh database, plays games against it
# with tools/loadgen's lean loop for DURATION (30m) at CONCURRENCY (8) games at once, and samples
# the server's resident memory (RSS) and Go heap every INTERVAL seconds (10). It prints the samples
# as they come (minute, RSS MB, heap MB, goroutines, games created so far) and at the end the RSS of
# the first, middle and last thirds, so that growth shows as a rising third. Not a test: a
# measurement; docs/performance.md has results.
#
# See fresh-server.sh for what it needs.
set -euo pipefail

DURATION=${DURATION:-30m}
CONCURRENCY=${CONCURRENCY:-8}
INTERVAL=${INTERVAL:-10}
cd "$(dirname "$0")/.."
. scripts/fresh-server.sh

fresh_server soak
go build -o "$work/loadgen" ./tools/loadgen
"$work/loadgen" -url "$API" -mode lean -duration "$DURATION" -concurrency "$CONCURRENCY" -seed 1 >"$work/load.txt" 2>&1 &
load_pid=$!
extra_pids+=("$load_pid")

metric() { awk -v name="$1" '$1 == name { print $2; exit }' <<<"$metrics"; }
start=$(date +%s)
samples=()
echo "minute rss_mb heap_mb goroutines"
while kill -0 "$load_pid" 2>/dev/null; do
	rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status")
	metrics=$(curl -fsS "$API/metrics")
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
