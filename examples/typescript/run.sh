#!/usr/bin/env bash
# The TypeScript example, as CI runs it: install the pinned packages, check that src/schema.ts is
# what openapi-typescript makes of ../../openapi.yaml today, type-check strictly, then play both
# games against the server at PRIMEGAMES_URL (skipped when unset).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v npm >/dev/null 2>&1; then
  echo "examples/typescript: npm is not installed; install Node.js 20 or newer (it comes with npm)" >&2
  exit 1
fi

npm ci --no-audit --no-fund

generated=$(mktemp --suffix=.ts)
trap 'rm -f "$generated"' EXIT
npx --no-install openapi-typescript ../../openapi.yaml --default-non-nullable false --output "$generated" >/dev/null
if ! diff -q "$generated" src/schema.ts >/dev/null; then
  echo "examples/typescript: src/schema.ts differs from openapi.yaml; run npm run generate there and commit it" >&2
  diff -u src/schema.ts "$generated" | head -40 >&2
  exit 1
fi

npx --no-install tsc --noEmit
# The program narrows by `game` and `type`; a cast or an `any` would hide a contract that does not.
if grep -nE '(^|[^/])\b(as [A-Za-z{(\[]|any\b)' src/main.ts src/events.ts src/contract-checks.ts | grep -vE '^[^:]+:[0-9]+:\s*//'; then
  echo "examples/typescript: the lines above cast or use any" >&2
  exit 1
fi
echo "examples/typescript: types match openapi.yaml and type-check strictly"

if [ -z "${PRIMEGAMES_URL:-}" ]; then
  echo "examples/typescript: PRIMEGAMES_URL is not set; not playing"
  exit 0
fi
npx --no-install tsc
node build/main.js
