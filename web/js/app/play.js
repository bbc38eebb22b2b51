// The screens the roll screen does not show: the characters (with the opposition panel), the
// combat tracker, the session's statistics and the shared table. A chunk of their own, apart
// from main.js: the page's first tasks parse and run only what its first screen shows
// (issue 40). main.js imports this module once the engine is ready (the characters are
// judged by it then), at once when the page opens on one of these screens or with a table's
// invite, when one of their tabs is chosen first, or when a roll asks the table for its seed.
import { CharactersView } from "../characters/view.js";
import { OppositionPanel } from "../characters/opposition.js";
import { CombatView } from "../combat/combat.js";
import { StatsView } from "../gm/stats.js";
import { Table } from "../sharing/table.js";

/**
 * The play screens, made for the play context `ctx` (main.js) in their sections of the page
 * (byId: document.getElementById); `table` is what the shared table needs of the page (its
 * Table's parameters but its screen's elements). Returns {characters, combat, stats, table,
 * loaded}, `loaded` a promise settled once the stored characters are read and judged by the
 * engine.
 */
export function playScreens(ctx, byId, table) {
  const characters = new CharactersView(ctx, byId("view-characters"));
  characters.opposition = new OppositionPanel(ctx, characters);
  const combat = new CombatView(ctx, byId("view-combat"));
  const stats = new StatsView(ctx, byId("view-stats"));
  // The shared table: the roll pipeline's seed source from now on (sharing/table.js).
  const shared = new Table({ ...table, root: byId("view-table"), toasts: byId("table-toasts") });
  // The GM checks sheet rolls with a player's characters: the player's table hears them.
  ctx.store.subscribe(["characters"], () => shared.sheetsChanged());
  return { characters, combat, stats, table: shared, loaded: characters.load() };
}
