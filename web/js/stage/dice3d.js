// 3D dice: cannon-es throws them (dice-physics.js), three.js draws them (looks: dice-look.js).
// Loaded with a dynamic import once the engine is ready (stage.js), which then warms the
// renderer up (warmUp: every solid and look compiled and drawn once), so the first throw
// is as quick as the next ones.
//
// How the dice land on the engine's faces: the whole throw is simulated first, then, for each
// die, we find which face ended up on top and the rotation S among the die's own symmetries
// that brings the engine's face to that place. The die is drawn with orientation q(t)·S all
// along: S maps the solid onto itself, so its path and bounces are exactly the simulated
// ones, and it settles with the engine's face up. The face shown is then read back from the
// final orientation (which reading direction points up), never copied from the engine's answer.
//
// Size: the tray is cut to the stage's shape and the number of dice, so that a die is about
// 40 % of the stage's smaller side when alone (times the dice-size setting) and shrinks
// only as many dice need the room. The camera follows the stage's size (resize(): rotation,
// split view) and always shows the whole tray, never stretched.

import * as THREE from "../../vendor/three.module.js";
import { lookOf, material, opponentColour } from "./dice-look.js";
import { DICE_COLOURS } from "../ui/dice-settings.js";
import { FUDGE_FACES, readIndex, shape, SUPPORTED, symmetry } from "./dice-solids.js";
import { seededRandom, simulate } from "./dice-physics.js";

const SLICE_MS = 12;
const FOV = 24; // narrow: the dice seen nearly from above, their top faces square to the eye
const ROOM = 9; // tray area per die (world units²): room to roll, and to fall flat (not leaning on a neighbour)
const SPAN = 1.3; // a die's width on the tray (world units: a d6's edge is 1.24)
const SIZES = { small: 0.8, medium: 1, large: 1.25 };

/**
 * The face a solid can show for a die: the engine's final face, or, when that is beyond the
 * die (an exploded die whose final adds the next throw), the face it rolled.
 */
export function faceOnSolid(die) {
  const top = die.sides;
  const fits = (n) => Number.isInteger(n) && n >= 1 && n <= top;
  if (fits(die.face)) return die.face;
  return fits(die.rolled) ? die.rolled : Math.min(top, Math.max(1, Math.round(Number(die.face) || 1)));
}

const fudge = (die) => die.kind === "fudge" || die.sides === 0;

/** Expand the result's dice into 3D bodies: a d100 is two d10 (tens 00–90, units 0–9). */
function bodiesFor(list) {
  const out = [];
  const dice = list.map((die) => (fudge(die) ? die : { ...die, face: faceOnSolid(die) }));
  dice.forEach((die, index) => {
    const common = { index, kind: die.kind, side: die.side || "actor", look: lookOf(die.tags) };
    if (fudge(die)) {
      out.push({ ...common, sides: 6, role: "fudge", target: Math.max(0, FUDGE_FACES.indexOf(Math.sign(Number(die.face) || 0))) });
    } else if (die.sides === 100) {
      out.push({ ...common, sides: 100, role: "tens", target: Math.floor((die.face % 100) / 10) });
      out.push({ ...common, sides: 100, role: "units", target: die.face % 10 });
    } else {
      out.push({ ...common, sides: die.sides, role: "face", target: die.face - 1 });
    }
  });
  return out;
}

/**
 * A d100 reads like two real d10 side by side: the tens on the left. Both bodies are the same
 * solid, so once the throw is simulated, the one that landed on the left (as the camera sees
 * it) takes the tens and the other the units; neither's path changes.
 */
function tensOnTheLeft(bodies, last, camera) {
  const screenX = (i) => new THREE.Vector3(last[i * 7], last[i * 7 + 1], last[i * 7 + 2]).project(camera).x;
  bodies.forEach((tens, i) => {
    if (tens.role !== "tens") return;
    const j = bodies.findIndex((b) => b.index === tens.index && b.role === "units");
    if (j < 0 || screenX(i) <= screenX(j)) return;
    const units = bodies[j];
    [tens.role, units.role] = [units.role, tens.role];
    [tens.target, units.target] = [units.target, tens.target];
  });
}

