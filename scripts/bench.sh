#!/usr/bin/env bash
# Measures the server against pgbench on the same machine and Postgres, in one run: interleaved
# rounds of pgbench tpcb-like, loadgen's lean loop, pgbench select-only, loadgen's GET mode and its
# legal-actions mode, all with the same number of clients for the same duration; then prints each
# round, the medians and the
# ratios (accepted actions/s ÷ tpcb-like TPS, GET requests/s ÷ select-only TPS), the POST p99 beside
# pgbench's own tpcb-like p99, the server's CPU time per action and per GET, its CPU per unit (per
# POST of an action, per GET of a game, per GET of legal actions), its peak RSS, and the
# CPU time of Postgres's backends per tpcb-like transaction, action, select-only transaction and GET
# (read from /proc, so only for a Postgres on this machine).
# See docs/performance.md.
#
# Needs Go, psql and pgbench, and a Postgres where PGUSER may create databases. It builds the server
# and loadgen, creates two fresh databases (one for the server, one for pgbench), starts the server
# with RATE_LIMIT=0 on a free local port, and removes everything it made when it ends.
#
# Settings (environment):
#   PGHOST, PGPORT, PGUSER, PGPASSWORD   the Postgres to use (127.0.0.1, 5432, postgres)
#   ROUNDS=3        interleaved rounds
#   DURATION=20     seconds of each run (at least 4)
#   CLIENTS=8       concurrent clients of pgbench and of loadgen
#   PGBENCH_SCALE=10  pgbench -i scale factor (scale ≥ clients, so tpcb-like's branch rows do not
#                     serialise the clients)
#   DB_MAX_CONNS=10   the server's pool size
#   INCLUDE=1       0: the lean loop always sends GET …/legal-actions (loadgen -include=false)
#   GZIP=0          1: loadgen asks for gzip-compressed responses, as Go's HTTP client does by
#                   default (loadgen -gzip); pgbench compresses nothing
#   RAW=1           0: the lean loop, GET and legal-actions runs go through Go's HTTP client rather
#                   than loadgen's raw keep-alive client (loadgen -raw), whose CPU per GET is a fifth
#                   of it
#   SERVER=""       a server binary to measure instead of this checkout's (such as an earlier build,
#                   to compare before and after in the same conditions)
#   PROFILE=0       1: after the rounds, one more lean loop with a CPU profile of the server taken
#                   through ADMIN_ADDR, then `go tool pprof -top` of it (the profile is kept in
#                   PROFILE_OUT, default ./bench-cpu.pprof)
#   PROFILE_MODE=lean  the loadgen run profiled: lean, get or legal
#   FLOOR=1         0: leave out tools/floor, which each round also runs (its GET and POST, for
#                   DURATION each, on the server's database): the least CPU per request that any
#                   server on net/http, echo and pgx spends, measured in the same conditions, so that
#                   the server's CPU per unit can be read as a multiple of it
#   SEED=""         loadgen's seed (the kinds of its games and its players' choices); empty: a new
#                   one per run. The same SEED for a before and an after run makes their players
#                   choose alike; the server still rolls its own dice and shuffles its own decks
set -euo pipefail

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-20}
CLIENTS=${CLIENTS:-8}
PGBENCH_SCALE=${PGBENCH_SCALE:-10}
DB_MAX_CONNS=${DB_MAX_CONNS:-10}
PROFILE=${PROFILE:-0}
INCLUDE=${INCLUDE:-1}
GZIP=${GZIP:-0}
RAW=${RAW:-1}
PROFILE_OUT=${PROFILE_OUT:-$PWD/bench-cpu.pprof}
PROFILE_MODE=${PROFILE_MODE:-lean}
FLOOR=${FLOOR:-1}
SEED=${SEED:-}
[ "$DURATION" -ge 4 ] || { echo "bench: DURATION must be at least 4 seconds" >&2; exit 2; }
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}

cd "$(dirname "$0")/.."
work=$(mktemp -d)
suffix="$$_$(date +%s)"
app_db="bench_app_$suffix"
pgbench_db="bench_pgbench_$suffix"
server_pid=""

