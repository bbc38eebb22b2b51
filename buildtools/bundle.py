"""Bundling with esbuild (npm, pinned in package-lock.json), run by the build.

- The browser libraries of dist/vendor/ (VENDOR_BUNDLES): three.js and cannon-es, each one
  minified ES module with only the exports that web/js takes from it (vendor_exports; all of
  them when a module uses the library whole), instead of the unminified files. jsQR
  (VENDOR_MINIFIED) is minified as it is (a UMD script, not bundled).
- The page's own modules and stylesheets (page_bundle, tools/bundle-page.mjs): js/app/main.js and
  js/pwa/pwa.js with every module they import, minified, split into a few chunks (the 3D
  dice's own modules in a chunk loaded after ready), and index.html's stylesheets as one
  css/app.css: a first visit asks for a handful of files instead of about 130, each level of
  imports one more round trip. index.html gets its French static text written in
  (fill_static) and a modulepreload of main.js and of each chunk it imports. js/engine/early.js (the
  classic script that starts the worker from index.html's head and sets its language) is
  built on its own, an IIFE with lib/lang-choice.js and lib/kept-snapshot.js inlined
  (early_bundle); the vendored libraries stay in dist/vendor/.
- The engine worker (WORKER_ENTRY): web/js/engine/worker.js and what it imports, one file,
  so a starting worker asks for no second script before the runtime and the snapshot.

No output may hold eval or new Function (the page's CSP forbids them): the build checks.
"""

from __future__ import annotations

import base64
import hashlib
import html as html_text
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from .config import CACHE, ROOT, VENDOR_BUNDLES, WEB, BuildError, log, run

ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"
#: The worker's entry module (web/) and where its bundle goes in dist/.
WORKER_ENTRY = ROOT / "web" / "js" / "engine" / "worker.js"
WORKER_FILE = "js/engine/worker.js"
#: The page's bundler (esbuild's API from Node): main.js and pwa.js with the modules they
#: import, and the stylesheets index.html links.
PAGE_BUNDLER = ROOT / "tools" / "bundle-page.mjs"
PAGE_STYLESHEET = "css/app.css"
#: The classic script, first in index.html's head, that starts the engine's worker.
EARLY_FILE = "js/engine/early.js"
#: index.html's module script, which imports the page's two bundles (minified as it is).
START_FILE = "js/app/start.js"
_LINK = re.compile(r'^([ \t]*)<link rel="stylesheet" href="[^"]+">\n', re.MULTILINE)
#: What the page's bundler says for index.html (not shipped): {"text": {key: French text} of
#: its data-i18n attributes, "preload": main.js and the chunks it imports statically}.
PAGE_FACTS = "page-facts.json"
_START_TAG = re.compile(r"<([a-zA-Z][\w-]*)((?:\s+[\w:-]+(?:=\"[^\"]*\")?)*)\s*>")
_ATTRIBUTE = re.compile(r'\s+([\w:-]+)(?:="([^"]*)")?')
#: What the CSP forbids in a bundle.
FORBIDDEN = (b"eval(", b"new Function(")


def ensure_esbuild() -> Path:
    """node_modules/.bin/esbuild (runs `npm ci` when missing)."""
    if not ESBUILD.is_file():
        log("node_modules lacks esbuild: npm ci")
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm not found: install Node.js (Debian: apt-get install npm)")
        if run([npm, "ci", "--no-audit", "--no-fund"]).returncode != 0:
            raise BuildError("npm ci failed")
    if not ESBUILD.is_file():
        raise BuildError("node_modules/.bin/esbuild is missing after npm ci")
    return ESBUILD


