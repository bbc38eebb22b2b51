// The « Table » screen (issues 24 and 38): the GM hosts a table, players join it with an
// invite, and every roll of every device lands on every device, checked by its own engine.
//
//   host  invite (QR code + link) -> player's answer (camera or pasted text) -> a player
//   player  opens the invite link -> shows its answer (QR code + text) -> at the table
//
// The roll screens know nothing of it: through the roll pipeline (widgets/pipeline.js) the
// table is the seed source of every roll (seed(), refused()), hears each roll once it has
// landed (observe()), and shows the other devices' rolls in the history (pipeline.show). Test
// hooks, read only: window.pyrules.table.{peers, log, mine}; faults planted with
// window.pyrules.debug.{tamperNextTableRoll, tamperNextRelay, tableSend, tableCut,
// tableLimits} (docs/table.md).

import { storageGet, storageSet } from "../lib/dom.js";
import { pageStore } from "../lib/page-store.js";
import { cleanColour } from "../lib/dice-colours.js";
import { prefs } from "../ui/dice-settings.js";
import { onLangChange, t } from "../lib/i18n.js";
import { pipelineEntry } from "../widgets/pipeline.js";
import { headlineText } from "../stage/headline.js";
import { inviteLink, inviteOffer } from "../lib/table-protocol.js";
import { outcomeOf, physicalOf } from "../lib/table-verify.js";
import { TableHost } from "./host.js";
import { LIMITS } from "./peer.js";
import { HOST_KEY, hostState, readHostState } from "./host-store.js";
import { TablePlayer } from "./player.js";
import { QrReader } from "./reader.js";
import { TableScreen } from "./screen.js";
import { ERROR_KEYS } from "./strings.js";

const ROLL_OPS = new Set(["roll", "oppose", "combat"]);
const MAX_LOG = 500;
const PREFS_KEY = "pyrules:table-prefs"; // {showRolls}: the others' rolls played on this device's stage

export class Table {
  /**
   * call(request): the engine (every device replays the table's rolls with it); pipeline: the
   * roll pipeline (widgets/pipeline.js): the table is its seed source and hears every roll;
   * takeSeed(): the page's own seed (window.pyrules.nextSeed, else fresh), used away from a
   * table; showView(name); root: the screen's element; toasts: where a roll of another
   * device is announced, whatever screen is open; hooks: window.pyrules (install());
   * systems(): the engine's description of the systems (outcome labels), or null; sheets():
   * this device's characters (a player shows them to the GM, who checks sheet rolls with them).
   */
  constructor({ call, pipeline, takeSeed, showView, root, toasts = null, hooks, systems = () => null, sheets = () => [] }) {
    this.call = call;
    this.systems = systems;
    this.sheets = sheets;
    this.showView = showView;
    this.pipeline = pipeline;
    pipeline.setSeedSource((request) => this.seed(request, takeSeed), { refused: (request) => this.player?.refused(request) });
    pipeline.onRolled(({ request, answer, opts }) => {
      // A peer's roll shown here, or a replay, is not a new roll of this device; a new
      // placement of a roll's Flame dice goes to the table like any roll.
      if (opts?.source === "table" || (opts?.record === false && !opts?.placement)) return;
      this.observe(request, answer, { placed: Boolean(opts?.placement) }).catch((error) => console.error(error));
    });
    this.storage = { read: (key) => storageGet(key, null), write: (key, value) => storageSet(key, value) };
    const kept = this.storage.read(PREFS_KEY);
    this.showRolls = kept && typeof kept === "object" && typeof kept.showRolls === "boolean" ? kept.showRolls : null; // null: the device's default
    this.host = null;
    this.player = null;
    this.received = []; // rolls of other devices, oldest first (log())
    this.mine = []; // this device's own rolls as the table got them
    this.issued = new Map(); // seed -> "own" | "offline": seeds this device handed out
    this.hidden = false;
    this.busy = false; // an invite is being made
    this.failed = null; // the last join that did not complete: {error} until the next invite or join
    this.screen = new TableScreen(root, this, toasts);
    pageStore.subscribe(["table"], () => this.screen.draw()); // the table as the store has it
    this.reader = new QrReader(loadDecoder);
    this.offer = inviteOffer(location.hash);
    addEventListener("hashchange", () => this.opened());
    if (this.offer) queueMicrotask(() => this.opened());
    onLangChange(() => this.screen.redraw());
    this.install(hooks);
    // The GM's page reloaded with a table: it comes back, every player gone until re-invited.
    const host = readHostState(this.storage.read(HOST_KEY));
    if (host) {
      this.received = host.received;
      this.mine = host.mine;
      this.hidden = host.hidden;
      this.makeHost(host.roster);
      this.screen.notice(t("table.restored", { n: this.host.players.size }));
    } else {
      // A player's page reloaded at a table: it is told so, and what it rolls is kept for the GM.
      const player = this.makePlayer();
      if (player.place) {
        this.player = player;
        this.screen.notice(t("table.away", { host: player.host ?? t("table.gm") }));
      }
    }
    this.changed();
  }