cleanup() {
	if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
		kill "$server_pid"
		wait "$server_pid" 2>/dev/null || true
	fi
	psql -qX -d postgres -c "DROP DATABASE IF EXISTS $app_db WITH (FORCE)" >/dev/null 2>&1 || true
	psql -qX -d postgres -c "DROP DATABASE IF EXISTS $pgbench_db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "bench: $*" >&2; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

log "building the server and loadgen"
if [ -n "${SERVER:-}" ]; then
	cp "$SERVER" "$work/primegames"
else
	go build -o "$work/primegames" ./cmd/primegames
fi
go build -o "$work/loadgen" ./tools/loadgen
[ "$FLOOR" = 0 ] || go build -o "$work/floor" ./tools/floor

log "creating databases $app_db and $pgbench_db"
psql -qX -d postgres -c "CREATE DATABASE $app_db" >/dev/null
psql -qX -d postgres -c "CREATE DATABASE $pgbench_db" >/dev/null
pgbench -i -q -s "$PGBENCH_SCALE" "$pgbench_db" >"$work/pgbench-init.log" 2>&1

port=$(free_port)
admin_port=$(free_port)
url="http://127.0.0.1:$port"
log "starting the server on $url (RATE_LIMIT=0, DB_MAX_CONNS=$DB_MAX_CONNS)"
DATABASE_URL="postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$app_db?sslmode=disable" \
	LISTEN_ADDR="127.0.0.1:$port" ADMIN_ADDR="127.0.0.1:$admin_port" RATE_LIMIT=0 LOG_LEVEL=warn \
	DB_MAX_CONNS="$DB_MAX_CONNS" "$work/primegames" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
	curl -fs "$url/readyz" >/dev/null 2>&1 && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
	sleep 0.1
done
curl -fs "$url/readyz" >/dev/null || { log "the server did not become ready"; cat "$work/server.log" >&2; exit 1; }

# backend_ticks DB prints "pid ticks" for each client backend connected to DB: the CPU time (user +
# system, in clock ticks) it has used. Only a Postgres on this machine has its processes in /proc.
backend_ticks() {
	psql -qXAt -d postgres -c "SELECT pid FROM pg_stat_activity WHERE datname = '$1' AND backend_type = 'client backend'" |
		while read -r pid; do awk -v p="$pid" '{ print p, $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true; done
}

# backends_cpu DB prints the CPU seconds that the client backends of DB use between about 1 s into a
# run and 1.5 s before its end (so that connecting and disconnecting are left out), and the seconds
# between the two readings; it is started with the run.
backends_cpu() {
	local start=$EPOCHREALTIME first second t0 t1 t2 t3
	sleep 1
	t0=$EPOCHREALTIME
	first=$(backend_ticks "$1")
	t1=$EPOCHREALTIME
	sleep "$(awk -v start="$start" -v now="$EPOCHREALTIME" -v d="$DURATION" 'BEGIN { s = start + d - 1.5 - now; print (s > 0 ? s : 0) }')"
	t2=$EPOCHREALTIME
	second=$(backend_ticks "$1")
	t3=$EPOCHREALTIME
	# Each reading took a while: the window runs from the middle of the first to the middle of the second.
	{ sed 's/^/before /' <<<"$first"; sed 's/^/after /' <<<"$second"; } |
		awk -v hz="$(getconf CLK_TCK)" -v window="$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN { print (c + d) / 2 - (a + b) / 2 }')" '
			$1 == "before" { b[$2] = $3 }
			$1 == "after" && NF == 3 { s += $3 - ($2 in b ? b[$2] : 0) }
			END { print s / hz, window }'
}

# pgbench_tps MODE-FLAGS... prints the TPS of one pgbench run, its transactions' p99 latency in ms,
# and the CPU seconds of its backends with the seconds they were measured over (backends_cpu).
pgbench_tps() {
	rm -f "$work"/pgbench-latency.*
	backends_cpu "$pgbench_db" >"$work/pgbench-backends" &
	local backends=$!
	pgbench -c "$CLIENTS" -j "$(nproc)" -T "$DURATION" -l --log-prefix="$work/pgbench-latency" "$@" "$pgbench_db" \
		>"$work/pgbench.log" 2>&1 || { cat "$work/pgbench.log" >&2; exit 1; }
	wait "$backends"
	printf '%s %s %s\n' "$(awk '/^tps = / { print $3; exit }' "$work/pgbench.log")" \
		"$(cat "$work"/pgbench-latency.* | awk '{ print $3 }' | sort -n | awk '{ v[NR] = $1 } END { i = int(NR * 0.99); print v[i < 1 ? 1 : i] / 1000 }')" \
		"$(cat "$work/pgbench-backends")"
	rm -f "$work"/pgbench-latency.*
}

# server_cpu prints the CPU time the server has used, user and system, in clock ticks.
server_cpu() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }

