#!/usr/bin/env bash
# Measures the server CPU of a class's statistics (and progress) requests (issue 42 item 5): for each
# size in SIZES it fills a database with tools/scalefill (a class of STUDENTS students and that many
# finished games, nothing else) unless it is there already, starts this checkout's server on it,
# waits until the server's background work after start has settled (its CPU under SETTLED_MS ms per
# second for two seconds in a row, at most 300 s; what it used until then is printed apart, as the
# background's cost), measures the idle server's CPU over 3 s, then sends REQUESTS requests of each
# path one by one and prints the CPU of requests 1 and 10 (and the median), in ms, less what the
# idle server used over each request's time. CPU is the server's threads' schedstat (/proc).
# See docs/performance.md ("A class's statistics and progress").
#
# Needs Go, psql, curl, jq and a Postgres on this machine where PGUSER may create databases.
#
# Settings (environment):
#   SIZES="3000 30000"   finished games of the class, database statscost_<size>
#   STUDENTS=30          students of the class
#   REQUESTS=10          requests per path
#   KEEP=0               1: keep the databases (and their reports statscost_<size>.json in REPORTS)
#   PATHS="stats progress"   which paths to measure (progress: …/progress?bucket=week, its SVG)
set -euo pipefail

SIZES=${SIZES:-3000 30000}
STUDENTS=${STUDENTS:-30}
REQUESTS=${REQUESTS:-10}
KEEP=${KEEP:-0}
REPORTS=${REPORTS:-$PWD}
SETTLED_MS=${SETTLED_MS:-5}
PATHS=${PATHS:-stats progress}
cd "$(dirname "$0")/.."
# shellcheck source=scripts/fresh-server.sh
source scripts/fresh-server.sh

server_ns() { cat /proc/"$server_pid"/task/*/schedstat | awk '{ ns += $1 } END { printf "%.0f\n", ns }'; }
now_ns() { date +%s%N; }

# settle waits until the server's CPU is under SETTLED_MS ms a second for two seconds in a row and
# prints what it used since its start.
settle() {
	local quiet=0 c0 c1 i
	for i in $(seq 300); do
		c0=$(server_ns)
		sleep 1
		c1=$(server_ns)
		if [ $(((c1 - c0) / 1000000)) -lt "$SETTLED_MS" ]; then quiet=$((quiet + 1)); else quiet=0; fi
		[ "$quiet" -lt 2 ] || break
	done
	printf 'size %s: the background after start took %d ms of server CPU over %d s\n' "$size" $((c1 / 1000000)) "$i" >&2
}

# one URL [HEADER...]: one GET; prints the CPU ms it cost the server, less the idle rate.
one() {
	local url=$1 t0 c0 t1 c1 code
	shift
	local headers=()
	for h in "$@"; do headers+=(-H "$h"); done
	t0=$(now_ns) c0=$(server_ns)
	code=$(curl -s -o /dev/null -w '%{http_code}' "${headers[@]}" "$url")
	t1=$(now_ns) c1=$(server_ns)
	[ "$code" = 200 ] || { echo "stats-cost: $url answered $code" >&2; exit 1; }
	awk -v dc=$((c1 - c0)) -v dt=$((t1 - t0)) -v idle="$idle_per_ns" 'BEGIN { printf "%.2f\n", (dc - idle * dt) / 1e6 }'
}

# measure NAME URL [HEADER...]: REQUESTS GETs, one by one; records requests 1, 10 and the median.
measure() {
	local name=$1
	shift
	local costs=() i
	for i in $(seq "$REQUESTS"); do costs+=("$(one "$@")"); done
	printf '%s\t%s\t%s\n' "$name" "$size" "${costs[*]}" >&2
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$size" "${costs[0]}" "${costs[$((REQUESTS - 1))]}" \
		"$(printf '%s\n' "${costs[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" >>"$work/results"
}

go build -o "$work/scalefill" ./tools/scalefill
for size in $SIZES; do
	db=statscost_$size report=$REPORTS/statscost_$size.json
	if ! psql -qX -d postgres -tc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 || [ ! -s "$report" ]; then
		psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
		echo "stats-cost: filling $db" >&2
		nice -n 10 "$work/scalefill" -database "postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$db?sslmode=disable" \
			-finished 0 -active 0 -classrooms 0 -regular-games 0 -long-entries 0 -big-class-active 0 \
			-big-class-students "$STUDENTS" -big-class-games "$size" -pool 300 -min-free-gb 2 -report "$report" >&2
	fi
	DB=$db fresh_server statscost RATE_LIMIT=0
	settle
	c0=$(server_ns) t0=$(now_ns)
	sleep 3
	idle_per_ns=$(awk -v dc=$(($(server_ns) - c0)) -v dt=$(($(now_ns) - t0)) 'BEGIN { printf "%.9f", dc / dt }')

	teacher=$(jq -r .BigClass.TeacherToken "$report")
	class=$(jq -r .BigClass.ID "$report")
	for p in $PATHS; do
		case $p in
		stats) measure "GET …/stats" "$API/v1/classrooms/$class/stats" "Authorization: Bearer $teacher" ;;
		progress)
			measure "GET …/progress (weeks)" "$API/v1/classrooms/$class/progress?bucket=week" "Authorization: Bearer $teacher"
			measure "GET …/progress.svg" "$API/v1/classrooms/$class/progress.svg?bucket=week" "Authorization: Bearer $teacher"
			;;
		esac
	done

	kill "$server_pid"
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
	if [ "$KEEP" != 1 ]; then
		psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
		rm -f "$report"
	fi
done

echo
printf '%-26s %8s %12s %12s %12s\n' "ms of server CPU" games "request 1" "request $REQUESTS" median
awk -F'\t' '{ printf "%-26s %8s %12s %12s %12s\n", $1, $2, $3, $4, $5 }' "$work/results"
