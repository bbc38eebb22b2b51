// The solids of the 3D dice, as plain geometry (no library): vertices, faces found by a
// convex hull, the direction each label is read at (a face normal; a d4's vertex), the
// texture layout of the faces, and the symmetry rotation that brings one label where another
// one is. dice3d.js draws and throws them. Sides: 4, 6, 8, 10 (and d100 as two d10), 12, 20.

const PHI = (1 + Math.sqrt(5)) / 2;
export const SUPPORTED = new Set([4, 6, 8, 10, 12, 20, 100]);

/** A Fudge die is a d6 marked +, +, blank, blank, −, − (+ opposite −, as sold): its faces. */
export const FUDGE_FACES = [1, 1, 0, 0, -1, -1];

// Vertices of each solid (radius about 1); faces are found by a convex hull below.
function solidVertices(sides) {
  const v = [];
  const signs = [-1, 1];
  if (sides === 4) return [[1, 1, 1], [-1, -1, 1], [-1, 1, -1], [1, -1, -1]].map((p) => p.map((x) => x * 0.75));
  if (sides === 6) for (const x of signs) for (const y of signs) for (const z of signs) v.push([x * 0.62, y * 0.62, z * 0.62]);
  if (sides === 8) return [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  if (sides === 10) {
    const z0 = 0.1;
    const top = (z0 * (1 + Math.cos(Math.PI / 5))) / (1 - Math.cos(Math.PI / 5));
    v.push([0, top, 0], [0, -top, 0]);
    for (let k = 0; k < 10; k += 1) {
      const a = (k * Math.PI) / 5;
      v.push([Math.cos(a), k % 2 ? -z0 : z0, Math.sin(a)]);
    }
    return v.map((p) => p.map((x) => x * 0.95));
  }
  if (sides === 12) {
    for (const x of signs) for (const y of signs) for (const z of signs) v.push([x, y, z]);
    for (const a of signs) for (const b of signs) v.push([0, a / PHI, b * PHI], [a / PHI, b * PHI, 0], [a * PHI, 0, b / PHI]);
    return v.map((p) => p.map((x) => x * 0.62));
  }
  if (sides === 20) {
    for (const a of signs) for (const b of signs) v.push([0, a, b * PHI], [a, b * PHI, 0], [a * PHI, 0, b]);
    return v.map((p) => p.map((x) => x * 0.55));
  }
  return v;
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Faces of the convex hull of `verts`: [{ids (counter-clockwise seen from outside), normal}]. */
function hull(verts) {
  const faces = [];
  const n = verts.length;
  for (let i = 0; i < n; i += 1)
    for (let j = i + 1; j < n; j += 1)
      for (let k = j + 1; k < n; k += 1) {
        let normal = cross(sub(verts[j], verts[i]), sub(verts[k], verts[i]));
        if (Math.hypot(...normal) < 1e-9) continue;
        normal = norm(normal);
        const d = dot(normal, verts[i]);
        const side = verts.map((p) => dot(normal, p) - d);
        if (side.every((s) => s <= 1e-6)) {
          /* outward already */
        } else if (side.every((s) => s >= -1e-6)) normal = normal.map((x) => -x);
        else continue;
        if (faces.some((f) => dot(f.normal, normal) > 1 - 1e-6)) continue;
        const dd = dot(normal, verts[i]);
        const ids = verts.map((_, m) => m).filter((m) => Math.abs(dot(normal, verts[m]) - dd) < 1e-6);
        const c = ids.reduce((acc, m) => acc.map((x, a) => x + verts[m][a] / ids.length), [0, 0, 0]);
        const u = norm(sub(verts[ids[0]], c));
        const w = cross(normal, u);
        ids.sort((p, q) => Math.atan2(dot(sub(verts[p], c), w), dot(sub(verts[p], c), u)) - Math.atan2(dot(sub(verts[q], c), w), dot(sub(verts[q], c), u)));
        faces.push({ ids, normal, centre: c });
      }
  return faces;
}

/**
 * The faces in the order of their labels (label i + 1 on face i), numbered as sold dice are:
 * opposite faces sum to the number of faces + 1 (a d6's 7, a d12's 13, a d20's 21), and a
 * d10's upper faces carry the odd labels and its lower ones the even, so that they alternate
 * around its belt (1 opposite 10, 3 opposite 8…; as 0–9: opposite faces sum to 9).
 */
function numbered(faces) {
  const n = faces.length;
  const above = (f) => [f.normal[1], f.normal[0], f.normal[2]].find((x) => Math.abs(x) > 1e-6) > 0;
  const opposite = (f) => faces.find((g) => dot(g.normal, f.normal) < -1 + 1e-6);
  const upper = faces.filter(above).sort((a, b) => Math.atan2(a.normal[2], a.normal[0]) - Math.atan2(b.normal[2], b.normal[0]));
  const out = new Array(n);
  upper.forEach((face, k) => {
    const label = n === 10 ? 2 * k + 1 : k + 1;
    out[label - 1] = face;
    out[n - label] = opposite(face);
  });
  return out;
}

const SHAPES = new Map();

/** The solid for a number of sides: vertices, faces, reading directions (label i+1 on dir i). */
export function shape(sides) {
  const key = sides === 100 ? 10 : sides;
  if (!SHAPES.has(key)) {
    const verts = solidVertices(key);
    const faces = key === 4 ? hull(verts) : numbered(hull(verts));
    // A d4 is read at the vertex that points up; every other die at the face that does.
    const dirs = key === 4 ? verts.map(norm) : faces.map((f) => f.normal);
    const cols = Math.ceil(Math.sqrt(faces.length));
    const sh = { key, verts, faces, dirs, cols, rows: Math.ceil(faces.length / cols) };
    sh.uv = uvLayout(sh, sh.cols, sh.rows);
    SHAPES.set(key, sh);
  }
  return SHAPES.get(key);
}

/** A rotation (3x3, rows) among the solid's symmetries taking reading direction `from` to `to`. */
export function symmetry(sh, from, to) {
  const frame = (d) => {
    const ref = sh.verts.map((p) => sub(p, d.map((x) => x * dot(p, d)))).find((p) => Math.hypot(...p) > 1e-3);
    return ref;
  };
  const a = sh.dirs[from];
  const pa = norm(frame(a));
  const A = [a, pa, cross(a, pa)];
  const b = sh.dirs[to];
  for (const p of sh.verts) {
    const perp = sub(p, b.map((x) => x * dot(p, b)));
    if (Math.hypot(...perp) < 1e-3) continue;
    const pb = norm(perp);
    const B = [b, pb, cross(b, pb)];
    // M = B^T A : maps A's rows onto B's rows.
    const M = [0, 1, 2].map((r) => [0, 1, 2].map((c) => B[0][r] * A[0][c] + B[1][r] * A[1][c] + B[2][r] * A[2][c]));
    const apply = (v) => M.map((row) => dot(row, v));
    if (sh.verts.every((v) => sh.verts.some((w) => Math.hypot(...sub(apply(v), w)) < 1e-4))) return M;
  }
  return null;
}

/** Texture coordinates of each face's corners, each face in its own cell of the atlas. */
function uvLayout(sh, cols, rows) {
  return sh.faces.map((face, f) => {
    const c = face.centre;
    const u = norm(sub(sh.verts[face.ids[0]], c));
    const w = cross(face.normal, u);
    const flat = face.ids.map((id) => [dot(sub(sh.verts[id], c), u), dot(sub(sh.verts[id], c), w)]);
    const r = Math.max(...flat.map((p) => Math.hypot(...p)));
    const col = f % cols;
    const row = Math.floor(f / cols);
    return flat.map(([x, y]) => [(col + 0.5 + (x / r) * 0.46) / cols, 1 - (row + 0.5 - (y / r) * 0.46) / rows]);
  });
}

/** The reading direction closest to `up` (a body-frame vector). */
export function readIndex(sh, up) {
  let best = 0;
  let bestDot = -Infinity;
  sh.dirs.forEach((d, i) => {
    const v = d[0] * up.x + d[1] * up.y + d[2] * up.z;
    if (v > bestDot) {
      bestDot = v;
      best = i;
    }
  });
  return best;
}