# loadgen_result MODE prints the RESULT line's fields of one loadgen run, as key=value words.
loadgen_result() {
	local include=true
	[ "$INCLUDE" = 0 ] && include=false
	local gzip=false
	[ "$GZIP" = 1 ] && gzip=true
	local raw=true
	[ "$RAW" = 0 ] && raw=false
	local cpu_before loadgen_cpu TIMEFORMAT='%U %S'
	cpu_before=$(server_cpu)
	backends_cpu "$app_db" >"$work/app-backends" &
	local backends=$!
	loadgen_cpu=$({ time "$work/loadgen" -mode "$1" -include="$include" -gzip="$gzip" -raw="$raw" -url "$url" -concurrency "$CLIENTS" \
		-duration "${DURATION}s" -seed "${SEED:-$RANDOM}" >"$work/loadgen-$1.log" 2>&1; } 2>&1) || { cat "$work/loadgen-$1.log" >&2; exit 1; }
	local result
	result=$(grep '^RESULT ' "$work/loadgen-$1.log" | cut -d' ' -f2-) ||
		{ log "loadgen -mode $1 gave no RESULT line:"; cat "$work/loadgen-$1.log" >&2; exit 1; }
	wait "$backends"
	echo "$result server_cpu_s=$(awk -v t="$(($(server_cpu) - cpu_before))" -v hz="$(getconf CLK_TCK)" 'BEGIN { print t / hz }')" \
		"loadgen_cpu_s=$(awk -v t="$loadgen_cpu" 'BEGIN { split(t, a, " "); print a[1] + a[2] }')" \
		"backends_cpu_s=$(cut -d' ' -f1 "$work/app-backends") backends_window_s=$(cut -d' ' -f2 "$work/app-backends")"
}

field() { tr ' ' '\n' <<<"$1" | awk -F= -v k="$2" '$1 == k { print $2 }'; }

# floor_result prints tools/floor's server CPU per GET and per POST, in µs.
floor_result() {
	"$work/floor" -db "postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$app_db?sslmode=disable" \
		-clients "$CLIENTS" -duration "${DURATION}s" >"$work/floor.log" 2>&1 || { cat "$work/floor.log" >&2; exit 1; }
	awk '/^RESULT floor / { for (i = 1; i <= NF; i++) if ($i ~ /^(mode|server_cpu_per_request_us)=/) { split($i, kv, "="); f[kv[1]] = kv[2] }
		us[f["mode"]] = f["server_cpu_per_request_us"] }
		END { print us["get"], us["post"] }' "$work/floor.log"
}

