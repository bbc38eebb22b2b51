// "Dés équitables ?" / "Fair dice?" — on the Statistics screen: roll the engine's own dice
// many times with the settings of the roll form, and compare what came out with the exact
// odds (engine op `fairness`: counts, expected counts, chi-square statistic, degrees of
// freedom, p-value).
//
// The rolls are asked in chunks of at most 5 000 (a tenth of the total, at least 500), each
// with the counts so far (`previous`) and a fresh seed of 53 bits from
// crypto.getRandomValues, so the progress bar moves and Cancel is quick: cancelling drops
// the answer of the chunk under way (the worker cannot be interrupted mid-chunk; see
// docs/reliability.md). Every seed is also kept in data-seeds, for the tests.

import { h, setProgress } from "../lib/dom.js";
import { Briefs } from "../widgets/briefs.js";
import { randomSeed } from "../lib/ids.js";
import { formatNumber, lang, onLangChange, pick, t } from "../lib/i18n.js";
import { outcomeInfo, paint } from "../widgets/outcomes.js";
import "./strings.js";

export const SIZES = [1000, 10000, 50000];
const CHUNK_MIN = 500;
const THRESHOLD = 0.01;
// A chunk of 5 000 rolls with the largest settings takes about a second; slow tablets more.
const CHUNK_TIMEOUT_MS = 60000;


/** Rolls per `fairness` call: a tenth of the run, within the engine's cap (`limits.fairness_n`). */
export function chunkSize(total, max) {
  return Math.min(max ?? CHUNK_MIN, Math.max(CHUNK_MIN, Math.ceil(total / 10)));
}

function formatP(p) {
  if (p > 0 && p < 0.001) return `< ${formatNumber(0.001)}`;
  return formatNumber(p, { maximumSignificantDigits: 3 });
}

/** "ok" | "unusual" | "impossible" | "few" for a `fairness` answer. */
export function verdictOf(result) {
  const impossible = Object.entries(result.counts).some(([id, n]) => n > 0 && result.exact[id] === "0");
  if (impossible || result.chi_square === null) return "impossible";
  if (result.dof === 0) return "few";
  return result.p_value >= THRESHOLD ? "ok" : "unusual";
}

export class FairnessPanel {
  /**
   * @param {object} ctx  app context: engine, announce(text), formParams() ->
   *                      {system, params} | {error}
   */
  constructor(ctx) {
    this.ctx = ctx;
    this.total = 10000;
    this.run = null; // {total, done, seeds} while a test runs
    this.result = null; // {system, params, answer}
    this.message = null; // {key, vars, kind}
    this.element = h("section", { class: ["panel", "fair-panel"], id: "fairness", "aria-labelledby": "fair-title" });
    // Drawn when the Statistics screen is (StatsView.render), not while the page starts.
    onLangChange(() => {
      if (this.element.isConnected) this.render();
    });
    // What the test rolls, in the engine's words: asked once per form, then the line is drawn again.
    this.briefs = new Briefs((request) => ctx.engine.call(request));
    this.briefs.onChange(() => {
      const line = this.element.querySelector("#fair-setup");
      const setup = this.setup();
      if (line && !setup.error) line.textContent = setup.text;
    });
  }

  setup() {
    const setup = this.ctx.formParams();
    if (setup.error) return setup;
    const summary = this.briefs.text({ system: setup.system.id, params: setup.params });
    const text = summary ? t("fair.setup", { system: pick(setup.system.name), summary }) : t("fair.setupPlain", { system: pick(setup.system.name) });
    return { ...setup, text };
  }

  render() {
    const focused = this.element.contains(document.activeElement) ? document.activeElement.id : null;
    const setup = this.setup();
    const running = Boolean(this.run);
    const sizes = h("fieldset", { class: ["segmented", "fair-sizes"] }, h("legend", { class: "field-label", text: t("fair.count") }));
    const row = h("div", { class: "segmented-options" });
    for (const size of SIZES) {
      const id = `fair-n-${size}`;
      const radio = h("input", { type: "radio", name: "fair-n", id, value: size, class: "visually-hidden" });
      radio.checked = size === this.total;
      radio.disabled = running;
      radio.addEventListener("change", () => {
        if (radio.checked) this.total = size;
      });
      row.append(radio, h("label", { for: id, text: formatNumber(size) }));
    }
    sizes.append(row);
    const start = h("button", { type: "button", class: ["button", "button--primary"], id: "fair-start", text: t(this.result ? "fair.again" : "fair.start") });
    start.disabled = running || Boolean(setup.error);
    start.addEventListener("click", () => this.start());
    const cancel = h("button", { type: "button", class: "button", id: "fair-cancel", text: t("fair.cancel") });
    cancel.hidden = !running;
    cancel.addEventListener("click", () => this.cancel());
    const done = this.run ? this.run.done : 0;
    const total = this.run ? this.run.total : this.total;
    const bar = h("div", {
      class: "progress fair-progress",
      id: "fair-progress",
      role: "progressbar",
      "aria-label": t("fair.progressLabel"),
      "aria-valuemin": 0,
      "aria-valuemax": total,
      "aria-valuenow": done,
      "aria-valuetext": t("fair.progress", { done: formatNumber(done), total: formatNumber(total) }),
      hidden: !running,
    });
    const fill = h("span", { class: "progress-fill" });
    setProgress(fill, total ? done / total : 0);
    bar.append(fill);
    this.status = h("p", { class: "fair-status", id: "fair-status", role: "status" });
    if (running) this.status.textContent = t("fair.progress", { done: formatNumber(done), total: formatNumber(total) });
    else if (this.message) {
      this.status.textContent = t(this.message.key, this.message.vars);
      this.status.dataset.kind = this.message.kind;
    }
    this.element.replaceChildren(
      h("h2", { class: "panel-title", id: "fair-title", tabindex: "-1", text: t("fair.title") }),
      h("p", { class: "panel-hint", text: t("fair.intro") }),
      h("p", { class: ["fair-setup", setup.error ? "is-error" : ""], id: "fair-setup", text: setup.error || setup.text }),
      sizes,
      h("div", { class: "fair-actions" }, start, cancel),
      bar,
      this.status,
      this.renderResult(),
    );
    if (focused) document.getElementById(focused)?.focus();
  }

