import assert from "node:assert/strict";
import { test } from "node:test";

import { setLang } from "../../web/js/lib/i18n.js";
import { formatDecimal } from "../../web/js/lib/numbers.js";

globalThis.document ??= { documentElement: {}, querySelectorAll: () => [], title: "" };

// Values a page writes: chances (fractions of small denominators, their halves on the edge of
// a rounding), means, megabytes, and anything else of the same ranges, both signs.
function values() {
  const out = [0, -0, 1, 0.5, 0.1665, 0.285, 0.0005, 0.00049, 0.9995, 0.99949, 1.005, 2.675, 12345.678, 999.95, 1e-7, 123456789.5, -3.5, -0.004];
  for (let den = 1; den <= 216; den += 1) for (let num = 0; num <= den; num += 1) out.push(num / den);
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < 3000; i += 1) out.push((random() - 0.3) * 10 ** Math.floor(random() * 9 - 2));
  for (let i = 0; i < 500; i += 1) out.push(Math.round(random() * 2e6) / 2000); // halves on the third decimal
  return out;
}

const CASES = [
  { min: 1, max: 1, percent: true }, // the odds' chances
  { min: 0, max: 0, percent: true },
  { min: 0, max: 2 }, // a mean
  { min: 1, max: 1 }, // megabytes
  { min: 0, max: 0 },
  { min: 2, max: 3 },
];

for (const language of ["fr", "en"]) {
  test(`formatDecimal writes what Intl.NumberFormat writes (${language})`, () => {
    setLang(language);
    try {
      for (const { min, max, percent } of CASES) {
        const intl = new Intl.NumberFormat(language, { minimumFractionDigits: min, maximumFractionDigits: max, ...(percent ? { style: "percent" } : {}) });
        for (const value of values()) {
          assert.equal(formatDecimal(value, { min, max, percent }), intl.format(value), `${value} ${JSON.stringify({ min, max, percent })}`);
        }
      }
    } finally {
      setLang("fr");
    }
  });
}

test("formatDecimal: the signs a French and an English reader expect", () => {
  setLang("fr");
  assert.equal(formatDecimal(0.1665, { min: 1, max: 1, percent: true }), "16,7\u00a0%");
  assert.equal(formatDecimal(12345.678, { max: 2 }), "12\u202f345,68");
  assert.equal(formatDecimal(3, { max: 2 }), "3");
  setLang("en");
  assert.equal(formatDecimal(0.1665, { min: 1, max: 1, percent: true }), "16.7%");
  assert.equal(formatDecimal(12345.678, { max: 2 }), "12,345.68");
  assert.equal(formatDecimal(Infinity, { max: 2 }), "∞");
  setLang("fr");
});
