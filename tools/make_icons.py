#!/usr/bin/env python3
"""Draw the app's PNG icons from web/icon.svg with headless Chromium (run by hand, once).

    python tools/make_icons.py

Writes, next to the page (the PNGs are committed; the build copies them like any web/ file):

    web/icons/icon-192.png, icon-512.png          "any" icons: the SVG as is (rounded corners)
    web/icons/maskable-192.png, maskable-512.png  "maskable": square, full bleed, the die well
                                                  inside the central 80 % safe zone
    web/apple-touch-icon.png                      180x180, opaque and square (iOS rounds it)

Needs Python playwright and a Chromium ($PYRULES_CHROMIUM, else `chromium` on PATH).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
SVG = WEB / "icon.svg"

#: (output, size, full bleed)
ICONS = (
    (WEB / "icons" / "icon-192.png", 192, False),
    (WEB / "icons" / "icon-512.png", 512, False),
    (WEB / "icons" / "maskable-192.png", 192, True),
    (WEB / "icons" / "maskable-512.png", 512, True),
    (WEB / "apple-touch-icon.png", 180, True),
)


def variant(svg: str, size: int, full_bleed: bool) -> str:
    """The SVG drawn at size x size; full bleed squares the background's rounded corners."""
    svg = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
    if full_bleed:
        svg, count = re.subn(r'(<rect width="64" height="64") rx="\d+"', r"\1", svg, count=1)
        if count != 1:
            raise SystemExit("icon.svg: no 64x64 background <rect rx=...> to square")
    return svg


def main() -> int:
    chromium = os.environ.get("PYRULES_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        print("no Chromium: set PYRULES_CHROMIUM", file=sys.stderr)
        return 1
    svg = SVG.read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for out, size, full_bleed in ICONS:
                page = browser.new_page(viewport={"width": size, "height": size})
                page.set_content(
                    "<!doctype html><html><head><style>html,body{margin:0;background:transparent}"
                    "svg{display:block}</style></head><body>"
                    + variant(svg, size, full_bleed)
                    + "</body></html>"
                )
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), omit_background=not full_bleed)
                page.close()
                print(f"wrote {out.relative_to(ROOT)} ({size}x{size})")
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