def esbuild(args: list[str], stdin: str | None = None) -> bytes:
    """Run esbuild with `args` (output on stdout); its output, checked for eval."""
    done = subprocess.run(
        [str(ensure_esbuild()), "--log-level=warning", *args],
        cwd=ROOT,
        input=stdin.encode() if stdin is not None else None,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise BuildError(f"esbuild failed: {done.stderr.decode(errors='replace')[-2000:]}")
    for word in FORBIDDEN:
        if word in done.stdout:
            raise BuildError(f"esbuild's output holds {word.decode()!r}: the CSP forbids it")
    return done.stdout


def _cached(key_parts: list[bytes], make: object) -> bytes:
    """A bundle, cached in .cache/bundles/ by its inputs (esbuild's version, the sources)."""
    total = hashlib.sha256()
    for part in key_parts:
        total.update(hashlib.sha256(part).digest())
    path = CACHE / "bundles" / f"{total.hexdigest()[:24]}.js"
    if path.is_file():
        return path.read_bytes()
    assert callable(make)
    data: bytes = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return data


def _esbuild_id() -> bytes:
    package = ROOT / "node_modules" / "esbuild" / "package.json"
    return package.read_bytes() if package.is_file() else b""


_NAMESPACE = re.compile(r"""import\s*\*\s*as\s+([\w$]+)\s+from\s*["']([^"']+)["']""")
_NAMED = re.compile(r"""import\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']""")
_OTHER = re.compile(
    r"""(?:import\s*\(\s*"""  # a dynamic import
    r"""|import\s+[\w$]+\s*(?:,\s*(?:\{[^}]*\}|\*\s*as\s+[\w$]+)\s*)?from\s*"""  # a default
    r"""|export\s*(?:\*\s*(?:as\s+[\w$]+\s*)?|\{[^}]*\}\s*)from\s*)["']([^"']+)["']"""  # re-export
)


def vendor_exports(rel: str, web: Path = WEB) -> list[str] | None:
    """The names that web/'s modules take from dist `rel` (a vendor bundle), sorted: from
    `import * as NS` (every `NS.name` used in that module) and `import {a, b as c}`. None
    when a module takes it whole (a dynamic import, a default import, a re-export, or the
    namespace used other than as `NS.name`): the bundle then keeps every export."""
    target = (web / rel).resolve()
    names: set[str] = set()
    for path in sorted((web / "js").rglob("*.js")):
        text = path.read_text(encoding="utf-8")

        def here(spec: str, path: Path = path) -> bool:
            return spec.startswith(".") and (path.parent / spec).resolve() == target

        for match in _NAMESPACE.finditer(text):
            if not here(match.group(2)):
                continue
            ns = re.escape(match.group(1))
            rest = text[: match.start()] + text[match.end() :]
            names.update(re.findall(rf"(?<![\w$.]){ns}\s*\.\s*([\w$]+)", rest))
            if re.search(rf"(?<![\w$.]){ns}(?![\w$])(?!\s*\.\s*[\w$])", rest):
                return None  # the namespace itself is passed around
        for match in _NAMED.finditer(text):
            if here(match.group(2)):
                for item in match.group(1).split(","):
                    if item.strip():
                        names.add(item.split(" as ")[0].strip())
        if any(here(m.group(1)) for m in _OTHER.finditer(text)):
            return None
    return sorted(names)


def vendor_bundle(package: str, exports: list[str] | None = None) -> bytes:
    """The package's `exports` (all of them when None), bundled and minified (one file, no
    import left)."""
    ensure_esbuild()
    folder = ROOT / "node_modules" / package
    sources = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".js", ".json"))
    if exports is None:
        entry = f'export * from "{package}";\n'
    else:
        entry = f'export {{ {", ".join(exports)} }} from "{package}";\n'
    key = [_esbuild_id(), package.encode(), entry.encode(), *(p.read_bytes() for p in sources)]
    args = ["--bundle", "--minify", "--format=esm", "--legal-comments=none", "--target=es2020"]
    args += [f"--sourcefile={package}-entry.js"]  # resolved from ROOT (the cwd)
    return _cached(key, lambda: esbuild(args, stdin=entry))


def vendor_bundles() -> dict[str, bytes]:
    """dist path -> bundle, for each entry of VENDOR_BUNDLES (only what web/js takes)."""
    return {
        rel: vendor_bundle(package, vendor_exports(rel)) for rel, package in VENDOR_BUNDLES.items()
    }


def minify_file(source: Path) -> bytes:
    """One script minified as it is (not bundled: a UMD script stays one), cached."""
    ensure_esbuild()
    key = [_esbuild_id(), b"minify-file", source.read_bytes()]
    args = [str(source), "--minify", "--legal-comments=none", "--charset=utf8"]
    return _cached(key, lambda: esbuild(args))


