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
// its own, and js/engine/early.js, which starts it, a classic script of index.html;
// js/app/start.js, index.html's module script, imports main.js and pwa.js, and stays a file.)
//
// SYSTEMS_JSON, the engine's own answer to {"op": "systems"} (the build asks the engine), is
// written into main.js as BUILT_SYSTEMS: a first visit draws its forms in its first tasks,
// with no request for them.
//
// Stylesheets: index.html's <link rel="stylesheet"> files, in their order, as one minified
// css/app.css (the build rewrites index.html to link it alone).
//
// What the build writes into index.html (buildtools/bundle.py; the file is not shipped):
// page-facts.json, {"text": {key: French text} for every key of index.html's data-i18n and
// data-i18n-<attribute> attributes, as lib/i18n.js's t() says it with the screens' catalogues
// (every module of web/js that calls addStrings); "preload": main.js and the chunks it
// imports statically, each asked for by a modulepreload while the head is parsed instead of
// once js/app/start.js (index.html's module script, which imports main.js) has run}.
//
// Prints a JSON list of the files written (paths relative to OUT_DIR) on stdout.

import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const [webDir, outDir, systemsFile] = process.argv.slice(2).map((p) => path.resolve(p));
const systems = JSON.parse(readFileSync(systemsFile, "utf8"));
const MARK = "__pyrules_site__/"; // an external import: site-relative path after the mark
const posix = (p) => p.split(path.sep).join("/"); // a relative path, with / whatever the OS

const site = {
  name: "pyrules-site",
  setup(build) {
    build.onResolve({ filter: /\/vendor\/[^/]+\.js$/ }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      const rel = posix(path.relative(webDir, file));
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
  metafile: true,
  logLevel: "warning",
});
if (result.errors.length) process.exit(1);

const written = [];
for (const file of result.outputFiles) {
  const rel = posix(path.relative(outDir, file.path));
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

// The static text, in French.
const i18n = await import(pathToFileURL(path.join(webDir, "js/lib/i18n.js")).href);
const modules = readdirSync(path.join(webDir, "js"), { recursive: true })
  .map((rel) => path.join(webDir, "js", rel))
  .filter((file) => file.endsWith(".js") && file !== path.join(webDir, "js/lib/i18n.js"))
  .filter((file) => /\baddStrings\(/.test(readFileSync(file, "utf8")))
  .sort();
for (const file of modules) await import(pathToFileURL(file).href);
const keys = [...new Set([...html.matchAll(/ data-i18n(?:-[\w-]+)?="([^"]+)"/g)].map((m) => m[1]))].sort();
const known = new Set(i18n.catalogues().flatMap((table) => Object.keys(table.fr || {})));
const unknown = keys.filter((key) => !known.has(key));
if (unknown.length) throw new Error(`index.html uses keys no catalogue defines: ${unknown.join(", ")}`);
const texts = Object.fromEntries(keys.map((key) => [key, i18n.textIn("fr", key)]));
// (The metafile's paths are relative to esbuild's working directory, webDir.)
const main = result.metafile.outputs[posix(path.relative(webDir, path.join(outDir, "js/app/main.js")))];
if (!main) throw new Error("the bundle has no js/app/main.js");
const chunks = main.imports.filter((i) => i.kind === "import-statement").map((i) => posix(path.relative(outDir, path.resolve(webDir, i.path))));
const preload = ["js/app/main.js", ...chunks];
writeFileSync(path.join(outDir, "page-facts.json"), JSON.stringify({ text: texts, preload }));
written.push("page-facts.json");
process.stdout.write(JSON.stringify({ files: written.sort() }) + "\n");
