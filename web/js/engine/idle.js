// The page's requests in the engine worker (worker.js only): how many are in flight, and the
// worker's own work that waits until none has been for a while.
//
// After ready the worker stores the raw snapshot for the next start; that holds its thread
// (cache.put copies the 15.8 MB, 50–60 ms in Chromium) just when the page asks its first
// questions (the systems' description it draws from, then the odds it shows), a few ms
// apart. Such work waits for whenIdle() instead.

/**
 * requests = requestTracker(idleMs): requests.begin() when a request comes in, requests.end()
 * once it is answered (or dropped); requests.whenIdle() resolves once none has been in
 * flight for idleMs.
 */
export function requestTracker(idleMs) {
  let inFlight = 0;
  let waiters = [];
  let timer = null;

  function arm() {
    clearTimeout(timer);
    if (inFlight > 0 || !waiters.length) return;
    timer = setTimeout(() => {
      const woken = waiters;
      waiters = [];
      for (const resolve of woken) resolve();
    }, idleMs);
  }

  return {
    begin() {
      inFlight += 1;
      clearTimeout(timer);
    },
    end() {
      inFlight -= 1;
      arm();
    },
    whenIdle() {
      return new Promise((resolve) => {
        waiters.push(resolve);
        arm();
      });
    },
  };
}