  /** Whether the other devices' rolls play on this device's stage (on by default on the GM's). */
  get playRolls() {
    return this.showRolls ?? Boolean(this.host);
  }

  setPlayRolls(on) {
    this.showRolls = Boolean(on);
    this.storage.write(PREFS_KEY, { showRolls: this.showRolls });
  }

  /** The screen is shown (its tab, a reload on it, an invite link): drawn as things are now. */
  shown() {
    this.screen.draw();
  }

  /** A page opened from an invite link (or the link pasted into this tab): show « Rejoindre ». */
  opened() {
    const offer = inviteOffer(location.hash);
    if (!offer) return;
    this.offer = offer;
    this.screen.answer = null; // a new invite: the previous answer is void
    window.history.replaceState(null, "", location.pathname + location.search);
    this.showView("table");
    this.screen.draw();
  }

  // ----------------------------------------------------------------- roles

  /** This device hosts a table: a new one, or the one a reload kept (roster). */
  makeHost(roster = null) {
    this.host = new TableHost({
      call: this.call,
      name: t("table.gm"),
      colour: () => prefs.colour,
      roster,
      onChange: () => {
        this.save();
        this.changed();
      },
      onRoll: (entry) => this.arrived(entry),
      onNotice: (info) => {
        const text = { junk: () => t("table.junk", info), abandoned: () => t("table.abandoned", info), sheets: () => t("table.sheetsChanged", info) }[info.kind];
        this.screen.notice(text ? text() : info.error);
        this.screen.noticeLine.dataset.junk = String(this.host.junk); // messages set aside so far
      },
    });
  }

  /** This device's side as a player (its place at a table, if storage kept one). */
  makePlayer() {
    return new TablePlayer({
      storage: this.storage,
      call: this.call,
      colour: () => cleanColour(prefs.colour),
      sheets: this.sheets,
      onChange: () => this.changed(),
      onRoll: (entry) => this.arrived(entry),
      onNotice: (info) => {
        if (info.kind === "timeout") this.screen.notice(t("table.error.join-timeout"));
        else if (info.kind === "closed") this.screen.notice(t("table.closedByGm"));
        else this.screen.notice(t("table.junk", { from: info.from, error: info.error }));
        if (info.kind !== "junk") this.screen.toast({ text: this.screen.noticeLine.textContent });
      },
    });
  }

  /**
   * The table changed (players, their links, rolls): the page store's `table` slice is
   * written again ({role, players, rolls}, a new object each time), and its subscribers, this
   * screen first, hear it.
   */
  changed() {
    pageStore.set({ table: { role: this.host ? "gm" : this.player ? "player" : null, players: this.peers(), rolls: this.received.length + this.mine.length } });
  }

  /** This device's characters changed: the GM gets them (a player at a table). */
  sheetsChanged() {
    this.player?.shareSheets();
  }

  /** What the GM's device keeps of its table (host-store.js), after every change. */
  save() {
    if (this.host) this.storage.write(HOST_KEY, hostState({ roster: this.host.roster(), received: this.received, mine: this.mine, hidden: this.hidden }));
  }

  /** « Révéler »: the GM's hidden roll h is shown to the players, who check it then. */
  reveal(h) {
    if (!this.host?.gmRolls.reveal(h)) return false;
    const mine = this.mine.find((e) => e.hidden && e.h === h);
    if (mine) Object.assign(mine, { hidden: false, revealed: true });
    this.save();
    this.changed();
    return true;
  }

