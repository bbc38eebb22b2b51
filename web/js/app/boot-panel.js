// The boot panel: the engine's start, step by step, with a progress bar, and what failed.
// The engine's events are turned into calls by boot.js; this module only draws.

import { setProgress } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { formatDecimal } from "../lib/numbers.js";
import "../ui/strings.js";

export const BOOT_STEPS = ["runtime", "python", "micropip", "pyrules", "ready"];
// Share of the progress bar reached when each step starts.
export const BOOT_AT = { worker: 0, version: 2, runtime: 4, python: 66, micropip: 74, pyrules: 82, systems: 96, ready: 100 };

/**
 * The bar's share after a progress event: never backwards, except when the worker starts
 * again ("worker" resets it); the runtime's download moves it between its two marks.
 */
export function bootPercent(previous, { step, loaded = 0, total = 0 }) {
  let percent = BOOT_AT[step] ?? previous;
  if (step === "runtime" && total > 0) {
    percent = BOOT_AT.runtime + ((BOOT_AT.python - BOOT_AT.runtime) * Math.min(loaded, total)) / total;
  }
  return step === "worker" ? 0 : Math.max(previous, percent);
}

/** The state of the listed step `item` ("done", "active", "pending") while `step` runs. */
export function stepState(step, item) {
  const active = step === "worker" || step === "version" ? "runtime" : step === "systems" ? "pyrules" : step;
  const activeIndex = BOOT_STEPS.indexOf(active);
  const index = BOOT_STEPS.indexOf(item);
  return index < activeIndex || step === "ready" ? "done" : index === activeIndex ? "active" : "pending";
}

export class BootPanel {
  /** byId: document.getElementById (the panel's elements are found by id when drawn). */
  constructor(byId) {
    this.$ = byId;
    this.percent = 0;
  }

  /** The next boot starts from an empty bar (Retry). */
  reset() {
    this.percent = 0;
  }

  progress({ step, loaded = 0, total = 0 }) {
    const $ = this.$;
    $("boot").dataset.state = step === "ready" ? "ready" : "booting";
    $("boot-error").hidden = true;
    this.percent = bootPercent(this.percent, { step, loaded, total });
    const percent = this.percent;
    $("boot-bar").setAttribute("aria-valuenow", String(Math.round(percent)));
    setProgress($("boot-fill"), percent / 100);
    for (const item of $("boot-steps").children) item.dataset.state = stepState(step, item.dataset.step);
    let text = `${t(`boot.step.${step}`)}…`;
    if (step === "runtime" && total > 0) {
      const mb = (n) => formatDecimal(n / 1e6, { min: 1, max: 1 }); // no Intl while starting (lib/numbers.js)
      text += ` ${t("boot.megabytes", { loaded: mb(loaded), total: mb(total) })}`;
    }
    $("boot-text").textContent = step === "ready" ? t("boot.ready") : text;
    $("boot-text").dataset.step = step;
    $("engine-status").dataset.state = step === "ready" ? "ready" : "booting";
    // The header's words stay the same while booting (the panel's bar tells how far): a
    // percentage there changed the header's width at every message, each a layout shift.
    const status = step === "ready" ? t("boot.ready") : t("boot.loadingHint");
    if ($("engine-status-text").textContent !== status) $("engine-status-text").textContent = status;
  }

  error(step, message) {
    const $ = this.$;
    const panel = $("boot");
    panel.dataset.state = "error";
    panel.dataset.failedStep = step;
    $("boot-error").hidden = false;
    $("boot-error-step").textContent = t("boot.failedStep", { step: t(`boot.step.${step}`) });
    $("boot-error-message").textContent = message;
    $("engine-status").dataset.state = "error";
    $("engine-status-text").textContent = t("boot.failed");
    for (const item of $("boot-steps").children) {
      if (item.dataset.state === "active") item.dataset.state = "failed";
    }
  }
}