rows=()
unit_rows=()
loadgen_rows=()
backend_rows=()
floor_rows=()
for round in $(seq "$ROUNDS"); do
	log "round $round of $ROUNDS: pgbench tpcb-like"
	read -r tpcb tpcb_p99 tpcb_backends tpcb_window < <(pgbench_tps)
	log "round $round of $ROUNDS: loadgen lean loop"
	lean=$(loadgen_result lean)
	log "round $round of $ROUNDS: pgbench select-only"
	read -r select_only _ select_backends select_window < <(pgbench_tps -S)
	log "round $round of $ROUNDS: loadgen GET mode"
	gets=$(loadgen_result get)
	log "round $round of $ROUNDS: loadgen legal-actions mode"
	legal=$(loadgen_result legal)
	if [ "$FLOOR" != 0 ]; then
		log "round $round of $ROUNDS: tools/floor"
		floor_rows+=("$(floor_result)")
	fi
	errors=$(($(field "$lean" errors) + $(field "$gets" errors) + $(field "$legal" errors)))
	if [ "$errors" -ne 0 ]; then
		log "round $round: loadgen saw $errors failed requests:"
		cat "$work/loadgen-lean.log" "$work/loadgen-get.log" "$work/loadgen-legal.log" >&2
	fi
	# The server's CPU per unit, in µs: per GET of legal actions (the legal-actions run), and per POST
	# of an action (the lean loop's CPU less its GETs of legal actions and of games, at the costs the
	# legal-actions and GET runs measured, per accepted action).
	cpu_per_legal=$(awk -v s="$(field "$legal" server_cpu_s)" -v n="$(field "$legal" requests)" 'BEGIN { print n ? s * 1e6 / n : 0 }')
	unit_rows+=("$(awk -v s="$(field "$lean" server_cpu_s)" -v n="$(field "$lean" actions)" -v legal="$(field "$lean" legal_gets)" \
		-v games="$(field "$lean" game_gets)" -v lc="$cpu_per_legal" \
		-v gc="$(awk -v s="$(field "$gets" server_cpu_s)" -v n="$(field "$gets" requests)" 'BEGIN { print n ? s * 1e6 / n : 0 }')" \
		'BEGIN { post = n ? (s * 1e6 - legal * lc - games * gc) / n : 0; print post, gc, lc, n ? legal / n : 0 }')")
	# The server's CPU per accepted action (its GETs of legal actions included) and per GET, in µs.
	cpu_per_action=$(awk -v s="$(field "$lean" server_cpu_s)" -v n="$(field "$lean" actions)" 'BEGIN { print n ? s * 1e6 / n : 0 }')
	cpu_per_get=$(awk -v s="$(field "$gets" server_cpu_s)" -v n="$(field "$gets" requests)" 'BEGIN { print n ? s * 1e6 / n : 0 }')
	rows+=("$round $tpcb $(field "$lean" actions_per_s) $(field "$lean" post_p50_ms) $(field "$lean" post_p99_ms) $select_only $(field "$gets" requests_per_s) $(field "$gets" get_p99_ms) $errors $tpcb_p99 $cpu_per_action $cpu_per_get")
	# loadgen's own CPU per action and per GET, in µs (pgbench's is not measured).
	loadgen_rows+=("$(awk -v s="$(field "$lean" loadgen_cpu_s)" -v n="$(field "$lean" actions)" 'BEGIN { print n ? s * 1e6 / n : 0 }') $(awk -v s="$(field "$gets" loadgen_cpu_s)" -v n="$(field "$gets" requests)" 'BEGIN { print n ? s * 1e6 / n : 0 }')")
	# The CPU of Postgres's client backends per tpcb-like transaction, per accepted action, per
	# select-only transaction and per GET, in µs, over the runs' measured windows.
	backend_rows+=("$(awk -v a="$tpcb_backends" -v b="$(field "$lean" backends_cpu_s)" -v c="$select_backends" -v d="$(field "$gets" backends_cpu_s)" \
		-v ra="$tpcb" -v rb="$(field "$lean" actions_per_s)" -v rc="$select_only" -v rd="$(field "$gets" requests_per_s)" \
		-v wa="$tpcb_window" -v wb="$(field "$lean" backends_window_s)" -v wc="$select_window" -v wd="$(field "$gets" backends_window_s)" \
		'function per(cpu, rate, w) { return rate && w ? cpu * 1e6 / (rate * w) : 0 } BEGIN { print per(a, ra, wa), per(b, rb, wb), per(c, rc, wc), per(d, rd, wd) }')")
done

peak_rss_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$server_pid/status")

# The table: one row per round, then the median of each column (ratios: median of the rounds' ratios).
# median_awk is an awk function: the median of column col of the rows read into cell[row, col].
median_awk='function median(col,   n, i, j, t, v) {
	n = 0
	for (i = 1; i <= NR; i++) v[++n] = cell[i, col]
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
'

printf '%s\n' "${rows[@]}" | awk -v clients="$CLIENTS" -v duration="$DURATION" -v scale="$PGBENCH_SCALE" -v rss="$peak_rss_kb" -v lean_include="$INCLUDE" "$median_awk"'
{
	cell[NR, 1] = $2; cell[NR, 2] = $3; cell[NR, 3] = $3 / $2; cell[NR, 4] = $4; cell[NR, 5] = $5
	cell[NR, 6] = $6; cell[NR, 7] = $7; cell[NR, 8] = $7 / $6; cell[NR, 9] = $8; cell[NR, 10] = $9
	cell[NR, 11] = $10; cell[NR, 12] = $11; cell[NR, 13] = $12
	label[NR] = "round " $1
}
END {
	printf "\n%d clients, %d s per run, pgbench scale %d, lean loop %s include=legal_actions; ratios: actions/s / tpcb-like TPS and GET req/s / select-only TPS\n\n", clients, duration, scale, lean_include == 0 ? "without" : "with"
	printf "tpcb p99: pgbench'"'"'s own p99 latency; CPU/action, CPU/GET: the server'"'"'s CPU time (user + system) per accepted action, its GETs of legal actions included, and per GET\n\n"
	fmt = "| %-8s | %9s | %9s | %9s | %6s | %9s | %9s | %11s | %11s | %9s | %6s | %9s | %9s | %6s |\n"
	printf fmt, "", "tpcb TPS", "tpcb p99", "actions/s", "ratio", "POST p50", "POST p99", "CPU/action", "select TPS", "GET req/s", "ratio", "GET p99", "CPU/GET", "errors"
	printf "|----------|-----------|-----------|-----------|--------|-----------|-----------|-------------|-------------|-----------|--------|-----------|-----------|--------|\n"
	for (i = 1; i <= NR; i++) row(label[i], i)
	for (c = 1; c <= 13; c++) cell[NR + 1, c] = median(c)
	row("median", NR + 1)
	printf "\nserver peak RSS (VmHWM): %.1f MB\n", rss / 1024
}
function row(name, i) {
	printf "| %-8s | %9.0f | %6.1f ms | %9.0f | %6.2f | %6.1f ms | %6.1f ms | %8.0f µs | %11.0f | %9.0f | %6.2f | %6.1f ms | %6.0f µs | %6d |\n", name,
		cell[i, 1], cell[i, 11], cell[i, 2], cell[i, 3], cell[i, 4], cell[i, 5], cell[i, 12], cell[i, 6], cell[i, 7], cell[i, 8], cell[i, 9],
		cell[i, 13], cell[i, 10]
}'