const GEOMETRIES = new Map();

function geometry(sh) {
  if (GEOMETRIES.has(sh.key)) return GEOMETRIES.get(sh.key);
  const pos = [];
  const uv = [];
  sh.faces.forEach((face, f) => {
    for (let i = 1; i < face.ids.length - 1; i += 1) {
      for (const k of [0, i, i + 1]) {
        pos.push(...sh.verts[face.ids[k]]);
        uv.push(...sh.uv[f][k]);
      }
    }
  });
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
  g.setAttribute("uv", new THREE.Float32BufferAttribute(uv, 2));
  g.computeVertexNormals();
  GEOMETRIES.set(sh.key, g);
  return g;
}

/** Thrown by prepare() when a newer throw started on the same scene meanwhile. */
export class Superseded extends Error {}

export class DiceScene {
  constructor(canvas) {
    this.canvas = canvas;
    this.renderer = new THREE.WebGLRenderer({ canvas, alpha: true, antialias: window.devicePixelRatio < 2 });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene = new THREE.Scene();
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x554433, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(-3, 10, 4);
    this.scene.add(sun);
    this.camera = new THREE.PerspectiveCamera(FOV, 1, 0.5, 200);
    this.camera.up.set(0, 0, -1);
    this.meshes = [];
    this.dice = [];
    this.frames = null;
    this.impacts = [];
    this.tray = { wide: 10, depth: 7 };
    this.shown = null; // the frame last drawn
  }

  /** The canvas's size in CSS pixels now (a canvas not laid out yet: a tablet stage's). */
  size() {
    return { width: this.canvas.clientWidth || 600, height: this.canvas.clientHeight || 320 };
  }

  /** Fit the drawing buffer and the camera to the canvas's size now; the whole tray stays in view. */
  resize() {
    const { width, height } = this.size();
    this.renderer.setSize(width, height, false);
    const aspect = width / height;
    const tan = Math.tan((FOV * Math.PI) / 360);
    const { wide, depth } = this.tray;
    const h = Math.max(depth / 2 / tan, wide / 2 / (tan * aspect));
    this.camera.aspect = aspect;
    this.camera.position.set(0, h + 1.2, 0);
    this.camera.lookAt(0, 0, 0);
    this.camera.updateProjectionMatrix();
    this.viewed = { width, height };
    if (this.shown !== null) this.draw(this.shown);
  }

  /** The tray for `count` dice on this canvas: sized for the stage, the count and the dice size. */
  trayFor(count, size = "medium") {
    const { width, height } = this.size();
    const scale = SIZES[size] || 1;
    const alone = Math.max(64, Math.min(200, Math.min(width, height) / 2.4)) * scale; // px
    const perPx = Math.max(SPAN / alone, Math.sqrt((count * ROOM) / (width * height)) / scale);
    return { wide: Math.max(5, width * perPx), depth: Math.max(4, height * perPx) };
  }

