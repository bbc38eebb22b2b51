// The stage's headline: the number a player reads first, taken as is from the engine's
// answer (`headline`, see docs/api.md), never worked out here. A roll shows its own
// headline; an opposition (or a combat action) both sides' headlines, « 6 contre 3 ».
// No number in the answer (null, missing, not a finite integer): no headline at all.

import { t } from "../lib/i18n.js";
import "./strings.js";

const number = (value) => (Number.isSafeInteger(value) ? value : null);

/** The headline numbers of an engine answer: [n] for a roll, [a, b] for two sides, [] when none. */
export function headlineNumbers(answer) {
  if (!answer || typeof answer !== "object") return [];
  const sides = answer.actor && answer.opponent ? [answer.actor, answer.opponent] : Array.isArray(answer.rolls) && answer.rolls.length === 2 ? answer.rolls : null;
  if (sides) {
    const both = sides.map((side) => number(side && side.headline));
    return both.every((n) => n !== null) ? both : [];
  }
  const one = number(answer.headline);
  return one === null ? [] : [one];
}

/** A headline number as the stage writes it: digits, a real minus sign below zero. */
export function numberText(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

/** The headline text of an engine answer in the current language ("" when it names none). */
export function headlineText(answer) {
  const numbers = headlineNumbers(answer).map(numberText);
  if (numbers.length === 2) return t("stage.versus", { a: numbers[0], b: numbers[1] });
  return numbers[0] || "";
}