printf '%s\n' "${loadgen_rows[@]}" | sort -n -k1,1 | awk '{ a[NR] = $1 } END { printf "loadgen CPU (user + system), medians: %.0f µs per action, ", a[int((NR + 1) / 2)] }'
printf '%s\n' "${loadgen_rows[@]}" | sort -n -k2,2 | awk '{ g[NR] = $2 } END { printf "%.0f µs per GET\n", g[int((NR + 1) / 2)] }'

printf '%s\n' "${unit_rows[@]}" | awk "$median_awk"'
{ for (c = 1; c <= 4; c++) cell[NR, c] = $c }
END {
	printf "server CPU per unit, medians: %.0f µs per POST of an action (the lean loop less its %.2f GETs of legal actions per action), %.0f µs per GET of a game, %.0f µs per GET of legal actions\n",
		median(1), median(4), median(2), median(3)
}'

# The floor of the stack, and the server's CPU per unit as a multiple of it (the round's own floor).
if [ "${#floor_rows[@]}" -gt 0 ]; then
	paste -d' ' <(printf '%s\n' "${floor_rows[@]}") <(printf '%s\n' "${unit_rows[@]}") | awk "$median_awk"'
	{ cell[NR, 1] = $1; cell[NR, 2] = $2; cell[NR, 3] = $3 / $2; cell[NR, 4] = $4 / $1; cell[NR, 5] = $5 / $1 }
	END {
		printf "the floor (tools/floor: net/http, echo and pgx doing the least), medians: %.0f µs per GET, %.0f µs per POST; the server per unit as a multiple of its round'"'"'s floor: POST %.1f×, GET %.1f×, legal-actions GET %.1f×\n",
			median(1), median(2), median(3), median(4), median(5)
	}'
fi

# Postgres's share: the CPU of the client backends (the database's own work, without pgbench's or
# the server's), per unit of each run, medians.
printf '%s\n' "${backend_rows[@]}" | awk "$median_awk"'
{ for (c = 1; c <= 4; c++) cell[NR, c] = $c }
END {
	printf "Postgres backends CPU (user + system), medians: %.0f µs per tpcb-like transaction, %.0f µs per action; %.0f µs per select-only transaction, %.0f µs per GET\n",
		median(1), median(2), median(3), median(4)
}'

if [ "$PROFILE" = 1 ]; then
	seconds=$((DURATION > 4 ? DURATION - 2 : DURATION))
	log "profiling the server for ${seconds}s during one more $PROFILE_MODE run (not in the table)"
	curl -fs -o "$PROFILE_OUT" "http://127.0.0.1:$admin_port/debug/pprof/profile?seconds=$seconds" &
	profile_pid=$!
	loadgen_result "$PROFILE_MODE" >/dev/null
	wait "$profile_pid"
	echo
	echo "CPU profile of the server during the $PROFILE_MODE run ($PROFILE_OUT), by own time:"
	go tool pprof -top -nodecount=25 "$work/primegames" "$PROFILE_OUT" 2>/dev/null | sed -n '1,35p'
	echo
	echo "by cumulative time:"
	go tool pprof -top -cum -nodecount=40 "$work/primegames" "$PROFILE_OUT" 2>/dev/null | sed -n '6,50p'
fi
