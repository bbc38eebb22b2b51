#!/usr/bin/env python3
"""Build, serve and test pyrules (standard library only).

    python build.py [build]                  build the static site into dist/
    python build.py serve [--port N] [--host H] [--prefix /sub/]
                                             build, then serve dist/ over HTTP
    python build.py test [PYTEST ARGS...]    install what the tests need, build, lint,
                                             type-check, test
    python build.py setup [--dry-run]        only install (or list) what the tests need

dist/ is a complete static site: the front end from web/, the Pyodide runtime from
node_modules/pyodide (npm, pinned in package-lock.json), the micropip wheel and any
EXTRA_WHEELS (PyPI, cached in .cache/wheels), the pyrules wheel built from pyproject.toml by
its pinned PEP 517 backend (flit_core from PyPI, the same wheel `pip wheel .` builds), and
engine/snapshot.bin.gz, the Pyodide memory snapshot with those wheels installed
and imported (made under Node by tools/snapshot.mjs, cached in .cache/snapshots). Every URL in it is
relative, so the folder works under any sub-path (GitHub Pages serves it at /<repo>/).

Once every other file is in place, the build hashes dist/ and writes version.json, the
precache manifest precache.json and the service worker sw.js (web/sw.js with the build hash
and the list of files to cache filled in), so each build is its own offline version.

build.py is only the entry point (this command line). The work lives in buildtools/:
config (paths, pins, shared helpers), fetch (npm and PyPI inputs), wheel (the pyrules wheel),
bundle (esbuild: the vendored libraries and the engine worker),
files and site (dist/), snapshot (the engine's memory snapshot), serve (the local server),
provision (set-up: pip and apt) and checks (`build.py test`). Every name they define is
re-exported here, so `import build` keeps working for the tests and the benches.
"""

from __future__ import annotations

import argparse
import sys

from buildtools.bundle import (
    EARLY_FILE,
    ESBUILD,
    FORBIDDEN,
    PAGE_BUNDLER,
    PAGE_STYLESHEET,
    START_FILE,
    WORKER_ENTRY,
    WORKER_FILE,
    _cached,
    _esbuild_id,
    bundled_by_page,
    early_bundle,
    ensure_esbuild,
    esbuild,
    fill_static,
    minify_file,
    minify_web,
    page_bundle,
    page_index,
    vendor_bundle,
    vendor_bundles,
    vendor_exports,
    worker_bundle,
)
from buildtools.checks import (
    CHECK_STAGES,
    SETUP_STAGES,
    _mypy,
    _node_tests,
    _ruff,
    _summary,
    run_pytest,
    test,
)
from buildtools.config import (
    BACKEND_NAME,
    BACKEND_SHA256,
    BACKEND_VERSION,
    BACKEND_WHEEL,
    BAKE_CLOSE,
    BAKE_OPEN,
    BAKE_PLACEHOLDER,
    BAKED,
    CACHE,
    CHROMIUM_ARGS,
    DIST,
    EXTRA_WHEELS,
    GENERATED,
    INSTALL_MODULE,
    LINT_PATHS,
    MICROPIP_SHA256,
    MICROPIP_VERSION,
    MICROPIP_WHEEL,
    MIME_TYPES,
    NODE_PYODIDE,
    NOT_PRECACHED,
    NOT_PRECACHED_BUILD,
    PACKAGE,
    PYODIDE_FILES,
    PYODIDE_TABLE_GROWTH,
    PYRULES_IMPORTS,
    PYTEST_CLOSING,
    ROOT,
    SNAPSHOT_CACHE_KEEP,
    SNAPSHOT_FILE,
    SNAPSHOT_TOOL,
    SOURCE_DATE_EPOCH,
    STDLIB_DROPPED,
    SW_BUILD,
    SW_BYTES,
    SW_PRECACHE,
    SW_TEMPLATE,
    SYSTEM_TOOLS,
    VENDOR_BUNDLES,
    VENDOR_FILES,
    VENDOR_MINIFIED,
    WEB,
    BuildError,
    Wheel,
    _project_table,
    log,
    pyodide_version,
    read_version,
    run,
)
from buildtools.fetch import (
    ensure_micropip,
    ensure_pyodide,
    ensure_pypi_wheel,
    site_pyodide,
)
from buildtools.files import (
    _integrity,
    _same_file,
    _sync,
    _web_files,
    _write,
    bake,
    replace_file,
    tree_hash,
    unbake,
)
from buildtools.provision import (
    _export_chromium,
    _playwright_browsers,
    ensure_engine_deps,
    ensure_system_tools,
    ensure_test_tools,
    find_chromium,
    install_plan,
    is_debian,
    missing_requirements,
    missing_system_tools,
    test_requirements,
)
from buildtools.serve import (
    CSP,
    SiteHandler,
    _interrupt,
    _normalize_prefix,
    make_server,
    serve,
    server_url,
    serving,
)
from buildtools.site import (
    build,
    finish_site,
    service_worker,
    systems_description,
    vendor_files,
)
from buildtools.snapshot import (
    PACKED_MAGIC,
    EngineWheels,
    _snapshot_key,
    make_snapshot,
    pack_heap,
    unpack_heap,
)
from buildtools.wheel import (
    _BUILD_HOOK,
    _build_system,
    build_wheel,
    ensure_backend,
)

