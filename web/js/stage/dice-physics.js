// The simulated throw of the 3D dice (cannon-es), cut in slices of a few ms so that no
// main-thread task grows long, and its check at rest: a die that ends tilted (leaning on the
// tray's edge or on another die, or asleep on an edge: its top reading direction more than
// REST_DEGREES from the vertical) makes a throw of a few dice simulated again from another
// start, once; a die still tilted after that tips down flat over a few extra frames. The walls and
// the dice are slippery, so that a die seldom stays leaning, and a die that falls asleep
// balanced on an edge is woken and tipped toward its nearest face (a few times at most), as a
// real die would fall: so few dice need the final tip (tests/browser/test_dice_rest.py prints
// how many). So every die rests flat and the face a player sees is the one read back
// (dice3d.js shownFaces()).

import * as CANNON from "../../vendor/cannon-es.js";
import { readIndex, shape } from "./dice-solids.js";

const STEP = 1 / 60;
const MAX_STEPS = 180;
export const REST_DEGREES = 10;
const TRIES = 2;
const RETRY_UP_TO = 8; // dice: more than that, a re-simulation costs more than it helps
const SETTLE_FRAMES = 10;
const NUDGES = 3; // times a die asleep on an edge is tipped toward its face
const NUDGE_EVERY = 5; // steps between two looks for such dice
const NUDGE_SPIN = 6; // rad/s about the axis that brings its top face up

/** A small seeded generator (mulberry32): the same seed throws the same way. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Quaternion helpers on [x, y, z, w] arrays.
const qmul = (a, b) => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const rotate = (q, v) => {
  const p = qmul(qmul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
  return [p[0], p[1], p[2]];
};

/** The world direction a die's top reading direction points to, and how far from vertical (degrees). */
export function restTilt(sh, quaternion) {
  const [x, y, z, w] = quaternion;
  const inverse = [-x, -y, -z, w];
  const up = rotate(inverse, [0, 1, 0]);
  const top = readIndex(sh, { x: up[0], y: up[1], z: up[2] });
  const dir = rotate(quaternion, sh.dirs[top]);
  return { dir, degrees: (Math.acos(Math.max(-1, Math.min(1, dir[1]))) * 180) / Math.PI };
}

/** The shortest rotation taking unit vector a onto the vertical, as a quaternion. */
function toVertical(a) {
  const axis = [-a[2], 0, a[0]]; // a × (0, 1, 0), up to sign: (a_y·0 − a_z·1, a_z·0 − a_x·0, a_x·1 − a_y·0)
  const s = Math.hypot(axis[0], axis[2]);
  if (s < 1e-9) return [0, 0, 0, 1];
  const angle = Math.atan2(s, a[1]);
  const k = Math.sin(angle / 2) / s;
  return [axis[0] * k, 0, axis[2] * k, Math.cos(angle / 2)];
}

/** The lowest point of a die (its vertices rotated by `quaternion`) above its centre. */
function lowest(sh, quaternion) {
  return Math.min(...sh.verts.map((v) => rotate(quaternion, v)[1]));
}

function oneThrow(bodies, { wide, depth, rng }) {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -60, 0), allowSleep: true });
  world.broadphase = new CANNON.SAPBroadphase(world);
  const diceMat = new CANNON.Material("dice");
  const floorMat = new CANNON.Material("floor");
  const wallMat = new CANNON.Material("wall");
  world.addContactMaterial(new CANNON.ContactMaterial(floorMat, diceMat, { friction: 0.3, restitution: 0.35 }));
  // Slippery walls and dice: a die that leans on the tray's edge or on another die slides
  // down flat instead of resting tilted.
  world.addContactMaterial(new CANNON.ContactMaterial(diceMat, diceMat, { friction: 0, restitution: 0.3 }));
  world.addContactMaterial(new CANNON.ContactMaterial(wallMat, diceMat, { friction: 0, restitution: 0.45 }));
  const wall = (normal, point) => {
    const body = new CANNON.Body({ mass: 0, material: normal[1] ? floorMat : wallMat, shape: new CANNON.Plane() });
    body.quaternion.setFromVectors(new CANNON.Vec3(0, 0, 1), new CANNON.Vec3(...normal));
    body.position.set(...point);
    world.addBody(body);
  };
  wall([0, 1, 0], [0, 0, 0]);
  wall([1, 0, 0], [-wide / 2 + 0.3, 0, 0]);
  wall([-1, 0, 0], [wide / 2 - 0.3, 0, 0]);
  wall([0, 0, 1], [0, 0, -depth / 2 + 0.3]);
  wall([0, 0, -1], [0, 0, depth / 2 - 0.3]);
  const rnd = (a, b) => a + rng() * (b - a);
  const impacts = [];
  const state = { steps: 0 };
  const list = bodies.map((d, i) => {
    const sh = shape(d.sides);
    const convex = new CANNON.ConvexPolyhedron({ vertices: sh.verts.map((p) => new CANNON.Vec3(...p)), faces: sh.faces.map((f) => f.ids) });
    const body = new CANNON.Body({ mass: 1, material: diceMat, shape: convex, sleepSpeedLimit: 0.15, sleepTimeLimit: 0.2 });
    const row = Math.floor(i / 8);
    body.position.set(-wide / 2 + 1 + rnd(0, 1.5), 2 + row * 1.2 + rnd(0, 1), rnd(-depth / 3, depth / 3));
    body.quaternion.setFromEuler(rnd(0, 6.3), rnd(0, 6.3), rnd(0, 6.3));
    body.velocity.set(rnd(12, 22) * Math.min(1, wide / 12), rnd(-2, 2), rnd(-6, 6));
    body.angularVelocity.set(rnd(-20, 20), rnd(-20, 20), rnd(-20, 20));
    body.linearDamping = 0.1;
    body.angularDamping = 0.15;
    body.addEventListener("collide", (e) => {
      const speed = Math.abs(e.contact.getImpactVelocityAlongNormal());
      if (speed > 3) impacts.push({ step: state.steps, speed });
    });
    world.addBody(body);
    return { sh, body, nudged: 0 };
  });
  return { world, list, impacts, state, frames: [] };
}

