// The page's scripts and stylesheets, bundled for dist/ (run by the build: buildtools/bundle.py).
//
//   node tools/bundle-page.mjs WEB_DIR OUT_DIR SYSTEMS_JSON
//
// Scripts: web/js/app/main.js and web/js/pwa/pwa.js with every module they import, minified, as
// ES modules with code splitting. The two entries keep their paths (js/app/main.js,
// js/pwa/pwa.js); modules both use go into a shared chunk (one instance of each module, e.g.
// the language of lib/i18n.js); what is imported lazily (the 3D dice, dice3d.js and its
// solids) into chunks loaded when asked for (js/chunks/). A first visit then asks for a
// handful of scripts instead of about a hundred, imported one level after another.
//
// Kept out of the bundle, imported as files of dist/ (the specifier rewritten for the output
// file that holds the import): dist/vendor/ (three.js, cannon-es, jsQR), bundled on their own
// by the build, loaded after ready or at the first scan. (The engine's worker is a bundle of
// its own, and js/engine/early.js, which starts it, a classic script of index.html.)
//
// SYSTEMS_JSON, the engine's own answer to {"op": "systems"} (the build asks the engine), is
// written into main.js as BUILT_SYSTEMS: a first visit draws its forms in its first tasks,
// with no request for them.
//
// Stylesheets: index.html's <link rel="stylesheet"> files, in their order, as one minified
// css/app.css (the build rewrites index.html to link it alone).
//
// Prints a JSON list of the files written (paths relative to OUT_DIR) on stdout.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const [webDir, outDir, systemsFile] = process.argv.slice(2).map((p) => path.resolve(p));
const systems = JSON.parse(readFileSync(systemsFile, "utf8"));
const MARK = "__pyrules_site__/"; // an external import: site-relative path after the mark

const site = {
  name: "pyrules-site",
  setup(build) {
    build.onResolve({ filter: /\/vendor\/[^/]+\.js$/ }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      const rel = path.relative(webDir, file).split(path.sep).join("/");
      return { path: MARK + rel, external: true };
    });
  },
};

const result = await esbuild.build({
  absWorkingDir: webDir,
  entryPoints: { "js/app/main": path.join(webDir, "js/app/main.js"), "js/pwa/pwa": path.join(webDir, "js/pwa/pwa.js") },
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: "esm",
  target: "es2020",
  minify: true,
  keepNames: true,
  charset: "utf8",
  legalComments: "none",
  chunkNames: "js/chunks/[name]-[hash]",
  define: { BUILT_SYSTEMS: JSON.stringify(systems) },
  plugins: [site],
  write: false,
  logLevel: "warning",
});
if (result.errors.length) process.exit(1);

const written = [];
for (const file of result.outputFiles) {
  const rel = path.relative(outDir, file.path).split(path.sep).join("/");
  const from = path.posix.dirname(rel);
  // Each external import, relative to this output file's own folder.
  const text = file.text.replaceAll(/(["'])__pyrules_site__\/([^"']+)\1/g, (_, quote, target) => {
    let spec = path.posix.relative(from, target);
    if (!spec.startsWith(".")) spec = "./" + spec;
    return quote + spec + quote;
  });
  if (text.includes(MARK)) throw new Error(`${rel}: an external import was left unresolved`);
  mkdirSync(path.dirname(file.path), { recursive: true });
  writeFileSync(file.path, text);
  written.push(rel);
}

// The stylesheets, in index.html's order.
const html = readFileSync(path.join(webDir, "index.html"), "utf8");
const sheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
const css = sheets.map((href) => readFileSync(path.join(webDir, href), "utf8")).join("\n");
const minified = await esbuild.transform(css, { loader: "css", minify: true, charset: "utf8", legalComments: "none" });
mkdirSync(path.join(outDir, "css"), { recursive: true });
writeFileSync(path.join(outDir, "css/app.css"), minified.code);
written.push("css/app.css");
process.stdout.write(JSON.stringify({ files: written.sort() }) + "\n");
