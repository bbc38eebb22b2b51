// Tiny DOM helpers. Text always goes in through textContent (never innerHTML), and no
// style attribute is ever written: the Content-Security-Policy forbids inline styles.

import { CHECKS } from "./checks.js";
import { readJSON, writeJSON } from "./storage.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) {
      continue;
    }
    if (key === "class") {
      node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "style") {
      throw new Error("inline styles are not allowed (CSP)");
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** h("div", {class: "x", text: "hello"}, child1, child2) */
export function h(tag, attrs, ...children) {
  return append(apply(document.createElement(tag), attrs), children);
}

/** Same as h() for SVG elements. */
export function s(tag, attrs, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), attrs), children);
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

/** Random integers in [0, n) from the platform CSPRNG (used for visuals only). */
export function randomInts(count, n) {
  const values = new Uint32Array(count);
  crypto.getRandomValues(values);
  return Array.from(values, (v) => v % n);
}

export function prefersReducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Debounced calls waiting for their timer or still running (their promise not settled): the
// tests wait for none to be left (window.pyrules.pendingWork()) instead of for a duration.
let pending = 0;

function track(value) {
  if (value && typeof value.then === "function") {
    pending += 1;
    const done = () => {
      pending -= 1;
    };
    value.then(done, done);
  }
  return value;
}

export function debounce(fn, ms) {
  let timer = null;
  const fire = (args) => {
    timer = null;
    pending -= 1;
    return track(fn(...args));
  };
  const wrapped = (...args) => {
    if (timer === null) pending += 1;
    else clearTimeout(timer);
    timer = setTimeout(() => fire(args), ms);
  };
  wrapped.flush = (...args) => {
    if (timer !== null) {
      clearTimeout(timer);
      fire(args);
    } else {
      track(fn(...args));
    }
  };
  return wrapped;
}

/** How many debounced calls are scheduled or still running. */
export function pendingWork() {
  return pending;
}

/** The JSON stored under `key` (checked: see checks.js), or `fallback`. Never throws. */
export function storageGet(key, fallback) {
  return readJSON(key, { fallback, check: CHECKS[key] || null });
}

/** Store `value` as JSON; false when it could not be written (reported: see storage.js). */
export function storageSet(key, value) {
  return writeJSON(key, value);
}

/** Fill a progress bar's `.progress-fill` to `fraction` (0..1), by its transform: the
 * compositor eases it, with no layout of the page (css/boot.css). */
export function setProgress(fill, fraction) {
  fill.style.transform = `scaleX(${Math.min(1, Math.max(0, fraction))})`;
}

/**
 * Resolves in a later task, so that the browser can paint and answer input in between
 * (scheduler.yield where there is one: the rest then runs before other queued work).
 * Used to cut long work on the main thread into tasks under 50 ms.
 */
export function nextTask() {
  if (globalThis.scheduler && typeof globalThis.scheduler.yield === "function") {
    return globalThis.scheduler.yield();
  }
  return new Promise((resolve) => setTimeout(resolve, 0));
}
