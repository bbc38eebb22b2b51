// The page's one store (issue 42): one createStore (store.js) for the whole page, so that a
// module of any layer writes its slice through it and any other subscribes to it, with no
// import between screens. Its slices, each written by one owner:
//   lang                          lib/i18n.js (the interface language)
//   dice                          ui/dice-settings.js (the dice settings)
//   history                       history/history.js (every roll kept, newest first)
//   characters                    characters/view.js (the stored characters, sorted)
//   fight                         combat/combat.js (the fight)
//   table                         sharing/table.js (the shared table: role, players, rolls)
//   system, mode, physical, values, ui, systems, play, digest, engineReady, booted,
//   safeStarted, forms, current, rolling, formError      roll/state.js (the roll screen)
// main.js creates nothing else: it wires the owners to this store.

import { createStore } from "./store.js";

export const pageStore = createStore();
