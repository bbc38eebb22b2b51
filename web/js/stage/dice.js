// Dice drawn in SVG, each in its own shape, and a light tumble animation (CSS transforms
// plus cycling random faces) that lands on exactly the faces the engine chose.
//
// d4 triangle, d6 square (with pips), d8 diamond, d10 kite, d12 pentagon, d20 hexagon;
// d100 is drawn as two d10: tens ((face % 100) // 10 shown as "40") and units (face % 10),
// so 100 shows as "00" + "0".

import { prefersReducedMotion, randomInts, s } from "../lib/dom.js";

const SHAPES = {
  4: () => s("polygon", { class: "die-shape", points: "50,7 95,88 5,88" }),
  6: () => s("rect", { class: "die-shape", x: 7, y: 7, width: 86, height: 86, rx: 16 }),
  8: () => s("polygon", { class: "die-shape", points: "50,3 95,50 50,97 5,50" }),
  10: () => s("polygon", { class: "die-shape", points: "50,3 94,40 50,97 6,40" }),
  12: () => s("polygon", { class: "die-shape", points: polygon(5, 47, 56, -90) }),
  20: () => s("polygon", { class: "die-shape", points: polygon(6, 47, 50, -90) }),
};

// Where the number sits inside each shape (its visual centre).
const TEXT_Y = { 4: 70, 6: 52, 8: 52, 10: 47, 12: 58, 20: 52 };
const PIPS = { lt: [28, 28], lm: [28, 50], lb: [28, 72], mm: [50, 50], rt: [72, 28], rm: [72, 50], rb: [72, 72] };

function polygon(n, r, cy, startDeg) {
  const points = [];
  for (let i = 0; i < n; i += 1) {
    const a = ((startDeg + (360 * i) / n) * Math.PI) / 180;
    points.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

function shapeFor(sides) {
  return SHAPES[sides] ? sides : sides > 12 ? 20 : 6;
}

function faceSVG(sides, label) {
  const shape = shapeFor(sides);
  const svg = s("svg", { class: "die-svg", viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" });
  svg.append(SHAPES[shape]());
  if (sides === 6) {
    const pips = s("g", { class: "pips" });
    for (const [name, [cx, cy]] of Object.entries(PIPS)) {
      pips.append(s("circle", { class: `pip pip-${name}`, cx, cy, r: 8.5 }));
    }
    svg.append(pips);
  }
  svg.append(s("text", { class: "die-text", x: 50, y: TEXT_Y[shape], "text-anchor": "middle", "dominant-baseline": "central" }));
  if (label) {
    svg.append(s("text", { class: "die-caption-in", x: 50, y: 92, "text-anchor": "middle" }, label));
  }
  return svg;
}

function setText(svg, text) {
  const node = svg.querySelector(".die-text");
  node.textContent = text;
  node.setAttribute("class", `die-text digits-${Math.min(String(text).length, 3)}`);
}

/** Tens and units of a d100 face, as drawn on the two d10. */
export function d100Parts(face) {
  const tens = Math.floor((face % 100) / 10);
  return { tens: `${tens}0`, units: String(face % 10) };
}

/**
 * A die element: <div class="die die--KIND" data-sides data-face> with its SVG(s).
 * The face shown is changed with setFace(); d6 faces 1–6 are drawn with pips.
 */
export function createDie(sides, kind = "normal") {
  const die = document.createElement("div");
  die.className = `die die--${kind}`;
  die.dataset.sides = String(sides);
  if (sides === 100) {
    die.classList.add("die--d100");
    die.append(faceSVG(10), faceSVG(10));
  } else {
    die.append(faceSVG(sides));
  }
  return die;
}

export function setFace(die, face) {
  const sides = Number(die.dataset.sides);
  die.dataset.face = String(face);
  const svgs = die.querySelectorAll(".die-svg");
  if (sides === 100) {
    const { tens, units } = d100Parts(face);
    setText(svgs[0], tens);
    setText(svgs[1], units);
  } else if (die.classList.contains("die--fudge")) {
    die.classList.remove("show-pips");
    setText(svgs[0], face > 0 ? "+" : face < 0 ? "−" : ""); // a Fudge die: −, blank, +
  } else if (sides === 6 && face >= 1 && face <= 6) {
    die.classList.add("show-pips");
    setText(svgs[0], "");
  } else {
    die.classList.remove("show-pips");
    setText(svgs[0], String(face));
  }
}

const TUMBLE_MS = 1000;
const FACE_EVERY_MS = 70;

/**
 * Tumble dice then land them on their final faces.
 * @param {Array<{el: HTMLElement, face: number}>} dice
 * @param {Function} onDone called once every die has landed (also after skip())
 * @returns {{skip: Function, done: boolean}}
 */
export function tumble(dice, onDone) {
  const control = { done: false, skip: () => {} };
  const land = (die) => {
    die.el.classList.remove("tumbling");
    die.el.style.animationDelay = "";
    die.el.style.animationDuration = "";
    setFace(die.el, die.face);
    die.landed = true;
  };
  const finish = () => {
    if (control.done) return;
    control.done = true;
    for (const die of dice) if (!die.landed) land(die);
    onDone();
  };
  control.skip = finish;
  if (prefersReducedMotion() || dice.length === 0) {
    finish();
    return control;
  }
  // Each die stops at its own moment (0.75–1.1 s) so the landing ripples.
  const jitter = randomInts(dice.length * 2, 1000);
  dice.forEach((die, i) => {
    die.stopAt = TUMBLE_MS * 0.75 + (jitter[i] / 1000) * TUMBLE_MS * 0.35;
    die.el.style.animationDuration = `${Math.round(die.stopAt)}ms`;
    die.el.style.animationDelay = `${Math.round((jitter[dice.length + i] / 1000) * 60)}ms`;
    die.el.classList.add("tumbling", jitter[i] % 2 ? "spin-left" : "spin-right");
    die.landed = false;
  });
  let start = null;
  let lastFaces = -Infinity;
  const frame = (now) => {
    if (control.done) return;
    if (start === null) start = now;
    const elapsed = now - start;
    const cycle = now - lastFaces >= FACE_EVERY_MS;
    const rolling = dice.filter((die) => !die.landed);
    if (cycle) {
      lastFaces = now;
    }
    const random = cycle ? randomInts(rolling.length, 1 << 30) : null;
    rolling.forEach((die, i) => {
      if (elapsed >= die.stopAt) {
        land(die);
      } else if (random) {
        const sides = Number(die.el.dataset.sides) || 3; // Fudge dice say 0 sides
        setFace(die.el, (random[i] % sides) + 1);
      }
    });
    if (dice.every((die) => die.landed)) {
      finish();
    } else {
      requestAnimationFrame(frame);
    }
  };
  requestAnimationFrame(frame);
  return control;
}