__all__ = [
    "BACKEND_NAME",
    "BACKEND_SHA256",
    "BACKEND_VERSION",
    "BACKEND_WHEEL",
    "BAKED",
    "BAKE_CLOSE",
    "BAKE_OPEN",
    "BAKE_PLACEHOLDER",
    "CACHE",
    "CHECK_STAGES",
    "CHROMIUM_ARGS",
    "CSP",
    "DIST",
    "EARLY_FILE",
    "ESBUILD",
    "EXTRA_WHEELS",
    "FORBIDDEN",
    "GENERATED",
    "INSTALL_MODULE",
    "LINT_PATHS",
    "MICROPIP_SHA256",
    "MICROPIP_VERSION",
    "MICROPIP_WHEEL",
    "MIME_TYPES",
    "NODE_PYODIDE",
    "NOT_PRECACHED",
    "NOT_PRECACHED_BUILD",
    "PACKAGE",
    "PACKED_MAGIC",
    "PAGE_BUNDLER",
    "PAGE_STYLESHEET",
    "PYODIDE_FILES",
    "PYODIDE_TABLE_GROWTH",
    "PYRULES_IMPORTS",
    "PYTEST_CLOSING",
    "ROOT",
    "SETUP_STAGES",
    "SNAPSHOT_CACHE_KEEP",
    "SNAPSHOT_FILE",
    "SNAPSHOT_TOOL",
    "SOURCE_DATE_EPOCH",
    "START_FILE",
    "STDLIB_DROPPED",
    "SW_BUILD",
    "SW_BYTES",
    "SW_PRECACHE",
    "SW_TEMPLATE",
    "SYSTEM_TOOLS",
    "VENDOR_BUNDLES",
    "VENDOR_FILES",
    "VENDOR_MINIFIED",
    "WEB",
    "WORKER_ENTRY",
    "WORKER_FILE",
    "_BUILD_HOOK",
    "BuildError",
    "EngineWheels",
    "SiteHandler",
    "Wheel",
    "_build_system",
    "_cached",
    "_esbuild_id",
    "_export_chromium",
    "_integrity",
    "_interrupt",
    "_mypy",
    "_node_tests",
    "_normalize_prefix",
    "_playwright_browsers",
    "_project_table",
    "_ruff",
    "_same_file",
    "_snapshot_key",
    "_summary",
    "_sync",
    "_web_files",
    "_write",
    "bake",
    "build",
    "build_wheel",
    "bundled_by_page",
    "early_bundle",
    "ensure_backend",
    "ensure_engine_deps",
    "ensure_esbuild",
    "ensure_micropip",
    "ensure_pyodide",
    "ensure_pypi_wheel",
    "ensure_system_tools",
    "ensure_test_tools",
    "esbuild",
    "fill_static",
    "find_chromium",
    "finish_site",
    "install_plan",
    "is_debian",
    "log",
    "make_server",
    "make_snapshot",
    "minify_file",
    "minify_web",
    "missing_requirements",
    "missing_system_tools",
    "pack_heap",
    "page_bundle",
    "page_index",
    "pyodide_version",
    "read_version",
    "replace_file",
    "run",
    "run_pytest",
    "serve",
    "server_url",
    "service_worker",
    "serving",
    "site_pyodide",
    "systems_description",
    "test",
    "test_requirements",
    "tree_hash",
    "unbake",
    "unpack_heap",
    "vendor_bundle",
    "vendor_bundles",
    "vendor_exports",
    "vendor_files",
    "worker_bundle",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="build.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="build dist/ (the default)")
    serve_p = commands.add_parser("serve", help="build, then serve dist/ over HTTP")
    serve_p.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    serve_p.add_argument("--host", default="127.0.0.1")
    serve_p.add_argument("--prefix", default="", help="serve under a sub-path, e.g. /pyrules/")
    commands.add_parser("test", help="lint, type-check and run every test; extra args go to pytest")
    setup_p = commands.add_parser("setup", help="install what the tests need (done by test)")
    setup_p.add_argument(
        "--dry-run", action="store_true", help="only say what is missing and what would run"
    )
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "test":
        parser.error("unrecognized arguments: " + " ".join(extra))
    try:
        if args.command == "serve":
            return serve(args.host, args.port, args.prefix)
        if args.command == "test":
            return test(extra)
        if args.command == "setup":
            if not args.dry_run:
                ensure_test_tools()
            else:
                log("test tools to install: " + (
                    " ".join(missing_requirements(test_requirements())) or "none"))
            ensure_system_tools(dry_run=args.dry_run)
            return 0
        build()
        return 0
    except BuildError as error:
        print(f"build.py: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
