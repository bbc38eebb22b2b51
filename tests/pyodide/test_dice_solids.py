"""The solids of the 3D dice (web/js/stage/dice-solids.js, plain JavaScript run under Node):
each die has as many reading directions as faces, and for every face the engine may choose and every
face a throw may end on, a symmetry of the solid carries the one to the other. That is what
lets the 3D dice land on the engine's faces whatever the simulated throw did."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed (Node.js >= 18)")

SCRIPT = """
const { shape, symmetry, readIndex } = await import(process.argv[1]);
const out = {};
for (const sides of [4, 6, 8, 10, 12, 20]) {
  const sh = shape(sides);
  let pairs = 0, carried = 0, onto = 0, read = 0;
  for (let from = 0; from < sh.dirs.length; from++) {
    for (let to = 0; to < sh.dirs.length; to++) {
      pairs++;
      const M = symmetry(sh, from, to);
      if (!M) continue;
      const apply = (v) => M.map((row) => row[0] * v[0] + row[1] * v[1] + row[2] * v[2]);
      const d = apply(sh.dirs[from]);
      const far = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      if (far(d, sh.dirs[to]) < 1e-6) carried++;
      const all = sh.verts.every((v) => sh.verts.some((w) => far(apply(v), w) < 1e-6));
      if (all) onto++;
      const up = { x: d[0], y: d[1], z: d[2] };
      if (readIndex(sh, up) === to) read++;
    }
  }
  out[sides] = { faces: sh.faces.length, dirs: sh.dirs.length, pairs, carried, onto, read };
}
console.log(JSON.stringify(out));
"""


def test_every_face_can_be_brought_to_every_other_by_a_symmetry() -> None:
    assert NODE is not None
    module = (ROOT / "web" / "js" / "stage" / "dice-solids.js").as_uri()
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", SCRIPT, module],
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    for sides in (4, 6, 8, 10, 12, 20):
        facts = found[str(sides)]
        assert facts["faces"] == sides, facts
        assert facts["dirs"] == sides, facts
        assert facts["pairs"] == sides * sides
        assert facts["carried"] == facts["onto"] == facts["read"] == sides * sides, facts


NUMBERING = """
const { shape } = await import(process.argv[1]);
const out = {};
for (const sides of [6, 8, 10, 12, 20]) {
  const sh = shape(sides);
  const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  out[sides] = sh.faces.map((f, i) => ({
    label: i + 1,
    opposite: sh.faces.findIndex((g) => dot(g.normal, f.normal) < -1 + 1e-6) + 1,
    up: f.normal[1] > 0,
    angle: Math.atan2(f.normal[2], f.normal[0]),
  }));
}
console.log(JSON.stringify(out));
"""


def test_the_dice_are_numbered_as_sold_dice_are() -> None:
    """Issue 39: opposite faces sum to the number of faces + 1 (d6 7, d8 9, d12 13, d20 21);
    a d10's labels alternate around its belt, odd on its upper faces, even on its lower ones,
    1 opposite 10 (as 0-9: opposite faces sum to 9, the d100's tens and units too)."""
    assert NODE is not None
    module = (ROOT / "web" / "js" / "stage" / "dice-solids.js").as_uri()
    done = subprocess.run([NODE, "--input-type=module", "-e", NUMBERING, module],
                          capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    for sides in (6, 8, 10, 12, 20):
        faces = found[str(sides)]
        assert sorted(f["label"] for f in faces) == list(range(1, sides + 1))
        for face in faces:
            assert face["label"] + face["opposite"] == sides + 1, (sides, face)
    d10 = found["10"]
    assert all(f["up"] == (f["label"] % 2 == 1) for f in d10), d10
    belt = sorted(d10, key=lambda f: f["angle"])  # around the belt: up, down, up, down…
    assert all(a["up"] != b["up"] for a, b in zip(belt, belt[1:] + belt[:1], strict=True))
