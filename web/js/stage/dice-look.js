// How the 3D dice look: one texture atlas per (solid, role, colour, look), drawn on a canvas.
// d6 pips laid out as on real dice (in the face's own frame: 2 and 3 on a diagonal, every pip
// inside the face); numerals sized to the face they sit on; a die's colour from its kind
// (Flame dice keep theirs), else from its side (this device's colour for the roller, a
// distinct one for the opponent); dropped and rerolled dice dimmed; exploded dice ringed in
// gold and glowing, as the result card marks them. Used by dice3d.js only.

import * as THREE from "../../vendor/three.module.js";
import { DICE_COLOURS } from "../ui/dice-settings.js";
import { FUDGE_FACES } from "./dice-solids.js";

const CELL = 256;

const KINDS = {
  flame: { body: "#f0a020", ink: "#3b1d00" },
  black_flame: { body: "#1e1a24", ink: "#ffb84d" },
};

/** The opponent's colour: blue, or red when the roller's own dice are blue. */
export function opponentColour(own) {
  return own === "blue" ? "red" : "blue";
}

/** Which look a die's tags ask for: "dim" (dropped, rerolled), "burst" (exploded) or "plain". */
export function lookOf(tags) {
  const list = Array.isArray(tags) ? tags : [];
  // A dropped die is dimmed; a rerolled one counts (its discarded face is on the result card).
  if (list.includes("dropped")) return "dim";
  // A count's dice: a success ringed green, a failure red (the chips on the card say it too).
  if (list.includes("success")) return "hit";
  if (list.includes("failure")) return "fail";
  if (list.includes("exploded")) return "burst";
  return "plain";
}

function labelText(role, index) {
  if (role === "fudge") return ["\u2212", "", "+"][FUDGE_FACES[index] + 1];
  if (role === "tens") return `${index}0`;
  if (role === "units") return String(index);
  return String(index + 1);
}

// Pips on a unit square face, in the face's own axes (as on a real die).
const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]] };
PIPS[5] = [...PIPS[4], [0, 0]];
PIPS[6] = [...PIPS[4], [-1, 0], [1, 0]];

const mid = (a, b) => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];

function pips(ctx, corners, centre, n) {
  const X = mid(corners[1], corners[2]).map((v, i) => v - centre[i]);
  const Y = mid(corners[2], corners[3]).map((v, i) => v - centre[i]);
  const radius = Math.hypot(...X) * 0.19;
  for (const [a, b] of PIPS[n]) {
    ctx.beginPath();
    ctx.arc(centre[0] + (a * X[0] + b * Y[0]) * 0.56, centre[1] + (a * X[1] + b * Y[1]) * 0.56, radius, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** A Fudge face's mark, drawn as thick bars (a font's minus is too thin to read): +, − or none. */
function fudgeMark(ctx, centre, room, text) {
  const long = room * 1.1;
  const thick = room * 0.26;
  if (text) ctx.fillRect(centre[0] - long / 2, centre[1] - thick / 2, long, thick);
  if (text === "+") ctx.fillRect(centre[0] - thick / 2, centre[1] - long / 2, thick, long);
}

/** The distance from `p` to the nearest edge of the polygon `corners` (the room for a label). */
function inner(corners, p) {
  let best = Infinity;
  corners.forEach((a, i) => {
    const b = corners[(i + 1) % corners.length];
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    best = Math.min(best, Math.abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / len);
  });
  return best;
}

function outline(ctx, corners, inset, centre) {
  ctx.beginPath();
  corners.forEach((p, i) => {
    const q = [centre[0] + (p[0] - centre[0]) * inset, centre[1] + (p[1] - centre[1]) * inset];
    if (i) ctx.lineTo(...q);
    else ctx.moveTo(...q);
  });
  ctx.closePath();
  ctx.stroke();
}

const MATERIALS = new Map();

/**
 * The material of one die. sh: its solid (dice-solids.js); role: "face", "tens" or "units";
 * kind: the engine's kind; colour: a DICE_COLOURS id; edge: a colour id ringing every face
 * (the opponent's Flame dice), or null; look: lookOf(tags).
 */
export function material(sh, role, kind, colour, edge, look) {
  const key = `${sh.key}:${role}:${kind}:${colour}:${edge}:${look}`;
  if (MATERIALS.has(key)) return MATERIALS.get(key);
  const scheme = KINDS[kind] || DICE_COLOURS[colour] || DICE_COLOURS.ivory;
  const canvas = document.createElement("canvas");
  canvas.width = sh.cols * CELL;
  canvas.height = sh.rows * CELL;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = scheme.body;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  sh.faces.forEach((face, f) => {
    const corners = sh.uv[f].map((p) => [p[0] * canvas.width, (1 - p[1]) * canvas.height]);
    const centre = corners.reduce((acc, p) => [acc[0] + p[0] / corners.length, acc[1] + p[1] / corners.length], [0, 0]);
    const room = inner(corners, centre);
    if (edge) {
      ctx.strokeStyle = DICE_COLOURS[edge].body;
      ctx.lineWidth = room * 0.3;
      outline(ctx, corners, 0.93, centre);
    }
    if (look === "burst" || look === "hit" || look === "fail") {
      ctx.strokeStyle = { burst: "#ffc93c", hit: "#009e73", fail: "#d55e00" }[look];
      ctx.lineWidth = room * (look === "burst" ? 0.12 : 0.18);
      outline(ctx, corners, 0.8, centre);
    }
    ctx.fillStyle = scheme.ink;
    if (sh.key === 4) {
      face.ids.forEach((vid, i) => {
        const [cx, cy] = corners[i];
        ctx.save();
        ctx.translate(centre[0] + (cx - centre[0]) * 0.6, centre[1] + (cy - centre[1]) * 0.6);
        ctx.rotate(Math.atan2(cx - centre[0], -(cy - centre[1])));
        ctx.font = `bold ${Math.round(room * 0.85)}px sans-serif`;
        ctx.fillText(labelText(role, vid), 0, 0);
        ctx.restore();
      });
    } else if (sh.key === 6 && role === "face") {
      pips(ctx, corners, centre, f + 1);
    } else if (role === "fudge") {
      fudgeMark(ctx, centre, room, labelText(role, f));
    } else {
      const text = labelText(role, f);
      const size = Math.round(room * (text.length > 1 ? 1.05 : 1.45));
      ctx.font = `bold ${size}px sans-serif`;
      const width = ctx.measureText(text).width;
      const fit = Math.min(size, Math.floor((size * room * 1.8) / Math.max(1, width)));
      ctx.font = `bold ${fit}px sans-serif`;
      ctx.fillText(text, centre[0], centre[1]);
      if (text === "6" || text === "9") ctx.fillRect(centre[0] - fit * 0.25, centre[1] + fit * 0.5, fit * 0.5, Math.max(3, fit * 0.07));
    }
  });
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  const options = { map: texture, flatShading: true, shininess: 50, specular: 0x333333 };
  if (look === "dim") Object.assign(options, { transparent: true, opacity: 0.42, color: 0x9a9a9a });
  if (look === "burst") Object.assign(options, { emissive: 0x8a4b00, emissiveIntensity: 0.55 });
  const mat = new THREE.MeshPhongMaterial(options);
  MATERIALS.set(key, mat);
  return mat;
}