  renderResult() {
    const box = h("div", { class: "fair-result", id: "fair-result" });
    if (!this.result) return box;
    const { system, answer, seeds } = this.result;
    const verdict = verdictOf(answer);
    Object.assign(box.dataset, { total: answer.total, chi: answer.chi_square ?? "", dof: answer.dof, p: answer.p_value, verdict, seeds: seeds.join(",") });
    const top = Math.max(1, ...system.outcomes.map((o) => Math.max(answer.counts[o.id] || 0, answer.expected[o.id] || 0)));
    const rows = system.outcomes.map((outcome) => {
      const info = outcomeInfo(system, outcome.id);
      const observed = answer.counts[outcome.id] || 0;
      const expected = answer.expected[outcome.id] || 0;
      const obsBar = h("span", { class: "fair-bar fair-bar--observed" });
      obsBar.style.width = `${((100 * observed) / top).toFixed(2)}%`;
      const expBar = h("span", { class: "fair-bar fair-bar--expected" });
      expBar.style.width = `${((100 * expected) / top).toFixed(2)}%`;
      const row = h(
        "li",
        { class: "fair-row", dataset: { observed, expected: expected.toFixed(2) } },
        h("span", { class: "fair-label", text: info.label }),
        h("span", { class: "fair-bars", "aria-hidden": "true" }, h("span", { class: "fair-track" }, obsBar), h("span", { class: "fair-track" }, expBar)),
        h(
          "span",
          { class: "fair-numbers" },
          h("span", { text: t("fair.observed", { n: formatNumber(observed) }) }),
          h("span", { text: t("fair.expected", { n: formatNumber(expected, { maximumFractionDigits: 1 }) }) }),
        ),
      );
      paint(row, info);
      return row;
    });
    const tile = (key, label, value) => h("div", { class: "stat-tile", dataset: { key } }, h("dt", { text: label }), h("dd", { text: value }));
    const p = formatP(answer.p_value);
    box.append(
      h("h3", { class: "sheet-subtitle", id: "fair-result-title", tabindex: "-1", text: t("fair.resultTitle", { n: formatNumber(answer.total) }) }),
      h("p", { class: "fair-legend", "aria-hidden": "true" }, h("span", { class: "fair-key fair-key--observed", text: t("fair.legendObserved") }), h("span", { class: "fair-key fair-key--expected", text: t("fair.legendExpected") })),
      h("ul", { class: "fair-rows", id: "fair-rows" }, rows),
      h(
        "dl",
        { class: "stat-tiles fair-tiles" },
        tile("chi", t("fair.chi"), answer.chi_square === null ? "∞" : formatNumber(answer.chi_square, { maximumFractionDigits: 2 })),
        tile("dof", t("fair.dof"), formatNumber(answer.dof)),
        tile("p", t("fair.p"), p),
      ),
      h("p", { class: ["fair-verdict", `is-${verdict}`], id: "fair-verdict", dataset: { verdict }, text: t(`fair.verdict.${verdict}`, { p }) }),
      h("p", { class: "panel-hint fair-explain", text: t("fair.explain") }),
    );
    return box;
  }

  async start() {
    if (this.run) return;
    const setup = this.setup();
    if (setup.error) {
      this.render();
      return;
    }
    const run = { total: this.total, done: 0, seeds: [] };
    this.run = run;
    this.message = null;
    this.result = null;
    this.render();
    document.getElementById("fair-cancel")?.focus();
    const chunk = chunkSize(run.total, setup.system.limits?.fairness_n);
    let previous = null;
    let answer = null;
    while (run.done < run.total) {
      const n = Math.min(chunk, run.total - run.done);
      const seed = randomSeed();
      run.seeds.push(seed);
      const request = { op: "fairness", system: setup.system.id, params: setup.params, n, seed, lang: lang() };
      if (previous) request.previous = previous;
      answer = await this.ctx.engine.call(request, { timeoutMs: CHUNK_TIMEOUT_MS });
      if (this.run !== run) return; // cancelled: this answer is dropped
      if (!answer.ok) {
        this.finish({ key: "fair.failed", vars: { message: answer.error.message }, kind: "error" });
        return;
      }
      previous = answer.result.counts;
      run.done += n;
      this.progress();
    }
    this.result = { system: setup.system, params: setup.params, answer: answer.result, seeds: run.seeds };
    this.finish(null);
    document.getElementById("fair-result-title")?.focus();
    this.ctx.announce(document.getElementById("fair-verdict")?.textContent || "");
  }

  progress() {
    if (!this.run) return;
    const { done, total } = this.run;
    const bar = document.getElementById("fair-progress");
    const text = t("fair.progress", { done: formatNumber(done), total: formatNumber(total) });
    if (bar) {
      bar.setAttribute("aria-valuenow", String(done));
      bar.setAttribute("aria-valuetext", text);
      setProgress(bar.firstChild, done / total);
    }
    if (this.status) this.status.textContent = text;
  }

  finish(message) {
    this.run = null;
    this.message = message;
    this.render();
  }

  cancel() {
    if (!this.run) return;
    const done = this.run.done;
    this.finish({ key: "fair.cancelled", vars: { done: formatNumber(done) }, kind: "cancelled" });
    document.getElementById("fair-start")?.focus();
  }
}
