// The colours a player may give this device's dice (the dice settings, ui/dice-settings.js):
// body and ink (numerals, pips). Here, below every layer, because the shared table checks a
// colour a peer sends (lib/table-protocol.js) and the history shows who rolled in it.

export const DICE_COLOURS = {
  ivory: { body: "#f4efe2", ink: "#1b2133" },
  red: { body: "#b3261e", ink: "#ffffff" },
  blue: { body: "#1f5fbf", ink: "#ffffff" },
  green: { body: "#1e7a46", ink: "#ffffff" },
  purple: { body: "#6a3fb0", ink: "#ffffff" },
  black: { body: "#202024", ink: "#f4efe2" },
};

/** A dice colour id read from anywhere (a peer, storage): a known id, or null. */
export const cleanColour = (value) => (typeof value === "string" && Object.hasOwn(DICE_COLOURS, value) ? value : null);