  /**
   * Simulate a throw of `dice` ([{sides, face, kind, side, tags}]); resolves when ready to
   * play. Options: seed (the same seed throws the same way), colour (this device's dice
   * colour id), size (the dice-size setting), slice (ms of simulation per task).
   */
  async prepare(dice, { seed = null, colour = "ivory", size = "medium", slice = SLICE_MS } = {}) {
    this.generation = (this.generation || 0) + 1;
    const generation = this.generation;
    // No die of an earlier throw stays on screen while this one is simulated (the resize
    // below would redraw it, at rest, in the new tray): the scene is emptied and cleared.
    this.scene.remove(...this.meshes);
    this.meshes = [];
    this.dice = [];
    this.shown = null;
    this.renderer.clear();
    const bodies = bodiesFor(dice);
    this.tray = this.trayFor(bodies.length, size);
    this.resize();
    const rng = seed === null ? Math.random : seededRandom(seed);
    const pause = async () => {
      await new Promise((resolve) => setTimeout(resolve));
      if (generation !== this.generation) throw new Superseded(); // a newer throw began
    };
    const run = await simulate(bodies, { ...this.tray, rng, slice, pause });
    this.frames = run.frames;
    this.impacts = run.impacts;
    this.tries = run.tries;
    const own = DICE_COLOURS[colour] ? colour : "ivory";
    // The engine's face goes where the simulated top face ended.
    const last = this.frames[this.frames.length - 1];
    tensOnTheLeft(bodies, last, this.camera);
    const q = new THREE.Quaternion();
    const up = new THREE.Vector3();
    this.dice = bodies.map((d, i) => {
      const sh = run.list[i].sh;
      q.set(last[i * 7 + 3], last[i * 7 + 4], last[i * 7 + 5], last[i * 7 + 6]);
      up.set(0, 1, 0).applyQuaternion(q.clone().invert());
      const top = readIndex(sh, up);
      const M = symmetryOf(sh, d.target, top);
      const m4 = new THREE.Matrix4().set(...M[0], 0, ...M[1], 0, ...M[2], 0, 0, 0, 0, 1);
      return { ...d, sh, fix: new THREE.Quaternion().setFromRotationMatrix(m4) };
    });
    this.meshes = this.dice.map((d) => {
      const opponent = d.side === "opponent";
      const colourId = opponent ? opponentColour(own) : own;
      const edge = opponent && d.kind !== "normal" ? opponentColour(own) : null;
      // Nothing is marked before the dice land (a dimmed die would give a dropped one away):
      // every die rolls plain and takes its look on the last frame (draw).
      const mesh = new THREE.Mesh(geometry(d.sh), material(d.sh, d.role, d.kind, colourId, edge, "plain"));
      mesh.userData = { look: "plain", colour: d.kind === "normal" ? colourId : d.kind, edge, landed: material(d.sh, d.role, d.kind, colourId, edge, d.look), landedLook: d.look };
      this.scene.add(mesh);
      return mesh;
    });
    this.shown = null;
    this.renderer.compile(this.scene, this.camera);
    return { steps: this.frames.length, tries: run.tries, tilted: run.tilted };
  }

  /** Draw frame `k` of the recorded throw (clamped to the last). */
  draw(k) {
    const index = Math.min(Math.max(0, Math.floor(k)), this.frames.length - 1);
    const frame = this.frames[index];
    this.meshes.forEach((mesh, i) => {
      mesh.position.set(frame[i * 7], frame[i * 7 + 1], frame[i * 7 + 2]);
      mesh.quaternion.set(frame[i * 7 + 3], frame[i * 7 + 4], frame[i * 7 + 5], frame[i * 7 + 6]).multiply(this.dice[i].fix);
    });
    this.shown = index;
    const landed = index === this.frames.length - 1;
    for (const mesh of this.meshes) {
      const { userData } = mesh;
      const look = landed ? userData.landedLook : "plain";
      if (userData.look === look) continue;
      if (!userData.plain) userData.plain = mesh.material;
      mesh.material = landed ? userData.landed : userData.plain;
      userData.look = look;
    }
    this.renderer.render(this.scene, this.camera);
  }

  get length() {
    return this.frames ? this.frames.length : 0;
  }

  /** Each body where it shows on screen (x: -1 left to 1 right), with its die and role. */
  shownLayout() {
    const at = new THREE.Vector3();
    return this.dice.map((d, i) => ({ index: d.index, role: d.role, x: at.copy(this.meshes[i].position).project(this.camera).x }));
  }

