// A roll handed across the table: its replay link as a QR code that another device's camera
// app opens. The engine makes the code (segno, on this device, offline: op "qr"); this
// module only draws the modules it answers as one SVG path, dark on white with the 4-module
// quiet zone the standard asks for, large enough to scan from arm's length.

import { h, s } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import "./strings.js";

const QUIET = 4; // modules of white around the code

/** The SVG of a QR matrix (rows of "0"/"1", dark = 1). */
export function qrSVG(rows, text) {
  const size = rows.length + 2 * QUIET;
  let d = "";
  rows.forEach((row, y) => {
    // One rectangle per run of dark modules on a row: a short path.
    for (let x = 0; x < row.length; x += 1) {
      if (row[x] !== "1") continue;
      let end = x;
      while (end + 1 < row.length && row[end + 1] === "1") end += 1;
      d += `M${x + QUIET} ${y + QUIET}h${end - x + 1}v1h${-(end - x + 1)}z`;
      x = end;
    }
  });
  return s(
    "svg",
    { class: "qr-svg", viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": t("qr.label"), "shape-rendering": "crispEdges", dataset: { text, modules: rows.length } },
    s("rect", { width: size, height: size, class: "qr-light" }),
    s("path", { d, class: "qr-dark" }),
  );
}

/** Fill box with the QR code of text, asked of the engine through call(request). */
export async function drawQR(box, text, call) {
  box.replaceChildren();
  box.dataset.state = "loading";
  const answer = await call({ op: "qr", text });
  if (!answer || !answer.ok) {
    box.dataset.state = "failed";
    box.append(h("p", { class: "qr-failed", text: t("qr.failed", { why: answer?.error?.message || "?" }) }));
    return;
  }
  box.append(qrSVG(answer.result.rows, text), h("p", { class: "help qr-hint", text: t("qr.hint") }));
  box.dataset.state = "ready";
}