def minify_web(files: dict[str, Path]) -> dict[str, bytes]:
    """dist path -> minified content, for the .js and .css files of `files` (web/'s), each
    minified on its own by one esbuild run: same file, same imports and exports, names kept
    (`--keep-names`), no syntax lowered, UTF-8 kept. Cached per file in .cache/minified/."""
    ensure_esbuild()
    picked = {rel: path for rel, path in files.items() if path.suffix in (".js", ".css")}
    folder = CACHE / "minified"
    tag = hashlib.sha256(_esbuild_id() + b"minify-web 1").hexdigest()[:8]

    def cache_path(path: Path) -> Path:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:32]
        return folder / f"{tag}-{digest}{path.suffix}"

    missing = {rel: path for rel, path in picked.items() if not cache_path(path).is_file()}
    if missing:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="pyrules-minify-") as tmp:
            staged = Path(tmp) / "in"
            for rel, path in missing.items():
                (staged / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, staged / rel)
            args = [
                *(str(staged / rel) for rel in missing),
                "--minify", "--keep-names", "--legal-comments=none", "--charset=utf8",
                f"--outbase={staged}", f"--outdir={Path(tmp) / 'out'}",
            ]
            esbuild(args)
            for rel, path in missing.items():
                data = (Path(tmp) / "out" / rel).read_bytes()
                for word in FORBIDDEN:
                    if word in data:
                        raise BuildError(f"minified {rel} holds {word.decode()!r}: CSP forbids it")
                target = cache_path(path)
                target.with_suffix(".tmp").write_bytes(data)
                target.with_suffix(".tmp").replace(target)
    return {rel: cache_path(path).read_bytes() for rel, path in picked.items()}


def worker_bundle(entry: Path = WORKER_ENTRY) -> bytes:
    """The engine worker and the modules it imports, one ES module (not minified)."""
    ensure_esbuild()
    sources = sorted(p for p in entry.parent.glob("*.js"))
    key = [_esbuild_id(), b"worker", *(p.name.encode() + p.read_bytes() for p in sources)]
    args = [str(entry.relative_to(ROOT)), "--bundle", "--format=esm", "--target=es2020"]
    return _cached(key, lambda: esbuild(args))


def bundled_by_page(rel: str) -> bool:
    """Whether web/ file `rel` goes into a bundle instead of dist/ as itself: every module of
    web/js/ (into the page's bundle, the worker's, WORKER_ENTRY, or EARLY_FILE's own,
    early_bundle) but START_FILE, which imports the page's bundles, and the stylesheets."""
    if rel.startswith("js/") and rel.endswith(".js"):
        return rel != START_FILE
    return rel.startswith("css/") and rel.endswith(".css")


def early_bundle(web: Path = WEB) -> bytes:
    """EARLY_FILE as index.html's head runs it: a classic script (an IIFE) with what it
    imports (lib/lang-choice.js, lib/kept-snapshot.js) inlined, minified."""
    ensure_esbuild()
    entry = web / EARLY_FILE
    sources = sorted([entry, *(web / "js" / "lib").glob("*.js")])
    key = [_esbuild_id(), b"early 1", *(p.name.encode() + p.read_bytes() for p in sources)]
    args = [
        str(entry), "--bundle", "--format=iife", "--minify", "--legal-comments=none",
        "--charset=utf8",
    ]
    return _cached(key, lambda: esbuild(args))


def page_index(html: str, preload: tuple[str, ...] = ()) -> str:
    """index.html for the bundled page: its stylesheet links, in order, become one link to
    PAGE_STYLESHEET where the first one stood, and each of `preload` (main.js and the chunks
    it imports) a modulepreload just before START_FILE's script tag: asked for while the
    head is parsed, not once start.js, then main.js, have come and been parsed (a later
    visit in WebKit waited 120-200 ms for the chunks)."""
    first = _LINK.search(html)
    if first is None:
        raise BuildError("web/index.html links no stylesheet")
    one = f'{first.group(1)}<link rel="stylesheet" href="{PAGE_STYLESHEET}">\n'
    html = html[: first.start()] + one + _LINK.sub("", html[first.start() :])
    if preload:
        main = re.search(rf'^([ \t]*)<script type="module" src="{START_FILE}">', html, re.M)
        if main is None:
            raise BuildError(f"web/index.html has no module script {START_FILE}")
        links = "".join(f'{main.group(1)}<link rel="modulepreload" href="{p}">\n' for p in preload)
        html = html[: main.start()] + links + html[main.start() :]
    return html


