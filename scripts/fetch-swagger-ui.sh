#!/usr/bin/env bash
# Refreshes the Swagger UI assets that /docs serves from the binary. They come from the npm registry
# package swagger-ui-dist (Apache-2.0; LICENSE and NOTICE are kept beside them).
set -euo pipefail
version="${1:-5.35.0}"
dest="$(cd "$(dirname "$0")/.." && pwd)/api/docs/swagger-ui"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "swagger-ui-dist@${version}" >/dev/null && tar xzf swagger-ui-dist-*.tgz)
for f in swagger-ui-bundle.js swagger-ui.css LICENSE NOTICE favicon-32x32.png; do
  cp "$work/package/$f" "$dest/$f"
done
echo "swagger-ui-dist ${version} -> ${dest}"
