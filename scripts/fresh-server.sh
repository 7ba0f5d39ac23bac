# shellcheck shell=bash
# Sourced by the measurement scripts (flood.sh, replay-load.sh, soak.sh): starts this checkout's
# server (or SERVER, another build) on a fresh database and removes both when the script ends.
#
#   fresh_server NAME [VAR=value ...]
#
# makes a database NAME_<pid>_<time> (or uses DB when set, and keeps it), builds the server, starts
# it on a free port with the given environment and LOG_LEVEL=error unless given, waits until it is
# ready, and sets API (its URL), server_pid, work (a scratch folder removed at the end; the
# server's log is $work/server.log). Needs Go, psql, curl and a Postgres where PGUSER may create
# databases (PGHOST, PGPORT, PGUSER, PGPASSWORD: 127.0.0.1, 5432, postgres by default).

export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
work=$(mktemp -d)
server_pid="" fresh_db="" keep_db=""
extra_pids=()

fresh_server_cleanup() {
	for pid in "${extra_pids[@]}" $server_pid; do
		if kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
	done
	if [ -n "$fresh_db" ] && [ -z "$keep_db" ]; then
		psql -qX -d postgres -c "DROP DATABASE IF EXISTS $fresh_db WITH (FORCE)" >/dev/null 2>&1 || true
	fi
	rm -rf "$work"
}
trap fresh_server_cleanup EXIT
trap 'exit 130' INT TERM

fresh_server() {
	local name=$1 server=${SERVER:-}
	shift
	if [ -n "${DB:-}" ]; then
		fresh_db=$DB keep_db=1
		psql -qX -d postgres -tc "SELECT 1 FROM pg_database WHERE datname = '$fresh_db'" | grep -q 1 ||
			psql -qX -d postgres -c "CREATE DATABASE $fresh_db" >/dev/null
	else
		fresh_db="${name}_$$_$(date +%s)"
		psql -qX -d postgres -c "CREATE DATABASE $fresh_db" >/dev/null
	fi
	if [ -z "$server" ]; then
		go build -o "$work/primegames" ./cmd/primegames
		server=$work/primegames
	fi
	local port
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	API="http://127.0.0.1:$port"
	env LOG_LEVEL=error "$@" \
		DATABASE_URL="postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$fresh_db?sslmode=disable" \
		LISTEN_ADDR="127.0.0.1:$port" "$server" serve >"$work/server.log" 2>&1 &
	server_pid=$!
	for _ in $(seq 100); do
		curl -fs "$API/readyz" >/dev/null 2>&1 && return 0
		kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
		sleep 0.1
	done
	curl -fsS "$API/readyz" >/dev/null
}
