#!/usr/bin/env bash
# @primegames/client as CI checks it: install the pinned packages, check that src/schema.ts is what
# openapi-typescript makes of ../../openapi.yaml today, build dist/ with tsc, run its tests (against
# a fake fetch; examples/typescript plays against a real server), then install the package by its
# path into a fresh project, both as a link (`npm install <path>`) and as a copy (`npm install
# --install-links <path>`), and type-check and run a small program against it there; last, set up a
# new app exactly as docs/app.md says and type-check and start its program.
set -euo pipefail
cd "$(dirname "$0")"
package=$(pwd)

if ! command -v npm >/dev/null 2>&1; then
  echo "clients/typescript: npm is not installed; install Node.js 20 or newer (it comes with npm)" >&2
  exit 1
fi

npm ci --no-audit --no-fund

generated=$(mktemp --suffix=.ts)
fresh=$(mktemp -d)
trap 'rm -rf "$generated" "$fresh"' EXIT
npx --no-install openapi-typescript ../../openapi.yaml --output "$generated" >/dev/null
if ! diff -q "$generated" src/schema.ts >/dev/null; then
  echo "clients/typescript: src/schema.ts differs from openapi.yaml; run npm run generate there and commit it" >&2
  diff -u src/schema.ts "$generated" | head -40 >&2
  exit 1
fi

npm run build
if ! npm test --silent >"$fresh/test.log" 2>&1; then
  cat "$fresh/test.log" >&2
  echo "clients/typescript: the tests above failed" >&2
  exit 1
fi
grep -E '^# (tests|pass) ' "$fresh/test.log"
# The wrapper narrows and checks; a cast or an `any` would hide a contract that does not hold.
if grep -nE '(^|[^/])\b(as [A-Za-z{(\[]|any\b)' $(ls src/*.ts | grep -v schema.ts) | grep -vE '^[^:]+:[0-9]+:\s*(//|\*|/\*)'; then
  echo "clients/typescript: the lines above cast or use any" >&2
  exit 1
fi

# A fresh project, as a user outside the repository makes one, once per way of installing.
for how in link copy; do
  rm -rf "$fresh/app" && mkdir "$fresh/app" && cd "$fresh/app"
  npm init -y >/dev/null
  npm pkg set type=module
  npm install --no-audit --no-fund --save-exact typescript@5.9.3 @types/node@20.19.43 >/dev/null
  if [ "$how" = link ]; then
    npm install --no-audit --no-fund "$package" >/dev/null
  else
    npm install --no-audit --no-fund --install-links "$package" >/dev/null
  fi
  cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "lib": ["ES2022"],
  "types": ["node"], "strict": true, "exactOptionalPropertyTypes": true, "skipLibCheck": false, "outDir": "build" },
  "include": ["main.ts", "usage.ts"] }
JSON
  # usage.ts: the example of docs/app.md ("The TypeScript client"), type-checked, not run.
  sed -n '/^import { createClient, isPrimeClimb, unwrap }/,/^```$/p' "$package/../../docs/app.md" | sed '$d' >usage.ts
  test -s usage.ts
  cat >main.ts <<'TS'
import { createClient, isPrimed, type Game, type Schemas } from "@primegames/client";

const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "t" });
// A create request with only the options set; a game narrowed by its kind.
export const request: Schemas["CreateGameRequest"] = { game: "primed", options: { rounds: 2 } };
export function rounds(game: Game): number | undefined {
  return isPrimed(game) ? game.options.rounds : undefined;
}
const refused = await client.GET("/v1/games/{id}", { params: { path: { id: "x" } } }).catch((err: unknown) => err);
if (!(refused instanceof Error) || typeof client.followGame !== "function") throw new Error("unexpected client");
console.log("ok");
TS
  npx --no-install tsc -p .
  test "$(node build/main.js)" = ok
  echo "clients/typescript: installed as a $how by path; a strict program type-checks and runs against it"
done

# The guide's set-up of a new app (docs/app.md, "A new app, from nothing"), run as written but for
# the package's path; its main.ts type-checks and runs up to its first request (to a port nothing
# listens on), which only an ES module with top-level await reaches.
guide="$package/../../docs/app.md"
rm -rf "$fresh/guide" && mkdir "$fresh/guide" && cd "$fresh/guide"
sed -n '/^npm init -y$/,/^JSON$/p' "$guide" | sed "s#/path/to/primegames/clients/typescript#$package#" >setup.sh
grep -q '^npm pkg set type=module' setup.sh
bash -euo pipefail setup.sh >/dev/null
sed -n '/^import { createClient, unwrap } from "@primegames\/client";$/,/^```$/p' "$guide" | sed '$d' >main.ts
test -s main.ts
npx --no-install tsc
if PRIMEGAMES_URL=http://127.0.0.1:1 node build/main.js 2>run.log || ! grep -q 'fetch failed' run.log; then
  cat run.log >&2
  echo "clients/typescript: the guide's new app did not run up to its request" >&2
  exit 1
fi
echo "clients/typescript: the guide's set-up of a new app type-checks and runs"
