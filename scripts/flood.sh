#!/usr/bin/env bash
# Floods a running server (URL, default http://localhost:8080) from this one address for SECONDS
# (default 60) with games of six expert computers, 20 rounds, no delay (issue 23), while games of a
# person against one computer (bot_delay_ms 800) and two-person games with a 3 s turn clock are
# created every second; then prints the created/refused counts and the worker's lateness by job
# from /metrics (worker_lateness_seconds: how long past its due time each game was served).
# A measurement, not a test: run it on an otherwise idle machine.
set -euo pipefail
URL=${URL:-http://localhost:8080}
SECONDS_TO_RUN=${1:-60}
flood='{"game":"primed","options":{"bot_delay_ms":0,"rounds":20},"players":[{"bot":"expert"},{"bot":"expert"},{"bot":"expert"},{"bot":"expert"},{"bot":"expert"},{"bot":"expert"}]}'
person='{"game":"primed","options":{"bot_delay_ms":800},"players":[{"name":"Ada"},{"bot":"expert"}]}'
clock='{"game":"primed","options":{"turn_seconds":3},"players":[{"name":"Bo"},{"name":"Cy"}]}'
end=$(( $(date +%s) + SECONDS_TO_RUN ))
out=$(mktemp -d)
( while [ "$(date +%s)" -lt "$end" ]; do
    curl -s -o /dev/null -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' -d "$flood" "$URL/v1/games"
  done >"$out/flood" ) &
( while [ "$(date +%s)" -lt "$end" ]; do
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer flood-probe-person' -d "$person" "$URL/v1/games"
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer flood-probe-clock' -d "$clock" "$URL/v1/games"
    sleep 1
  done ) &
wait
echo "flood: $(grep -c '^201' "$out/flood" || true) created, $(grep -c '^429' "$out/flood" || true) refused (429)"
sleep 5 # the last clocks run out
curl -s "$URL/metrics" | grep -E '^worker_(lateness_seconds_(bucket|count|sum)|queue_depth)' | grep -E 'job="(bot|turn|computer_game)"'
rm -r "$out"
