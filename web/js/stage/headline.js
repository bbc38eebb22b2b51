// The stage's headline: the number a player reads first and what it is, taken as is from the
// engine's answer (`headline_texts`, in every language: « 9 réussites », « Total 12 », « 43 »,
// « 12 contre 7 » for an opposition or a combat action; see docs/api.md), never worked out
// here. An answer stored before the engine said it in words: its `headline` numbers alone.
// No number in the answer (null, missing, not a finite integer): no headline at all.

import { lang, t } from "../lib/i18n.js";
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
  const words = answer && typeof answer === "object" ? answer.headline_texts : null;
  const said = words && typeof words === "object" ? words[lang()] : null;
  if (typeof said === "string" && said) return said;
  const numbers = headlineNumbers(answer).map(numberText);
  if (numbers.length === 2) return t("stage.versus", { a: numbers[0], b: numbers[1] });
  return numbers[0] || "";
}

/**
 * The headline as the stage draws it: its numbers in large type, its words beside them in
 * smaller type ([{text, number}] in reading order; the text reads the same once joined).
 */
export function headlineParts(text) {
  return String(text)
    .split(/([\u2212-]?\d+)/)
    .filter((part) => part !== "")
    .map((part) => ({ text: part, number: /^[\u2212-]?\d+$/.test(part) }));
}
