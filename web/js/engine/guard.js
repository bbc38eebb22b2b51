// The page's side of the engine boundary (issue 14): a request becomes a JSON text, or a
// documented error answer, before anything is sent to the worker. Pure (no DOM): tested
// with node --test (tests/js/).
//
// - An object that JSON.stringify cannot serialise (a BigInt, a circular object, a getter
//   that throws) gives {code: "invalid_request"}.
// - A text nesting arrays/objects more than MAX_DEPTH deep gives {code: "invalid_json"},
//   like the engine's own check (pyrules.api.MAX_DEPTH): 5,000 "[" used to overflow the
//   wasm stack of Pyodide, a fatal error that killed the worker.

export const MAX_DEPTH = 32;

/** How deeply arrays and objects nest in a JSON text (brackets in strings do not count). */
export function nesting(text) {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i += 1; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth += 1;
      if (depth > max) max = depth;
    } else if (c === 93 || c === 125) depth -= 1;
  }
  return max;
}

const ENGLISH = {
  "engine.unserialisable": "The request cannot be written as JSON ({detail}); nothing was sent.",
  "engine.tooDeep": "The request nests more than {max} arrays or objects: it is not read.",
};

function english(key, args = {}) {
  return ENGLISH[key].replace(/\{(\w+)\}/g, (_, name) => String(args[name]));
}

/**
 * {text} to send, or {answer} to resolve at once. `request` is an object or a JSON text;
 * `text(key, args)` translates the two messages (English by default).
 */
export function prepare(request, text = english) {
  let body;
  try {
    body = typeof request === "string" ? request : JSON.stringify(request);
  } catch (error) {
    const detail = String((error && error.name) || "Error");
    return { answer: { ok: false, error: { code: "invalid_request", field: null, message: text("engine.unserialisable", { detail }) } } };
  }
  if (typeof body !== "string") {
    return { answer: { ok: false, error: { code: "invalid_request", field: null, message: text("engine.unserialisable", { detail: typeof request }) } } };
  }
  if (nesting(body) > MAX_DEPTH) {
    return { answer: { ok: false, error: { code: "invalid_json", field: null, message: text("engine.tooDeep", { max: MAX_DEPTH }) } } };
  }
  return { text: body };
}