  setHidden(hidden) {
    this.hidden = hidden;
    this.save();
  }

  /** « Fermer la table »: every player told, every link closed, the table forgotten (the history keeps the rolls). */
  closeTable() {
    if (!this.host) return;
    this.host.close();
    this.host = null;
    this.received = [];
    this.mine = [];
    this.storage.write(HOST_KEY, null);
    this.screen.invite = null;
    this.screen.notice(t("table.closed"));
    this.screen.redraw();
  }

  /** « Héberger : nouvelle invitation »: the previous unused invite is withdrawn. */
  async startHost() {
    canTable();
    if (this.busy) return { error: "busy" };
    if (!this.host) this.makeHost();
    this.busy = true;
    this.failed = null;
    this.screen.invite = null;
    this.screen.draw();
    try {
      const made = await this.host.invite((text) => inviteLink(location.href, text));
      if (made.error) {
        if (made.message) this.screen.notice(made.message); // the engine's words: the table is full
        return { error: made.error, message: made.message };
      }
      this.screen.showInvite(made.link, made.qr, made.number);
      return { link: made.link };
    } finally {
      this.busy = false;
      this.screen.draw();
    }
  }

  async accept(text) {
    if (!this.host) return { ok: false, error: "no-invite" };
    this.failed = null;
    const result = await this.host.accept(text);
    if (!result.ok) {
      this.screen.notice(result.message ?? t(ERROR_KEYS[result.error] ?? "table.error.bad-answer"));
      if (result.error === "timeout" || result.error === "unreachable") this.failed = { error: result.error };
    } else this.screen.notice(t("table.joined", { name: this.host.players.get(result.id)?.name ?? result.id }));
    this.screen.draw();
    return result.ok ? { ok: true } : { ok: false, error: result.error, ...(result.message ? { message: result.message } : {}) };
  }

  async answer(name = this.screen.name()) {
    if (!this.offer) throw new Error("bad-invite");
    canTable();
    this.player ??= this.makePlayer();
    const text = await this.player.answer(this.offer, { name: name || t("table.defaultName"), colour: cleanColour(prefs.colour) });
    this.offer = null; // single use
    this.screen.showAnswer(text);
    return text;
  }

  peers() {
    if (this.host) return this.host.peers().map(({ id, name, colour, connected }) => ({ id, name, colour, connected }));
    return this.player ? this.player.peers() : [];
  }

  log() {
    return this.received.map(({ from, name, colour, system, seed, outcome, headline, verified, status, hidden, revealed, placed, diff }) => ({ from, name, colour, system, seed, outcome, headline, verified, status, hidden, revealed, placed, diff }));
  }

  // ----------------------------------------------------------------- rolls

  /**
   * The seed of this device's roll of `request`. At a table it comes from the fair exchange
   * (a player's: its commitment, then the host's value; the GM's: its commitment, then a
   * player's value), whatever the page was asked to use (window.pyrules.nextSeed is dropped);
   * elsewhere, or when the exchange cannot be made, fallback() decides (the page's seed source).
   */
  async seed(request, fallback) {
    const own = fallback();
    const table = this.player ? await this.player.seedFor(request) : this.host ? await this.host.gmRolls.seed(request) : null;
    if (table !== null) return table;
    if (own !== null && own !== undefined && (this.host || this.player)) {
      this.issued.set(own, this.host ? "own" : "offline");
      if (this.issued.size > 64) this.issued.delete(this.issued.keys().next().value); // taken, never rolled
    }
    return own;
  }

  /** A roll this device made, once answered: to the table (or kept), exactly once. */
  async observe(request, answer, { hidden = this.hidden, placed = false } = {}) {
    if (!request || !ROLL_OPS.has(request.op) || !answer?.ok) return;
    const physical = physicalOf(answer);
    const mine = this.issued.get(request.seed) || this.host?.gmRolls.has(request.seed);
    const table = this.player?.issued.has(request.seed);
    if (!mine && !table && !physical && !placed) return; // a replay: not a new roll
    this.issued.delete(request.seed);
    const entry = { from: "me", colour: cleanColour(prefs.colour), time: new Date().toISOString(), system: request.system, seed: answer.result?.seed ?? request.seed ?? null, outcome: outcomeOf(answer), headline: headlineText(answer.result), hidden, placed };
    if (this.host) {
      const { proof, h } = this.host.gmRolls.share({ request, answer, hidden, placed });
      entry.status = physical ? "physical" : proof ? "yes" : "host";
      if (hidden) entry.h = h; // to be revealed from the Table screen
    } else if (this.player) {
      entry.status = await this.player.rolled({ request, answer, placed });
      if (entry.status === "none") return;
    } else return;
    this.mine = [...this.mine, entry].slice(-MAX_LOG);
    this.save();
    this.changed();
  }

