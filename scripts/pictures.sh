#!/usr/bin/env bash
# Makes the pictures docs/app.md shows: starts the service on a fresh database, creates a Prime Climb
# and a Primed game, plays some moves, fetches the SVG pictures and renders each in a real browser
# (chromium --headless --screenshot) to a PNG. Both land in docs/images/ (OUT to choose). Look at the
# PNGs after a change to the drawing code: a test proves what a picture holds, not how it looks.
#
# Needs Go, psql, curl, jq, chromium (Debian: apt install chromium), and a Postgres where PGUSER may
# create databases (PGHOST, PGPORT, PGUSER, PGPASSWORD: 127.0.0.1, 5432, postgres by default).
# Everything the script made but the pictures is removed when it ends. SEED picks the moves; the
# dice and the deck are the server's (a secret seed per game, G-1), so each run shows another
# position.
set -euo pipefail

OUT=${OUT:-docs/images}
SEED=${SEED:-7}
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}

cd "$(dirname "$0")/.."
mkdir -p "$OUT"
work=$(mktemp -d)
app_db="pictures_$$_$(date +%s)"
server_pid=""

cleanup() {
	if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
		kill "$server_pid"
		wait "$server_pid" 2>/dev/null || true
	fi
	psql -qX -d postgres -c "DROP DATABASE IF EXISTS $app_db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "pictures: $*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

log "building the server"
go build -o "$work/primegames" ./cmd/primegames
psql -qX -d postgres -c "CREATE DATABASE $app_db" >/dev/null
port=$(free_port)
API="http://127.0.0.1:$port"
DATABASE_URL="postgres://$PGUSER${PGPASSWORD:+:$PGPASSWORD}@$PGHOST:$PGPORT/$app_db?sslmode=disable" \
	LISTEN_ADDR="127.0.0.1:$port" RATE_LIMIT=0 LOG_LEVEL=warn "$work/primegames" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do
	curl -fs "$API/readyz" >/dev/null 2>&1 && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
	sleep 0.1
done

# phase ID prints the phase of a game's view.
phase() { curl -fsS "$API/v1/games/$1" | jq -r .state.phase; }

# create KIND NAME... creates a game and prints its JSON (the game, its creator and seat tokens).
create() {
	local kind=$1
	shift
	local players
	players=$(printf '%s\n' "$@" | jq -R '{name: .}' | jq -s .)
	curl -fsS "$API/v1/games" -H 'Content-Type: application/json' \
		-d "$(jq -n --arg kind "$kind" --argjson players "$players" '{game: $kind, players: $players}')"
}

# play CREATED N plays N actions, each seat picking one of its legal actions by a seeded choice.
play() {
	local created=$1 n=$2 id seat token pick
	id=$(jq -r .game.id <<<"$created")
	RANDOM=$SEED
	for _ in $(seq "$n"); do
		seat=$(curl -fsS "$API/v1/games/$id" | jq '.turn.to_act[0]')
		[ "$seat" = null ] && return
		token=$(jq -r ".seats[$seat].token" <<<"$created")
		pick=$RANDOM
		action=$(curl -fsS "$API/v1/games/$id/legal-actions" -H "Authorization: Bearer $token" |
			jq -c --argjson pick "$pick" '.actions[$pick % (.actions | length)].action')
		curl -fsS -o /dev/null "$API/v1/games/$id/actions" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "$action"
	done
}

# shoot NAME WIDTH HEIGHT URL [CURL-ARGS...] saves the picture as NAME.svg and its screenshot as NAME.png.
shoot() {
	local name=$1 width=$2 height=$3 url=$4
	shift 4
	curl -fsS -o "$OUT/$name.svg" "$url" "$@"
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$width,$height" \
		--screenshot="$OUT/$name.png" "file://$PWD/$OUT/$name.svg" >/dev/null 2>&1
	log "$OUT/$name.svg and $OUT/$name.png ($(wc -c <"$OUT/$name.svg") bytes of SVG)"
}

shoot board 980 660 "$API/v1/boards/prime-climb.svg"

climb=$(create prime-climb Ada Ben Cy)
play "$climb" 30
# End on a move rather than a roll, so that the picture shows the move's arrows.
if [ "$(phase "$(jq -r .game.id <<<"$climb")")" = move ]; then play "$climb" 1; fi
shoot prime-climb 980 660 "$API/v1/games/$(jq -r .game.id <<<"$climb")/picture.svg"

primed=$(create primed Ada Ben Cy)
play "$primed" 9
primed_id=$(jq -r .game.id <<<"$primed")
shoot primed-seat-0 900 580 "$API/v1/games/$primed_id/picture.svg?access_token=$(jq -r '.seats[0].token' <<<"$primed")"
shoot primed-public 900 580 "$API/v1/games/$primed_id/picture.svg"

# The replay of a game that is over: abort the Primed game, then every hand is shown (PR-8).
curl -fsS -o /dev/null -X POST "$API/v1/games/$primed_id/abort" -H "Authorization: Bearer $(jq -r .creator_token <<<"$primed")"
shoot primed-replay 900 580 "$API/v1/games/$primed_id/replay.svg"
