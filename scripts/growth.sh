#!/usr/bin/env bash
# Measures how the server's CPU time per request grows with the data (issue 28): for each size in
# SIZES it fills a database with tools/scalefill (that many finished games outside classrooms, active
# games and classrooms in proportion, the measured class of 30 with 3,000 games, the regular
# player's 200 games and the long game as they are) unless the database is there already, starts this checkout's server
# on it, and sends each request path REQUESTS times, one after another on one connection, reading
# the server's CPU time (its threads' schedstat, /proc) before and after, less what the idle server used
# over the same time. Then it prints a table of microseconds per request by path and size. Each
# measurement is also written to stderr as it is taken, with the time it took and the load average
# (1, 5, 15 min) after it.
# See docs/performance.md ("Growth").
#
# Needs Go, psql, curl, jq and a Postgres on this machine where PGUSER may create databases.
#
# Settings (environment):
#   PGHOST, PGPORT, PGUSER, PGPASSWORD   the Postgres to use (127.0.0.1, 5432, postgres)
#   SIZES="1000 1000000"   finished games of each database, growth_<size>
#   REQUESTS=300           requests per path (REQUESTS/10 of the statistics, the NDJSON export, the
#                          events resumed and the actions: in a new game of Prime Climb and in the
#                          long game, each with a GET of the game and its legal actions before it)
#   KEEP=0                 1: keep the databases it filled (and their reports, growth_<size>.json in
#                          REPORTS, default the current folder), to measure again without filling
#   FILL_FLAGS=""          more flags for scalefill (e.g. "-pool 300"; scalefill refuses, or stops, a
#                          fill that would leave less than 10 GB free on the server's disk: -min-free-gb)
#
# With one -seed (scalefill's default), the fills of every size hold the same long game and the same
# regular player's games, so the paths that read them compare one content. A class's statistics
# make and keep 10 reviews per request, and later requests read them: compare each database's first
# run only.
set -euo pipefail

SIZES=${SIZES:-1000 1000000}
REQUESTS=${REQUESTS:-300}
KEEP=${KEEP:-0}
REPORTS=${REPORTS:-$PWD}
FILL_FLAGS=${FILL_FLAGS:-}
cd "$(dirname "$0")/.."
# shellcheck source=scripts/fresh-server.sh
source scripts/fresh-server.sh
results=$work/results

