"""The shared table (issue 24), the camera path: the host reads a player's answer with its
camera. Chromium's fake capture device plays a Y4M file of the answer's QR code; this
Chromium has no BarcodeDetector, so the vendored decoder (jsQR, dist/vendor/) reads it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pyrules.qr import qr
from tests.browser.conftest import INIT_SCRIPT, LAUNCH_ARGS, TABLET, App
from tests.browser.helpers import answer_of, invite

WIDTH, HEIGHT, SCALE, QUIET = 640, 480, 6, 4


def write_y4m(path: Path, text: str) -> None:
    """One 640x480 frame (4:2:0, full-range luma) showing the QR code of text, centred.
    Written aside then renamed: Chromium opens the file anew at each capture start, while a
    file rewritten in place keeps showing what it held when first opened."""
    rows = qr(text)["rows"]
    size = (len(rows) + 2 * QUIET) * SCALE
    assert size <= HEIGHT, size
    left, top = (WIDTH - size) // 2, (HEIGHT - size) // 2
    luma = bytearray([255]) * (WIDTH * HEIGHT)
    for y, row in enumerate(rows):
        for x, bit in enumerate(row):
            if bit != "1":
                continue
            for dy in range(SCALE):
                start = (top + (y + QUIET) * SCALE + dy) * WIDTH + left + (x + QUIET) * SCALE
                luma[start : start + SCALE] = bytes(SCALE)
    chroma = bytes([128]) * (WIDTH * HEIGHT // 4)
    header = f"YUV4MPEG2 W{WIDTH} H{HEIGHT} F10:1 Ip A1:1 C420jpeg\n".encode()
    aside = path.with_suffix(".tmp")
    aside.write_bytes(header + b"FRAME\n" + bytes(luma) + chroma + chroma)
    aside.replace(path)


@pytest.fixture
def camera(
    playwright_instance: Any, chromium_path: str, tmp_path: Path
) -> Iterator[tuple[Any, Path]]:
    """A second Chromium whose camera is the file camera.y4m (written by the test)."""
    video = tmp_path / "camera.y4m"
    write_y4m(video, "placeholder")
    browser = playwright_instance.chromium.launch(
        executable_path=chromium_path,
        headless=True,
        args=[
            *LAUNCH_ARGS,
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    yield browser, video
    browser.close()


def test_the_host_reads_the_answer_with_its_camera(
    camera: tuple[Any, Path], new_app: Any, site: str
) -> None:
    browser, video = camera
    context = browser.new_context(viewport=TABLET, locale="fr-FR", reduced_motion="reduce")
    context.add_init_script(INIT_SCRIPT)
    context.grant_permissions(["camera"])
    host = App(context, site)
    player = new_app(site)
    for app in (host, player):
        app.page.set_default_timeout(120_000)  # a busy machine: only how long a failure takes
    host.open()
    answer = answer_of(player, invite(host), "Camille")  # through both screens
    # The player's screen shows the same text as a QR code.
    assert player.page.get_attribute("#table-answer-qr svg", "data-text") == answer
    write_y4m(video, answer)
    host.page.click("#tab-table")
    host.page.click("#table-scan")
    try:
        host.page.wait_for_function(
            "() => window.pyrules.table.peers().some((p) => p.connected)", timeout=60_000
        )
    except Exception as error:  # say where it stopped: not read, or read and not connected
        state = host.page.evaluate(
            """() => ({
              read: document.getElementById('table-answer-in').value,
              notice: document.getElementById('table-notice').innerText,
              scanning: !document.getElementById('table-video').hidden,
              frame: document.getElementById('table-video').videoWidth,
              peers: window.pyrules.table.peers(),
            })"""
        )
        raise AssertionError(f"no player connected through the camera: {state}") from error
    assert host.page.input_value("#table-answer-in") == answer
    player.page.wait_for_selector("#table-player-state[data-state=connected]")
    host.check_clean()
