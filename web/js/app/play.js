// The play screens the roll screen does not show: the characters (with the opposition panel),
// the combat tracker and the session's statistics. A chunk of their own, apart from main.js:
// the page's first tasks parse and run only what its first screen shows (issue 40). main.js
// imports this module once the engine is ready (the characters are judged by it then), or at
// once when the page opens on one of these screens or a tab of theirs is chosen first.
import { CharactersView } from "../characters/view.js";
import { OppositionPanel } from "../characters/opposition.js";
import { CombatView } from "../combat/combat.js";
import { StatsView } from "../gm/stats.js";

/**
 * The play screens, made for the play context `ctx` (main.js) in their sections of the page
 * (byId: document.getElementById): {characters, combat, stats, loaded}, `loaded` a promise
 * settled once the stored characters are read and judged by the engine.
 */
export function playScreens(ctx, byId) {
  const characters = new CharactersView(ctx, byId("view-characters"));
  characters.opposition = new OppositionPanel(ctx, characters);
  const combat = new CombatView(ctx, byId("view-combat"));
  const stats = new StatsView(ctx, byId("view-stats"));
  return { characters, combat, stats, loaded: characters.load() };
}