# server_ns is the CPU time the server's threads have run, in nanoseconds (schedstat counts it
# exactly, where /proc/<pid>/stat counts clock ticks).
server_ns() { cat /proc/"$server_pid"/task/*/schedstat | awk '{ ns += $1 } END { printf "%.0f\n", ns }'; }
now_ms() { date +%s%3N; }

# measure NAME N CMD...: runs CMD (which sends N requests, or writes how many it sent to $work/sent)
# and records the server's CPU time per request, in microseconds, less the idle server's CPU over
# the same time.
measure() {
	local name=$1 n=$2
	shift 2
	local t0 c0 t1 c1
	rm -f "$work/sent"
	t0=$(now_ms) c0=$(server_ns)
	"$@"
	t1=$(now_ms) c1=$(server_ns)
	[ ! -s "$work/sent" ] || n=$(cat "$work/sent")
	awk -v name="$name" -v size="$size" -v n="$n" -v dc=$((c1 - c0)) -v ms=$((t1 - t0)) -v idle="$idle_ns_per_ms" \
		'BEGIN { us = (dc - idle * ms) / 1e3 / n; printf "%s\t%s\t%.0f\n", name, size, us }' >>"$results"
	printf '%s\t%d ms\tload %s\n' "$(tail -n 1 "$results")" $((t1 - t0)) "$(cut -d' ' -f1-3 /proc/loadavg)" >&2
}

# gets N URL [HEADER...]: N GETs of URL on one connection, bodies thrown away.
gets() {
	local n=$1 url=$2
	shift 2
	local cfg=$work/curl.cfg headers=()
	: >"$cfg"
	for _ in $(seq "$n"); do printf 'url = "%s"\noutput = "/dev/null"\n' "$url" >>"$cfg"; done
	for h in "$@"; do headers+=(-H "$h"); done
	curl -sf --compressed -K "$cfg" "${headers[@]}"
}

# act GAME TOKEN: one action of the token's seat in GAME, its legal actions read first (the first
# that does not win, so that the game goes on); fails when the seat has none.
act() {
	local move
	move=$(curl -sf "$API/v1/games/$1/legal-actions" -H "Authorization: Bearer $2" |
		jq -ce '[.actions[] | select(.wins != true)][0].action // .actions[0].action') || return 1
	curl -sf -o /dev/null -X POST "$API/v1/games/$1/actions" -H "Authorization: Bearer $2" -H 'Content-Type: application/json' -d "$move"
}

# all_actions N GAME TOKEN...: N actions in GAME, whose seats' tokens are given in seat order, each
# by the seat to act (its legal actions read first).
all_actions() {
	local n=$1 game=$2 seat
	shift 2
	local tokens=("$@")
	for _ in $(seq "$n"); do
		seat=$(curl -sf "$API/v1/games/$game" | jq -r '.turn.to_act[0]')
		act "$game" "${tokens[$seat]}"
	done
}

# resumes N GAME AFTER: N event streams of a finished game resumed after entry AFTER (each replays
# the rest of the history and ends).
resumes() {
	local n=$1 game=$2 after=$3
	for _ in $(seq "$n"); do curl -sfN -o /dev/null --max-time 10 -H "Last-Event-ID: $after" "$API/v1/games/$game/events"; done
}

go build -o "$work/scalefill" ./tools/scalefill
for size in $SIZES; do
	db=growth_$size report=$REPORTS/growth_$size.json
	if ! psql -qX -d postgres -tc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1 || [ ! -s "$report" ]; then
		psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
		echo "growth: filling $db" >&2
		# shellcheck disable=SC2086
		nice -n 10 "$work/scalefill" -database "postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$db?sslmode=disable" \
			-finished "$size" -active $((size / 200 > 20 ? size / 200 : 20)) -classrooms $((size / 50000)) \
			-report "$report" $FILL_FLAGS >&2
	fi
	DB=$db fresh_server growth RATE_LIMIT=0
	sleep 2
	c0=$(server_ns)
	sleep 5
	idle_ns_per_ms=$((($(server_ns) - c0) / 5000))

	regular=$(jq -r .RegularToken "$report")
	teacher=$(jq -r .BigClass.TeacherToken "$report")
	class=$(jq -r .BigClass.ID "$report")
	long=$(jq -r .LongGame "$report")
	finished=$(jq -r '.Regular[1]' "$report")
	game=$(curl -sf "$API/v1/me/games?turn=mine&limit=1" -H "Authorization: Bearer $regular" | jq -r '.items[0].id')
	curl -sf -o /dev/null "$API/v1/games/$finished/review" -H "Authorization: Bearer $regular" # made and kept once
	curl -sf -o /dev/null "$API/v1/classrooms/$class/stats" -H "Authorization: Bearer $teacher"

	measure "GET /v1/games/{id}" "$REQUESTS" gets "$REQUESTS" "$API/v1/games/$game" "Authorization: Bearer $regular"
	measure "GET …/legal-actions" "$REQUESTS" gets "$REQUESTS" "$API/v1/games/$game/legal-actions" "Authorization: Bearer $regular"
	climb=$(curl -sf -X POST "$API/v1/games" -H 'Content-Type: application/json' \
		-d '{"game":"prime-climb","players":[{"name":"Ada"},{"name":"Ben"}]}')
	mapfile -t climb_tokens < <(jq -r '.seats[].token' <<<"$climb")
	measure "POST …/actions, new game (+ GET, legal)" $((REQUESTS / 10)) all_actions $((REQUESTS / 10)) \
		"$(jq -r .game.id <<<"$climb")" "${climb_tokens[@]}"
	if [ "$(jq -r '.LongActiveGame // ""' "$report")" != "" ]; then
		mapfile -t long_tokens < <(jq -r '.LongActiveTokens[]' "$report")
		measure "POST …/actions, 5,000 entries (+ GET, legal)" $((REQUESTS / 10)) all_actions $((REQUESTS / 10)) \
			"$(jq -r .LongActiveGame "$report")" "${long_tokens[@]}"
	fi
	measure "GET /v1/me/games?turn=mine" "$REQUESTS" gets "$REQUESTS" "$API/v1/me/games?turn=mine" "Authorization: Bearer $regular"
	measure "GET /v1/classrooms/{id}/games" "$REQUESTS" gets "$REQUESTS" "$API/v1/classrooms/$class/games" "Authorization: Bearer $teacher"
	measure "GET /v1/classrooms/{id}/stats" $((REQUESTS / 10)) gets $((REQUESTS / 10)) "$API/v1/classrooms/$class/stats" \
		"Authorization: Bearer $teacher"
	measure "events resumed 200 before the end" $((REQUESTS / 10)) resumes $((REQUESTS / 10)) "$long" \
		$(($(jq -r .LongGameEntries "$report") - 201))
	measure "GET …/actions (history page)" "$REQUESTS" gets "$REQUESTS" "$API/v1/games/$long/actions?limit=100"
	measure "GET …/actions (NDJSON, long game)" $((REQUESTS / 10)) gets $((REQUESTS / 10)) "$API/v1/games/$long/actions" \
		"Accept: application/x-ndjson"
	measure "GET …/review (kept)" "$REQUESTS" gets "$REQUESTS" "$API/v1/games/$finished/review" "Authorization: Bearer $regular"

	kill "$server_pid"
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
	if [ "$KEEP" != 1 ]; then
		psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null
		rm -f "$report"
	fi
done

echo
awk -F'\t' -v sizes="$SIZES" '
	{ us[$1, $2] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
	END {
		k = split(sizes, s, " ")
		printf "%-40s", "µs of server CPU per request"
		for (i = 1; i <= k; i++) printf "%14s", s[i] " games"
		if (k > 1) printf "%10s", "ratio"
		printf "\n"
		for (j = 1; j <= n; j++) {
			printf "%-40s", order[j]
			for (i = 1; i <= k; i++) printf "%14s", us[order[j], s[i]]
			if (k > 1 && us[order[j], s[1]] > 0 && us[order[j], s[k]] != "") printf "%10.2f", us[order[j], s[k]] / us[order[j], s[1]]
			printf "\n"
		}
	}' "$results"
