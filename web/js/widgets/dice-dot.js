// A dot in a player's dice colour (the dice settings' colour id, lib/dice-colours.js), for
// who rolled at a shared table: the Table screen and the history. An SVG fill attribute (no
// inline style under the CSP), ringed so that ivory dice show on a light page; an unknown
// colour is the text's own.

import { s } from "../lib/dom.js";
import { DICE_COLOURS } from "../lib/dice-colours.js";

export function diceDot(colour, cls = "dice-dot") {
  const known = typeof colour === "string" && Object.hasOwn(DICE_COLOURS, colour);
  return s(
    "svg",
    { class: cls, viewBox: "0 0 12 12", "aria-hidden": "true", focusable: "false", "data-colour": known ? colour : "" },
    s("circle", { cx: 6, cy: 6, r: 5, fill: known ? DICE_COLOURS[colour].body : "currentColor", stroke: "#5b5f6b", "stroke-width": 1 }),
  );
}
