// One line of the history as the player reads it: when, which system, who, what was
// asked, the dice, the verdict, the chance of success it had and how lucky it was, and
// three actions: roll again with the same settings, show this roll again, share it.
//
// Two figures, two words: "chance de réussite" is what the engine's odds gave the roll
// before it was thrown; "rang de chance" (luck rank) is where its result falls among all
// the results it could have had (stats.js), 50 % being an average roll.

import { h } from "../lib/dom.js";
import { formatSigned, formatTime, pick, t } from "../lib/i18n.js";
import { formatPercent } from "../lib/numbers.js";
import { entryHeadline } from "../widgets/entry.js";
import { diceDot } from "../widgets/dice-dot.js";
import { tierBadge } from "../widgets/result.js"; // also adds "result.gap"
import "./strings.js";
import "../ui/strings.js";

const isFaces = (list) => Array.isArray(list) && list.length > 0 && list.length <= 80 && list.every(Number.isInteger);

/** "3 · 5 · 6", or "4 / 2" for the two sides of an opposition; "" when the entry has none. */
function facesLine(entry) {
  if (entry.mode === "oppose") {
    if (!isFaces(entry.actorFaces) || !isFaces(entry.opponentFaces)) return "";
    return `${entry.actorFaces.join(" · ")} ${t("history.vs")} ${entry.opponentFaces.join(" · ")}`;
  }
  return isFaces(entry.faces) ? entry.faces.join(" · ") : "";
}

/** The history's filters: every roll, this device's own, the shared table's (other devices'). */
export const FILTERS = ["all", "mine", "table"];
export const FILTER_KEY = "pyrules:history-filter";

/** A roll of another device at a shared table: its entry carries `table` {from, status, …}. */
const fromTable = (entry) => entry.table !== null && typeof entry.table === "object" && !Array.isArray(entry.table);

/** Whether the filter `name` shows `entry`. */
export function passes(entry, name) {
  if (name === "mine") return !fromTable(entry);
  if (name === "table") return fromTable(entry);
  return true;
}

/** The verdicts a table roll can carry, and their mark (« vérifié », …). */
const STATUSES = ["yes", "no", "offline", "physical", "host"];

/**
 * Who rolled at the table, in that player's dice colour, and the verdict of the GM's engine:
 * « vérifié », « non vérifié » (red, with what differed), « hors table », « dés physiques »,
 * « MJ » (the GM's own roll, which the players' devices show unchecked). Everything in it
 * came from another device: text only, each part checked (lib/checks.js checked its shape).
 */
function tableMarks(entry) {
  const table = entry.table;
  const status = STATUSES.includes(table.status) ? table.status : "no";
  const name = typeof entry.who?.name === "string" ? entry.who.name : "?";
  const diff = status === "no" && Array.isArray(table.diff) ? table.diff.filter((d) => typeof d === "string").slice(0, 8) : [];
  return {
    who: h("span", { class: "history-who history-who--table", "data-colour": typeof table.colour === "string" ? table.colour : "" }, diceDot(table.colour, "history-dot"), name),
    verdict: h("span", { class: ["history-verdict", `history-verdict--${status}`], "data-status": status, text: t("history.quoted", { text: t(`history.status.${status}`) }) }),
    diff: diff.length ? h("ul", { class: "history-diff", "aria-label": t("history.diff") }, diff.map((d) => h("li", { text: d }))) : null,
  };
}

const percent = (p) => (typeof p === "number" && p >= 0 && p <= 1 ? p : null);

