// Numbers written without Intl, for what the page writes while it starts: the odds, the
// boot's megabytes, a kept roll's chance. The first Intl.NumberFormat a page builds loads its
// language's data: 20-40 ms of the main thread in Chromium, measured at start, where it
// waited beside the engine's worker for the CPU. The signs are Intl's for each language, and
// so is the text (tests/js/numbers.test.js compares the two over many values); any other
// number of the page goes through formatNumber (i18n.js), Intl itself.

import { formatNumber, lang } from "./i18n.js";

const SIGNS = {
  fr: { decimal: ",", group: "\u202f", percent: "\u00a0%" },
  en: { decimal: ".", group: ",", percent: "%" },
};

/**
 * `value` with `min` to `max` decimals, as Intl.NumberFormat(lang(), {minimumFractionDigits:
 * min, maximumFractionDigits: max}) writes it ("12 345,68", "12,345.68"): rounded half away
 * from zero on its decimal digits. `percent`: value × 100 and the language's "%" (style
 * "percent").
 */
export function formatDecimal(value, { min = 0, max = min, percent = false } = {}) {
  const intl = () => formatNumber(value, { minimumFractionDigits: min, maximumFractionDigits: max, ...(percent ? { style: "percent" } : {}) });
  if (!Number.isFinite(value)) return intl();
  // Shifted on its decimal text, not multiplied: 0.285 × 100 is 28.499999…, which rounds to
  // 28 where Intl writes 29 %; "0.285e2" is 28.5.
  const [mantissa, exponent = "0"] = String(Math.abs(value)).split("e");
  const scaled = Math.round(Number(`${mantissa}e${Number(exponent) + max + (percent ? 2 : 0)}`));
  if (!Number.isSafeInteger(scaled)) return intl();
  const digits = String(scaled).padStart(max + 1, "0");
  const signs = SIGNS[lang()] ?? SIGNS.en;
  const whole = digits.slice(0, digits.length - max).replace(/\B(?=(\d{3})+$)/g, signs.group);
  let fraction = digits.slice(digits.length - max);
  while (fraction.length > min && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  return `${sign}${whole}${fraction ? signs.decimal + fraction : ""}${percent ? signs.percent : ""}`;
}

/** "16,7 %"; tiny non-zero chances read "< 0,1 %", near-certain ones "> 99,9 %". */
export function formatPercent(p) {
  const options = { min: 1, max: 1, percent: true };
  if (p > 0 && p < 0.0005) return `< ${formatDecimal(0.001, options)}`;
  if (p < 1 && p >= 0.9995) return `> ${formatDecimal(0.999, options)}`;
  return formatDecimal(p, options);
}
