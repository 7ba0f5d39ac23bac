#!/usr/bin/env bash
# Reads the plans Postgres runs for the request paths of scripts/growth.sh on a database it kept
# (KEEP=1): for each size in SIZES it turns auto_explain on for growth_<size> (ANALYZE, BUFFERS,
# every statement), starts this checkout's server on it, sends each path twice (a GET of a game and
# its legal actions, turn=mine, a class's games and statistics, an event stream resumed, a history
# page, the NDJSON export, a kept review, an action), turns auto_explain off again, and keeps the
# server log's plans in plans_<size>.log in REPORTS. Then it prints, for each statement, its time
# and buffers at each size and the scans of its plan. See docs/performance.md ("Growth").
#
# Needs what growth.sh needs, and to read the Postgres server's log on this machine (PGLOG).
#
#   SIZES="1000 1000000"   the kept databases growth_<size>, with growth_<size>.json in REPORTS
#   REPORTS=$PWD           where growth.sh kept its reports; the plans go there too
#   PGLOG=/var/log/postgresql/postgresql-15-main.log
set -euo pipefail

SIZES=${SIZES:-1000 1000000}
REPORTS=${REPORTS:-$PWD}
PGLOG=${PGLOG:-/var/log/postgresql/postgresql-15-main.log}
cd "$(dirname "$0")/.."
# shellcheck source=scripts/fresh-server.sh
source scripts/fresh-server.sh

explain() { # explain DB on|off
	if [ "$2" = on ]; then
		psql -qX -d postgres -c "ALTER DATABASE $1 SET session_preload_libraries = 'auto_explain'" \
			-c "ALTER DATABASE $1 SET auto_explain.log_min_duration = 0" -c "ALTER DATABASE $1 SET auto_explain.log_analyze = on" \
			-c "ALTER DATABASE $1 SET auto_explain.log_buffers = on"
	else
		psql -qX -d postgres -c "ALTER DATABASE $1 RESET ALL"
	fi
}

for size in $SIZES; do
	db=growth_$size report=$REPORTS/growth_$size.json
	explain "$db" on
	trap 'explain "$db" off; fresh_server_cleanup' EXIT
	start=$(wc -c <"$PGLOG")
	DB=$db fresh_server plans RATE_LIMIT=0
	regular=$(jq -r .RegularToken "$report")
	teacher=$(jq -r .BigClass.TeacherToken "$report")
	class=$(jq -r .BigClass.ID "$report")
	long=$(jq -r .LongGame "$report")
	finished=$(jq -r '.Regular[1]' "$report")
	game=$(curl -sf "$API/v1/me/games?turn=mine&limit=1" -H "Authorization: Bearer $regular" | jq -r '.items[0].id')
	for _ in 1 2; do
		curl -sf -o /dev/null "$API/v1/games/$game" -H "Authorization: Bearer $regular"
		curl -sf -o /dev/null "$API/v1/games/$game/legal-actions" -H "Authorization: Bearer $regular"
		curl -sf -o /dev/null "$API/v1/me/games?turn=mine" -H "Authorization: Bearer $regular"
		curl -sf -o /dev/null "$API/v1/classrooms/$class/games" -H "Authorization: Bearer $teacher"
		curl -sf -o /dev/null "$API/v1/classrooms/$class/stats" -H "Authorization: Bearer $teacher"
		curl -sfN -o /dev/null --max-time 10 -H "Last-Event-ID: $(($(jq -r .LongGameEntries "$report") - 201))" "$API/v1/games/$long/events"
		curl -sf -o /dev/null "$API/v1/games/$long/actions?limit=100"
		curl -sf -o /dev/null "$API/v1/games/$long/actions" -H "Accept: application/x-ndjson"
		curl -sf -o /dev/null "$API/v1/games/$finished/review" -H "Authorization: Bearer $regular"
	done
	move=$(curl -sf "$API/v1/games/$game/legal-actions" -H "Authorization: Bearer $regular" |
		jq -ce '[.actions[] | select(.wins != true)][0].action // .actions[0].action') || true
	curl -sf -o /dev/null -X POST "$API/v1/games/$game/actions" -H "Authorization: Bearer $regular" \
		-H 'Content-Type: application/json' -d "$move" || echo "growth-plans: the action was refused" >&2
	sleep 2 # a pass of the worker
	kill "$server_pid"
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
	explain "$db" off
	trap fresh_server_cleanup EXIT
	tail -c +"$((start + 1))" "$PGLOG" >"$REPORTS/plans_$size.log"
done

# A line per statement and size: milliseconds and buffers (hit+read) of each time it ran, and the
# scans of its plans.
python3 - "$REPORTS" $SIZES <<'PY'
import collections, re, sys
reports, sizes = sys.argv[1], sys.argv[2:]
def statements(path):
    out = collections.OrderedDict()
    text = open(path, errors="replace").read()
    for m in re.finditer(r"LOG:  duration: ([\d.]+) ms  plan:\n((?:[\t ].*\n?)*)", text):
        body = m.group(2)
        if "Query Text:" not in body:
            continue
        lines = body.split("Query Text:", 1)[1].split("\n")
        query, plan = [], []
        for line in lines:
            (plan if plan or re.match(r"^\t[A-Z][A-Za-z ]+  \(cost", line) else query).append(line)
        q = re.sub(r"\s+", " ", " ".join(query)).strip()[:110]
        plan = "\n".join(plan)
        first = re.search(r"Buffers: (.*)", plan)
        hit = sum(int(x) for x in re.findall(r"hit=(\d+)", first.group(1))) if first else 0
        read = sum(int(x) for x in re.findall(r"read=(\d+)", first.group(1))) if first else 0
        scans = set(re.findall(r"((?:Seq Scan|Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)?(?: using \w+)? on \w+)", plan))
        out.setdefault(q, []).append((float(m.group(1)), hit, read, scans))
    return out
by_size = {s: statements(f"{reports}/plans_{s}.log") for s in sizes}
for q in by_size[sizes[-1]]:
    print(q)
    for s in sizes:
        runs = by_size[s].get(q, [])
        print(f"  {s:>9}: " + ", ".join(f"{d:.2f} ms {h}+{r}" for d, h, r, _ in runs[:4]) +
              "   " + "; ".join(sorted(set().union(*[x[3] for x in runs]))) if runs else f"  {s:>9}: –")
PY
