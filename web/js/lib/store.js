// One store for the page's state (issues 21 and 42): modules read it and subscribe to the keys
// they care about, instead of writing one shared object from ten places and calling each
// other back. The page's one store is lib/page-store.js (its slices are listed there).
// Pure: no page, no storage.
//
//   const store = createStore({ mode: "single", engineReady: false })
//   store.get("mode")                  -> the value
//   store.set({ mode: "oppose" })      -> notifies the listeners of the keys whose value changed
//   store.subscribe(["mode"], fn)      -> fn(changedKeys, store) after each change; returns unsubscribe
//   bindKeys(target, store, keys)      -> target.key reads and writes go through the store
//                                         (for the modules that assign `app.key = value`)

/** A store holding `initial` (a plain object of keys); values are compared with Object.is. */
export function createStore(initial = {}) {
  const values = { ...initial };
  const listeners = new Set(); // {keys: Set|null, fn}
  let notifying = 0;
  const store = {
    get(key) {
      return values[key];
    },

    /** Every key and its value (a copy: writing to it changes nothing). */
    snapshot() {
      return { ...values };
    },

    has(key) {
      return Object.hasOwn(values, key);
    },

    /** Change some keys; the listeners of the keys that changed run once, in subscription order. */
    set(patch) {
      const changed = [];
      for (const [key, value] of Object.entries(patch)) {
        if (Object.hasOwn(values, key) && Object.is(values[key], value)) continue;
        values[key] = value;
        changed.push(key);
      }
      if (!changed.length) return changed;
      notifying += 1;
      try {
        for (const listener of [...listeners]) {
          if (!listeners.has(listener)) continue; // unsubscribed by an earlier listener
          if (listener.keys && !changed.some((key) => listener.keys.has(key))) continue;
          try {
            listener.fn(changed, store);
          } catch (error) {
            console.error("[pyrules] a store listener failed:", error); // the others still run
          }
        }
      } finally {
        notifying -= 1;
      }
      return changed;
    },

    /** fn(changedKeys, store) after a change of one of `keys` (null: any key). */
    subscribe(keys, fn) {
      const listener = { keys: keys ? new Set(keys) : null, fn };
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** How many set() calls are notifying right now (0 outside a listener). */
    get notifying() {
      return notifying;
    },
  };
  return store;
}

/**
 * Make `target.key` read and write the store for each key: `target.key = v` is store.set({key: v})
 * (its listeners run), so code that assigns properties still goes through the one store.
 */
export function bindKeys(target, store, keys) {
  for (const key of keys) {
    Object.defineProperty(target, key, {
      configurable: true,
      enumerable: true,
      get: () => store.get(key),
      set: (value) => store.set({ [key]: value }),
    });
  }
  return target;
}
