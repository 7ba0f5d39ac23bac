#!/usr/bin/env bash
# Makes the pictures docs/app.md shows: starts the service on a fresh database, creates a Prime Climb
# and a Primed game, plays some moves, fetches the SVG pictures and renders each in a real browser
# (chromium --headless --screenshot) to a PNG, in both layouts: desktop at the picture's own size,
# phone (?layout=phone) in a 360 px wide page at a phone's pixel density. It also fetches a few of
# the server's own PNGs (*.server.png). All land in docs/images/ (OUT to choose). Look at the
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

# size SVG prints the width and height attributes of an SVG picture.
size() { grep -o '<svg [^>]*>' "$1" | sed -E 's/.* width="([0-9.]+)" height="([0-9.]+)".*/\1 \2/'; }

# shoot NAME URL saves the picture as NAME.svg and its screenshot, at the picture's size, as NAME.png.
shoot() {
	local name=$1 url=$2 width height
	curl -fsS -o "$OUT/$name.svg" "$url"
	read -r width height < <(size "$OUT/$name.svg")
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="${width%.*},${height%.*}" \
		--screenshot="$OUT/$name.png" "file://$PWD/$OUT/$name.svg" >/dev/null 2>&1
	log "$OUT/$name.svg and $OUT/$name.png ($(wc -c <"$OUT/$name.svg") bytes of SVG)"
}

# shoot_phone NAME URL saves the phone layout of a picture as NAME.svg and a screenshot of it in an
# <img> 360 px wide, as a phone shows it (2 device pixels per px), as NAME.png.
shoot_phone() {
	local name=$1 url=$2 width height
	curl -fsS -o "$OUT/$name.svg" "$url"
	read -r width height < <(size "$OUT/$name.svg")
	printf '<!doctype html><body style="margin:0"><img src="%s.svg" style="width:360px;display:block">' "$name" >"$OUT/$name.html"
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=2 \
		--window-size="360,$(awk -v w="$width" -v h="$height" 'BEGIN { printf "%d", 360 * h / w + 0.5 }')" \
		--screenshot="$OUT/$name.png" "file://$PWD/$OUT/$name.html" >/dev/null 2>&1
	rm "$OUT/$name.html"
	log "$OUT/$name.svg and $OUT/$name.png (as a 360 px wide phone shows it)"
}

# fetch NAME URL saves the server's own PNG of a picture as NAME.server.png.
fetch() {
	curl -fsS -o "$OUT/$1.server.png" "$2"
	log "$OUT/$1.server.png ($(wc -c <"$OUT/$1.server.png") bytes, drawn by the server)"
}

shoot board "$API/v1/boards/prime-climb.svg"

climb=$(create prime-climb Ada Ben Cy)
play "$climb" 30
# End on a move rather than a roll, so that the picture shows the move's arrows.
if [ "$(phase "$(jq -r .game.id <<<"$climb")")" = move ]; then play "$climb" 1; fi
climb_id=$(jq -r .game.id <<<"$climb")
shoot prime-climb "$API/v1/games/$climb_id/picture.svg"
shoot_phone prime-climb-phone "$API/v1/games/$climb_id/picture.svg?layout=phone"

primed=$(create primed Ada Ben Cy)
play "$primed" 9
primed_id=$(jq -r .game.id <<<"$primed")
ada=$(jq -r '.seats[0].token' <<<"$primed")
shoot primed-seat-0 "$API/v1/games/$primed_id/picture.svg?access_token=$ada"
shoot_phone primed-seat-0-phone "$API/v1/games/$primed_id/picture.svg?layout=phone&access_token=$ada"
fetch primed-seat-0 "$API/v1/games/$primed_id/picture.png?access_token=$ada"
shoot primed-public "$API/v1/games/$primed_id/picture.svg"

# The replay of a game that is over: abort the Primed game, then every hand is shown (PR-8).
curl -fsS -o /dev/null -X POST "$API/v1/games/$primed_id/abort" -H "Authorization: Bearer $(jq -r .creator_token <<<"$primed")"
shoot primed-replay "$API/v1/games/$primed_id/replay.svg"
fetch primed-replay-phone "$API/v1/games/$primed_id/replay.png?layout=phone"