/**
 * Simulate a throw of `bodies` ([{sides}]) in a wide × depth tray. rng: the random source;
 * pause(): awaited between slices (it throws to abandon the throw). Resolves
 * {frames: Float32Array per step (x, y, z, qx, qy, qz, qw per die), impacts, tries, tilted}.
 */
export async function simulate(bodies, { wide, depth, rng, slice, pause }) {
  let run = null;
  const history = [];
  const tries = bodies.length <= RETRY_UP_TO ? TRIES : 1;
  for (let attempt = 1; attempt <= tries; attempt += 1) {
    run = oneThrow(bodies, { wide, depth, rng });
    let sliceStart = performance.now();
    const n = run.list.length;
    while (run.state.steps < MAX_STEPS) {
      run.world.step(STEP);
      run.state.steps += 1;
      if (run.state.steps % NUDGE_EVERY === 0) nudgeEdgeSleepers(run);
      const frame = new Float32Array(n * 7);
      run.list.forEach(({ body }, i) => {
        frame.set([body.position.x, body.position.y, body.position.z, body.quaternion.x, body.quaternion.y, body.quaternion.z, body.quaternion.w], i * 7);
      });
      run.frames.push(frame);
      if (run.list.every(({ body }) => body.sleepState === CANNON.Body.SLEEPING)) break;
      if (performance.now() - sliceStart > slice) {
        await pause();
        sliceStart = performance.now();
      }
    }
    run.tries = attempt;
    const off = tilted(run);
    history.push(off.length);
    run.tilted = history; // how many dice ended tilted, per simulation (the bench reads it)
    if (off.length === 0) return run;
    await pause();
  }
  settle(run);
  return run;
}

/**
 * A die asleep but not flat is balanced on an edge or leaning (the engine put it to sleep while
 * it rocked slowly): woken and spun about the horizontal axis that brings its nearest top face
 * up, with a small hop, so the simulation lets it fall flat (NUDGES times at most per die).
 */
function nudgeEdgeSleepers(run) {
  for (const die of run.list) {
    const { body, sh } = die;
    if (body.sleepState !== CANNON.Body.SLEEPING || die.nudged >= NUDGES) continue;
    const { dir, degrees } = restTilt(sh, [body.quaternion.x, body.quaternion.y, body.quaternion.z, body.quaternion.w]);
    if (degrees <= REST_DEGREES) continue;
    die.nudged += 1;
    const axis = [-dir[2], 0, dir[0]]; // dir × up: turning dir toward the vertical
    const length = Math.hypot(axis[0], axis[2]) || 1;
    body.wakeUp();
    body.angularVelocity.set((axis[0] / length) * NUDGE_SPIN, 0, (axis[2] / length) * NUDGE_SPIN);
    body.velocity.set(0, 1.5, 0);
  }
}

/** The dice of a run whose last pose is not flat. */
function tilted(run) {
  const last = run.frames[run.frames.length - 1];
  return run.list.map((d, i) => i).filter((i) => restTilt(run.list[i].sh, Array.from(last.slice(i * 7 + 3, i * 7 + 7))).degrees > REST_DEGREES);
}

/** Bring the dice still tilted down flat on the tray, over SETTLE_FRAMES more frames. */
function settle(run) {
  const last = run.frames[run.frames.length - 1];
  const goal = new Float32Array(last);
  for (const i of tilted(run)) {
    const q = Array.from(last.slice(i * 7 + 3, i * 7 + 7));
    const { dir } = restTilt(run.list[i].sh, q);
    const flat = qmul(toVertical(dir), q);
    const norm = Math.hypot(...flat);
    const unit = flat.map((v) => v / norm);
    goal.set(unit, i * 7 + 3);
    goal[i * 7 + 1] = -lowest(run.list[i].sh, unit);
  }
  for (let k = 1; k <= SETTLE_FRAMES; k += 1) {
    const f = k / SETTLE_FRAMES;
    const frame = new Float32Array(last.length);
    for (let i = 0; i < last.length; i += 7) {
      for (let c = 0; c < 3; c += 1) frame[i + c] = last[i + c] + (goal[i + c] - last[i + c]) * f;
      // normalised linear blend of the two orientations (they are close: fine for a settle)
      let q = [0, 1, 2, 3].map((c) => last[i + 3 + c] + (goal[i + 3 + c] - last[i + 3 + c]) * f);
      const dotq = [0, 1, 2, 3].reduce((acc, c) => acc + last[i + 3 + c] * goal[i + 3 + c], 0);
      if (dotq < 0) q = [0, 1, 2, 3].map((c) => last[i + 3 + c] - (goal[i + 3 + c] + last[i + 3 + c]) * f);
      const norm = Math.hypot(...q);
      frame.set(q.map((v) => v / norm), i + 3);
    }
    run.frames.push(frame);
  }
  run.settled = true;
}
