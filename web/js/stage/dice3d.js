// 3D dice: cannon-es throws them, three.js draws them. Loaded with a dynamic import once the
// engine is ready (stage.js), so the boot never pays for it.
//
// How the dice land on the engine's faces: the whole throw is simulated first (in slices of
// a few ms, so no main-thread task grows long), then, for each die, we find which face ended
// up on top and the rotation S among the die's own symmetries that brings the engine's face
// to that place. The die is drawn with orientation q(t)·S all along: S maps the solid onto
// itself, so its path and bounces are exactly the simulated ones, and it settles with the
// engine's face up. The face shown is then read back from the final orientation (which
// reading direction points up), never copied from the engine's answer.

import * as CANNON from "../../vendor/cannon-es.js";
import * as THREE from "../../vendor/three.module.js";
import { readIndex, shape, symmetry } from "./dice-solids.js";

const STEP = 1 / 60;
const MAX_STEPS = 150;
const SLICE_MS = 12;

function labelText(sides, role, index) {
  if (role === "tens") return `${index}0`;
  if (role === "units") return String(index);
  return String(index + 1);
}

// Colours by kind, and the border of the opponent's dice in an opposition.
const SCHEMES = {
  normal: { body: "#f4efe2", ink: "#1b2133" },
  flame: { body: "#f0a020", ink: "#3b1d00" },
  black_flame: { body: "#1e1a24", ink: "#ffb84d" },
};
const OPPONENT_EDGE = "#2f6fd6";

const MATERIALS = new Map();

function material(sh, sides, role, kind, side) {
  const key = `${sh.key}:${role}:${kind}:${side}`;
  if (MATERIALS.has(key)) return MATERIALS.get(key);
  const scheme = SCHEMES[kind] || SCHEMES.normal;
  const { cols, rows } = sh;
  const cell = 128;
  const canvas = document.createElement("canvas");
  canvas.width = cols * cell;
  canvas.height = rows * cell;
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = scheme.body;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  sh.faces.forEach((face, f) => {
    const px = (p) => [p[0] * canvas.width, (1 - p[1]) * canvas.height];
    const corners = sh.uv[f].map(px);
    const centre = corners.reduce((acc, p) => [acc[0] + p[0] / corners.length, acc[1] + p[1] / corners.length], [0, 0]);
    if (side === "opponent") {
      ctx.strokeStyle = OPPONENT_EDGE;
      ctx.lineWidth = 10;
      ctx.beginPath();
      corners.forEach((p, i) => (i ? ctx.lineTo(...p) : ctx.moveTo(...p)));
      ctx.closePath();
      ctx.stroke();
    }
    ctx.fillStyle = scheme.ink;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    if (sh.key === 4) {
      face.ids.forEach((vid, i) => {
        const [cx, cy] = corners[i];
        const x = centre[0] + (cx - centre[0]) * 0.55;
        const y = centre[1] + (cy - centre[1]) * 0.55;
        ctx.save();
        ctx.translate(x, y);
        ctx.rotate(Math.atan2(cx - centre[0], -(cy - centre[1])));
        ctx.font = "bold 30px sans-serif";
        ctx.fillText(labelText(sides, role, vid), 0, 0);
        ctx.restore();
      });
    } else if (sh.key === 6 && role === "face") {
      pips(ctx, centre, f + 1, cell * 0.2);
    } else {
      const text = labelText(sides, role, f);
      ctx.font = `bold ${sh.faces.length > 12 ? 34 : text.length > 1 ? 44 : 54}px sans-serif`;
      ctx.fillText(text, centre[0], centre[1]);
      if (text === "6" || text === "9") ctx.fillRect(centre[0] - 12, centre[1] + 24, 24, 4);
    }
  });
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  const mat = new THREE.MeshPhongMaterial({ map: texture, flatShading: true, shininess: 50, specular: 0x333333 });
  MATERIALS.set(key, mat);
  return mat;
}