  /** The faces the dice show, read from each mesh's orientation, one per die of the result. */
  shownFaces() {
    const out = [];
    const up = new THREE.Vector3();
    this.dice.forEach((d, i) => {
      up.set(0, 1, 0).applyQuaternion(this.meshes[i].quaternion.clone().invert());
      const index = readIndex(d.sh, up);
      if (d.role === "face") out[d.index] = index + 1;
      else if (d.role === "fudge") out[d.index] = FUDGE_FACES[index];
      else if (d.role === "tens") out[d.index] = (out[d.index] || 0) + index * 10;
      else out[d.index] = (out[d.index] || 0) + index;
    });
    return out.map((face, i) => (this.dice.some((d) => d.index === i && d.sides === 100) && face === 0 ? 100 : face));
  }

  /**
   * Simulate a short throw (the physics' cold start), then compile and draw once, out of sight
   * and in slices, every solid and every program a throw
   * may need (plain, dimmed, exploded; Flame kinds; the opponent's colour): the first throw
   * then pays no shader compilation nor texture upload, the likeliest dice first. stop(): true
   * once a throw has begun (the warm-up then ends at once). Resolves true once all is done.
   */
  async warmUp(colour = "ivory", stop = () => false) {
    const own = DICE_COLOURS[colour] ? colour : "ivory";
    const other = opponentColour(own);
    // The likeliest first throws first: d6 (pool, d6), then d10 and d100, then the others.
    const combos = [[6, "face", "normal", own, null, "plain"], [6, "face", "flame", own, null, "plain"], [6, "face", "black_flame", own, null, "plain"]];
    combos.push([10, "face", "normal", own, null, "plain"], [100, "tens", "normal", own, null, "plain"], [100, "units", "normal", own, null, "plain"]);
    for (const sides of [8, 12, 20, 4]) combos.push([sides, "face", "normal", own, null, "plain"]);
    combos.push([6, "fudge", "fudge", own, null, "plain"], [10, "face", "normal", own, null, "hit"], [10, "face", "normal", own, null, "fail"]);
    combos.push([6, "face", "normal", other, null, "plain"], [6, "face", "normal", own, null, "dim"], [6, "face", "normal", own, null, "burst"], [6, "face", "flame", other, other, "plain"]);
    // The physics too: a first simulation runs cold (1–2 s on a busy machine), so one short
    // throw of every solid is simulated here, in slices, and thrown away.
    const stopped = new Error("stopped");
    const pause = async () => {
      await new Promise((resolve) => setTimeout(resolve));
      if (stop()) throw stopped;
    };
    try {
      const bodies = [6, 6, 6, 10, 10, 8, 12, 20, 4].map((sides) => ({ sides }));
      await simulate(bodies, { wide: 12, depth: 8, rng: seededRandom(1), slice: 8, pause });
    } catch (error) {
      if (error === stopped) return false;
      throw error;
    }
    // Every look compiled (compileAsync: where the browser compiles shaders in parallel, off
    // the main thread) and drawn once, each in a task of its own.
    const warm = new THREE.Scene();
    warm.add(...this.scene.children.filter((c) => c.isLight).map((light) => light.clone()));
    for (const [sides, ...rest] of combos) {
      if (stop()) return false;
      const sh = shape(sides);
      const mat = material(sh, ...rest);
      this.renderer.initTexture(mat.map);
      const mesh = new THREE.Mesh(geometry(sh), mat);
      mesh.frustumCulled = false;
      warm.add(mesh);
      if (this.renderer.compileAsync) await this.renderer.compileAsync(warm, this.camera);
      else this.renderer.compile(warm, this.camera);
      if (stop()) return false;
      this.renderer.render(warm, this.camera);
      warm.remove(mesh);
      await new Promise((resolve) => setTimeout(resolve));
    }
    this.renderer.clear();
    return true;
  }

  dispose() {
    this.renderer.dispose();
  }
}

function symmetryOf(sh, from, to) {
  return symmetry(sh, from, to) || [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
}