/** The list item of one entry; `history` gives its summary and outcome label. */
export function renderHistoryEntry(history, entry, { onAgain, onReview, onShare }) {
  const system = history.system(entry.system);
  const time = formatTime(entry.time);
  const button = (cls, text, label, action, disabled) => {
    const node = h("button", { type: "button", class: ["button", "button--small", cls], "aria-label": label, title: label, text });
    node.disabled = disabled;
    node.addEventListener("click", () => action(entry, node));
    return node;
  };
  // A combat action is replayed by the combat tracker, not from here (Ardeur, turn order).
  const combat = typeof entry.combat === "string" ? entry.combat : null;
  const again = button("history-again", t("history.again"), t("history.againLabel", { time }), onAgain, !system);
  again.hidden = Boolean(combat);
  const review = button("history-replay", t("history.review"), t("history.reviewLabel", { time }), onReview, !system);
  const share = button("history-share", t("share.button"), t("share.label", { time }), (e, node) => onShare?.(e, node), !system || !onShare);
  // A free-dice sum (entry.kind, docs/api.md) has no tier: its badge is its total, plain.
  const head = entryHeadline(entry);
  const sum = head?.kind === "sum" || (entry.mode !== "oppose" && (entry.outcome === null || entry.outcome === undefined));
  const plain = entry.mode === "oppose" || !system || sum;
  const badge = plain ? h("span", { class: ["tier-badge", "tier-badge--plain"], text: history.outcomeLabel(entry) }) : tierBadge(system, entry.outcome);
  // An opposition is judged by its gap ("Écart", as on its result card), a roll by its margin;
  // free dice by their headline (a count: its successes; a sum: the badge says the total).
  const meta = [];
  if (entry.mode === "oppose") meta.push(h("span", { text: `${t("result.gap")} ${entry.margin}` }));
  else if (head?.kind === "count") meta.push(h("span", { class: "history-headline", text: `${t("result.successes")} ${head.value}` }));
  else if (!head && typeof entry.margin === "number") meta.push(h("span", { text: `${t("result.margin")} ${formatSigned(entry.margin)}` }));
  const successKey = entry.kind === "count" ? "history.atLeastOneShort" : "history.successShort";
  meta.push(h("span", { text: entry.seed !== null && entry.seed !== undefined ? `${t("result.seed")} ${entry.seed}` : t("result.physical") }));
  const success = entry.mode === "oppose" ? null : percent(entry.success);
  if (success !== null) meta.push(h("span", { class: "history-success", title: t("history.successTitle"), text: t(successKey, { percent: formatPercent(success) }) }));
  const luck = entry.mode === "oppose" ? null : percent(entry.luck);
  if (luck !== null) meta.push(h("span", { class: "history-luck", title: t("history.luckTitle"), text: t("stats.luckShort", { percent: Math.round(luck * 100) }) }));
  const marks = fromTable(entry) ? tableMarks(entry) : null;
  const who = entry.mode === "oppose" ? "" : entry.who?.name || "";
  const faces = facesLine(entry);
  const kind = combat ? t("history.combat", { kind: t(`history.kind.${combat}`) }) : "";
  const metaLine = h("p", { class: "history-meta" });
  meta.forEach((part, i) => metaLine.append(...(i ? [" · ", part] : [part])));
  return h(
    "li",
    {
      class: ["history-entry", `history-entry--${entry.mode}`],
      dataset: { id: entry.id, system: entry.system, outcome: entry.outcome, seed: entry.seed ?? "", who, luck: luck !== null ? String(luck) : "", combat: combat || "", from: marks ? String(entry.table.from ?? "") : "" },
    },
    h(
      "div",
      { class: "history-main" },
      h(
        "p",
        { class: "history-top" },
        h("time", { datetime: entry.time, text: time }),
        h("span", { class: "history-system", text: system ? pick(system.name) : entry.system }),
        kind ? h("span", { class: "history-kind", text: kind }) : null,
        marks ? marks.who : who ? h("span", { class: "history-who", text: who }) : null,
        marks ? marks.verdict : null,
      ),
      h("p", { class: "history-summary", text: history.summary(entry, { withName: !who && entry.mode !== "oppose" }) }),
      faces ? h("p", { class: "history-faces", text: t("history.faces", { faces }) }) : null,
      marks?.diff ?? null,
    ),
    h("div", { class: "history-outcome" }, badge, metaLine),
    h("div", { class: "history-buttons" }, again, review, share),
  );
}