  /**
   * A roll of another device, checked: in the log, announced (a toast, whatever screen is
   * open), in this device's history, and played on its stage when that setting is on.
   */
  arrived(entry) {
    // This device's own answer to the roll, when its check replayed it: not kept in the log.
    const own = entry.own?.ok ? entry.own.result : null;
    delete entry.own;
    const shown = !entry.hidden && entry.request && entry.answer?.ok;
    entry.headline = shown ? headlineText(entry.answer.result) : "";
    // A GM's hidden roll, revealed: it takes the place of « jet caché ».
    const kept = entry.revealed ? this.received.filter((e) => !(e.from === entry.from && e.hidden && e.h === entry.h)) : this.received;
    this.received = [...kept, entry].slice(-MAX_LOG);
    if (shown) {
      const who = { id: entry.from, name: entry.name };
      // What the history shows of it: who (in its dice colour), the verdict and what differed.
      // Not the sender's words for the params: this device's own answer's, else its engine
      // words them once drawn (history.js).
      const table = { from: entry.from, status: entry.status, ...(entry.colour ? { colour: entry.colour } : {}), ...(entry.diff?.length ? { diff: entry.diff } : {}) };
      const words = { brief: own?.brief, actorBrief: own?.actor?.brief, opponentBrief: own?.opponent?.brief };
      this.pipeline
        .show(entry.answer, who, { request: entry.request, hidden: !this.playRolls, colour: entry.colour, source: "table", origin: "table", entry: (request, answer) => ({ ...pipelineEntry(request, answer.result, who), ...words, table }) })
        .catch((error) => console.error(error));
    }
    this.screen.toast(this.screen.rollToast(entry));
    this.save();
    this.changed();
  }

  // ----------------------------------------------------------------- hooks

  install(hooks) {
    // Read only: the tests host, join, accept and close through the screens (issue 42).
    hooks.table = {
      peers: () => this.peers(),
      log: () => this.log(),
      mine: () => this.mine.map(({ system, seed, outcome, headline, status, hidden }) => ({ system, seed, outcome, headline, status, hidden })),
    };
    Object.assign(hooks.debug, {
      tamperNextTableRoll: () => {
        if (this.player) this.player.tamper = true;
      },
      tamperNextRelay: () => {
        if (this.host) this.host.tamperRelay = true;
      },
      tableSend: (text) => (this.host ? this.host.sendRaw(text) : this.player?.sendRaw(text)),
      tableCut: () => this.player?.peer?.close(), // the link breaks, as when the Wi-Fi drops
      tableLimits: ({ gather, connect, join } = {}) => {
        const before = { ...LIMITS }; // returned, to be given back
        Object.assign(LIMITS, gather > 0 && { gather }, connect > 0 && { connect }, join > 0 && { join });
        return before;
      },
    });
  }
}

/**
 * Whether this page can sit at a table: WebRTC, and the hash of the fair-dice exchange
 * (crypto.subtle, which browsers give to secure pages only: https, or localhost). Throws the
 * error the screen names ("webrtc", "insecure") instead of failing half-way.
 */
function canTable() {
  if (typeof RTCPeerConnection !== "function") throw new Error("webrtc");
  if (!globalThis.isSecureContext || !globalThis.crypto?.subtle) throw new Error("insecure");
}

/**
 * The vendored QR decoder (jsQR, from npm: dist/vendor/), loaded at the first scan on a
 * browser without BarcodeDetector. Its UMD wrapper sets self.jsQR when imported.
 */
async function loadDecoder() {
  await import("../../vendor/jsQR.js");
  const jsQR = self.jsQR;
  return typeof jsQR === "function" ? (image) => jsQR(image.data, image.width, image.height)?.data ?? null : null;
}