def fill_static(html: str, texts: dict[str, str]) -> str:
    """index.html with the text main.js's applyStatic would write, written in: each element
    with data-i18n="key" holds texts[key] (escaped), and each data-i18n-<attr>="key" sets
    <attr> to texts[key]. The first paint then shows the French page whole, and applyStatic,
    which writes only what differs, changes nothing for a French reader."""
    out: list[str] = []
    pos = 0
    for tag in _START_TAG.finditer(html):
        if " data-i18n" not in tag.group(2):
            continue
        attrs = [(m.group(1), m.group(2)) for m in _ATTRIBUTE.finditer(tag.group(2))]
        source = dict(attrs)  # as written (already escaped), None for a boolean attribute
        written: dict[str, str] = {}
        for name, key in attrs:
            if name.startswith("data-i18n-"):
                if key is None or key not in texts:
                    raise BuildError(f"index.html: no text for {name}={key!r}")
                written[name.removeprefix("data-i18n-")] = html_text.escape(texts[key])
        names = [name for name, _ in attrs] + [n for n in written if n not in source]
        start = "<" + tag.group(1)
        for name in names:
            value = written.get(name, source.get(name))
            start += f" {name}" if value is None else f' {name}="{value}"'
        start += ">"
        out.append(html[pos : tag.start()])
        out.append(start)
        pos = tag.end()
        key = source.get("data-i18n")
        if key is None:
            continue
        if key not in texts:
            raise BuildError(f"index.html: no text for data-i18n={key!r}")
        end = html.find(f"</{tag.group(1)}>", pos)
        if end < 0 or "<" in html[pos:end]:
            raise BuildError(f"index.html: the element of data-i18n={key!r} must hold text only")
        out.append(html_text.escape(texts[key], quote=False))
        pos = end
    out.append(html[pos:])
    return "".join(out)


def page_bundle(systems: bytes, web: Path = WEB) -> dict[str, bytes]:
    """dist path -> content: the page's scripts bundled (js/app/main.js, js/pwa/pwa.js and their
    chunks in js/chunks/) and its stylesheets as one css/app.css (tools/bundle-page.mjs), with
    `systems` (the engine's answer to {"op": "systems"}, JSON) written into main.js, and
    index.html linking that stylesheet, its static text written in (fill_static). Cached in
    .cache/bundles/ by esbuild's version, the tool, `systems` and every source it reads."""
    ensure_esbuild()
    node = shutil.which("node")
    if node is None:
        raise BuildError("node not found: install Node.js (Debian: apt-get install nodejs)")
    sources = sorted(
        p for p in web.rglob("*") if p.is_file() and bundled_by_page(p.relative_to(web).as_posix())
    )
    key = [_esbuild_id(), PAGE_BUNDLER.read_bytes(), (web / "index.html").read_bytes(), systems]
    key += [p.relative_to(web).as_posix().encode() + b"\0" + p.read_bytes() for p in sources]

    def make() -> bytes:
        with tempfile.TemporaryDirectory(prefix="pyrules-page-") as tmp:
            described = Path(tmp) / "systems.json"
            described.write_bytes(systems)
            done = subprocess.run(
                [node, str(PAGE_BUNDLER), str(web), str(Path(tmp) / "out"), str(described)],
                cwd=ROOT, capture_output=True, check=False,
            )
            if done.returncode != 0:
                said = done.stderr.decode(errors="replace")[-2000:]
                raise BuildError(f"page bundle failed: {said}")
            files = json.loads(done.stdout)["files"]
            out: dict[str, str] = {}
            for rel in files:
                data = (Path(tmp) / "out" / rel).read_bytes()
                for word in FORBIDDEN:
                    if word in data:
                        said = f"bundled {rel} holds {word.decode()!r}: the CSP forbids it"
                        raise BuildError(said)
                out[rel] = base64.b64encode(data).decode("ascii")
            return json.dumps(out, sort_keys=True).encode()

    packed = json.loads(_cached(key, make))
    files = {rel: base64.b64decode(data) for rel, data in packed.items()}
    facts = json.loads(files.pop(PAGE_FACTS))
    page = fill_static((web / "index.html").read_text(encoding="utf-8"), facts["text"])
    files["index.html"] = page_index(page, tuple(facts["preload"])).encode()
    return files
