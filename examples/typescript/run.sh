#!/usr/bin/env bash
# The TypeScript example, as CI runs it: check and build the package it uses (clients/typescript:
# its types up to date with ../../openapi.yaml, dist/ built, installable by path), install the
# pinned packages, type-check strictly, then play both games against the server at PRIMEGAMES_URL
# (skipped when unset).
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v npm >/dev/null 2>&1; then
  echo "examples/typescript: npm is not installed; install Node.js 20 or newer (it comes with npm)" >&2
  exit 1
fi

../../clients/typescript/check.sh
npm ci --no-audit --no-fund

npx --no-install tsc --noEmit
# The program narrows by `game` and `type`; a cast or an `any` would hide a contract that does not.
if grep -nE '(^|[^/])\b(as [A-Za-z{(\[]|any\b)' src/main.ts src/events.ts src/contract-checks.ts | grep -vE '^[^:]+:[0-9]+:\s*//'; then
  echo "examples/typescript: the lines above cast or use any" >&2
  exit 1
fi
echo "examples/typescript: type-checks strictly against @primegames/client"

if [ -z "${PRIMEGAMES_URL:-}" ]; then
  echo "examples/typescript: PRIMEGAMES_URL is not set; not playing"
  exit 0
fi
npx --no-install tsc
node build/main.js