function pips(ctx, [x, y], n, step) {
  const spots = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]] };
  spots[5] = [...spots[4], [0, 0]];
  spots[6] = [...spots[4], [-1, 0], [1, 0]];
  for (const [dx, dy] of spots[n]) {
    ctx.beginPath();
    ctx.arc(x + dx * step, y + dy * step, step * 0.42, 0, Math.PI * 2);
    ctx.fill();
  }
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

/** Expand the result's dice into 3D bodies: a d100 is two d10 (tens, units). */
function bodiesFor(dice) {
  const out = [];
  dice.forEach((die, index) => {
    if (die.sides === 100) {
      const tens = Math.floor((die.face % 100) / 10);
      out.push({ index, sides: 100, role: "tens", target: tens, kind: die.kind, side: die.side });
      out.push({ index, sides: 100, role: "units", target: die.face % 10, kind: die.kind, side: die.side });
    } else {
      out.push({ index, sides: die.sides, role: "face", target: die.face - 1, kind: die.kind, side: die.side });
    }
  });
  return out;
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
    this.camera = new THREE.PerspectiveCamera(32, 1, 0.5, 200);
    this.meshes = [];
    this.dice = [];
    this.frames = null;
    this.impacts = [];
  }

  /** Simulate a throw of `dice` ([{sides, face, kind, side}]); resolves when ready to play. */
  async prepare(dice, { slice = SLICE_MS } = {}) {
    this.generation = (this.generation || 0) + 1;
    const generation = this.generation;
    const width = this.canvas.clientWidth || 300;
    const height = this.canvas.clientHeight || 200;
    this.renderer.setSize(width, height, false);
    const aspect = width / height;
    const bodies = bodiesFor(dice);
    let depth = Math.max(7, Math.sqrt(bodies.length) * 2.4);
    let wide = depth * aspect;
    if (wide < 7) {
      wide = 7;
      depth = wide / aspect;
    }
    this.camera.aspect = aspect;
    this.camera.position.set(0, depth / 2 / Math.tan((16 * Math.PI) / 180) + 1, 0);
    this.camera.up.set(0, 0, -1);
    this.camera.lookAt(0, 0, 0);
    this.camera.updateProjectionMatrix();

    const world = new CANNON.World({ gravity: new CANNON.Vec3(0, -60, 0), allowSleep: true });
    world.broadphase = new CANNON.SAPBroadphase(world);
    const diceMat = new CANNON.Material("dice");
    const floorMat = new CANNON.Material("floor");
    world.addContactMaterial(new CANNON.ContactMaterial(floorMat, diceMat, { friction: 0.3, restitution: 0.35 }));
    world.addContactMaterial(new CANNON.ContactMaterial(diceMat, diceMat, { friction: 0.1, restitution: 0.3 }));
    const wall = (normal, point) => {
      const body = new CANNON.Body({ mass: 0, material: floorMat, shape: new CANNON.Plane() });
      body.quaternion.setFromVectors(new CANNON.Vec3(0, 0, 1), new CANNON.Vec3(...normal));
      body.position.set(...point);
      world.addBody(body);
    };
    wall([0, 1, 0], [0, 0, 0]);
    wall([1, 0, 0], [-wide / 2 + 0.3, 0, 0]);
    wall([-1, 0, 0], [wide / 2 - 0.3, 0, 0]);
    wall([0, 0, 1], [0, 0, -depth / 2 + 0.3]);
    wall([0, 0, -1], [0, 0, depth / 2 - 0.3]);
    const rnd = (a, b) => a + Math.random() * (b - a);
    this.dice = bodies.map((d, i) => {
      const sh = shape(d.sides);
      const convex = new CANNON.ConvexPolyhedron({ vertices: sh.verts.map((p) => new CANNON.Vec3(...p)), faces: sh.faces.map((f) => f.ids) });
      const body = new CANNON.Body({ mass: 1, material: diceMat, shape: convex, sleepSpeedLimit: 0.3, sleepTimeLimit: 0.15 });
      const row = Math.floor(i / 8);
      body.position.set(-wide / 2 + 1 + rnd(0, 1.5), 2 + row * 1.2 + rnd(0, 1), rnd(-depth / 3, depth / 3));
      body.quaternion.setFromEuler(rnd(0, 6.3), rnd(0, 6.3), rnd(0, 6.3));
      body.velocity.set(rnd(12, 22), rnd(-2, 2), rnd(-6, 6));
      body.angularVelocity.set(rnd(-20, 20), rnd(-20, 20), rnd(-20, 20));
      body.linearDamping = 0.1;
      body.angularDamping = 0.15;
      body.addEventListener("collide", (e) => {
        const speed = Math.abs(e.contact.getImpactVelocityAlongNormal());
        if (speed > 3) this.impacts.push({ step: this.steps, speed });
      });
      world.addBody(body);
      return { ...d, sh, body };
    });
    const n = this.dice.length;
    const frames = [];
    this.steps = 0;
    this.impacts = [];
    let sliceStart = performance.now();
    while (this.steps < MAX_STEPS) {
      world.step(STEP);
      this.steps += 1;
      const frame = new Float32Array(n * 7);
      this.dice.forEach(({ body }, i) => {
        frame.set([body.position.x, body.position.y, body.position.z, body.quaternion.x, body.quaternion.y, body.quaternion.z, body.quaternion.w], i * 7);
      });
      frames.push(frame);
      if (this.dice.every(({ body }) => body.sleepState === CANNON.Body.SLEEPING)) break;
      if (performance.now() - sliceStart > slice) {
        await new Promise((resolve) => setTimeout(resolve));
        if (generation !== this.generation) throw new Superseded(); // a newer throw began
        sliceStart = performance.now();
      }
    }
    this.frames = frames;
    // The engine's face goes where the simulated top face ended.
    const last = frames[frames.length - 1];
    const q = new THREE.Quaternion();
    const up = new THREE.Vector3();
    this.scene.remove(...this.meshes);
    this.meshes = this.dice.map((d, i) => {
      q.set(last[i * 7 + 3], last[i * 7 + 4], last[i * 7 + 5], last[i * 7 + 6]);
      up.set(0, 1, 0).applyQuaternion(q.clone().invert());
      const top = readIndex(d.sh, up);
      const M = symmetry(d.sh, d.target, top) || [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
      const m4 = new THREE.Matrix4().set(...M[0], 0, ...M[1], 0, ...M[2], 0, 0, 0, 0, 1);
      d.fix = new THREE.Quaternion().setFromRotationMatrix(m4);
      const mesh = new THREE.Mesh(geometry(d.sh), material(d.sh, d.sides, d.role, d.kind, d.side));
      this.scene.add(mesh);
      return mesh;
    });
    this.renderer.compile(this.scene, this.camera);
    return { steps: frames.length };
  }

  /** Draw frame `k` of the recorded throw (clamped to the last). */
  draw(k) {
    const frame = this.frames[Math.min(Math.max(0, Math.floor(k)), this.frames.length - 1)];
    this.meshes.forEach((mesh, i) => {
      mesh.position.set(frame[i * 7], frame[i * 7 + 1], frame[i * 7 + 2]);
      mesh.quaternion.set(frame[i * 7 + 3], frame[i * 7 + 4], frame[i * 7 + 5], frame[i * 7 + 6]).multiply(this.dice[i].fix);
    });
    this.renderer.render(this.scene, this.camera);
  }

  get length() {
    return this.frames ? this.frames.length : 0;
  }

  /** The faces the dice show, read from each mesh's orientation, one per die of the result. */
  shownFaces() {
    const out = [];
    const up = new THREE.Vector3();
    this.dice.forEach((d, i) => {
      up.set(0, 1, 0).applyQuaternion(this.meshes[i].quaternion.clone().invert());
      const index = readIndex(d.sh, up);
      if (d.role === "face") out[d.index] = index + 1;
      else if (d.role === "tens") out[d.index] = (out[d.index] || 0) + index * 10;
      else out[d.index] = (out[d.index] || 0) + index;
    });
    return out.map((face, i) => (dice100(this.dice, i) && face === 0 ? 100 : face));
  }

  dispose() {
    this.renderer.dispose();
  }
}

function dice100(dice, index) {
  return dice.some((d) => d.index === index && d.sides === 100);
}

