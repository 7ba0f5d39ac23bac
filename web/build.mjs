// Bundles src/ into dist/: app-<hash>.js and app-<hash>.css (cached for a year by the server, as
// their names change with their content) and index.html naming them (never cached). The TypeScript
// client is bundled from its sources (../clients/typescript/src), so dist/ depends only on what is
// committed. Run by `npm run build`; CI checks that the committed dist/ is what this makes.
import { build } from "esbuild";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const result = await build({
  absWorkingDir: here,
  entryPoints: { app: "src/main.ts" },
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2022", "chrome110", "firefox110", "safari16"],
  outdir: join(dist, "assets"),
  entryNames: "[name]-[hash]",
  assetNames: "[name]-[hash]",
  // openapi-fetch from web/node_modules always, even where clients/typescript has its own: the
  // names of the bundle's files hash the paths of its inputs, and CI builds with web's alone.
  alias: {
    "@primegames/client": join(here, "../clients/typescript/src/index.ts"),
    "openapi-fetch": join(here, "node_modules/openapi-fetch"),
  },
  nodePaths: [join(here, "node_modules")],
  legalComments: "none",
  charset: "utf8",
  metafile: true,
  logLevel: "warning",
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const script = outputs.find((n) => n.endsWith(".js"));
const style = outputs.find((n) => n.endsWith(".css"));
if (!script || !style) throw new Error(`build: expected a .js and a .css, got ${outputs.join(", ")}`);
const page = (await readFile(join(here, "src/index.html"), "utf8"))
  .replace("{{script}}", `/app/assets/${script}`)
  .replace("{{style}}", `/app/assets/${style}`);
await writeFile(join(dist, "index.html"), page);
console.log(`web: dist/index.html, dist/assets/${script}, dist/assets/${style}`);
