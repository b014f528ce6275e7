// One thing after the other on the device's page (device/game.js): the rules answer later
// (static/rules.js: Python in a worker), so the page's changes (a tap, an announcement, an undo,
// a correction) and its drawings run in turn, each on the record the one before left. An act run
// here never waits for another act asked through here (it would wait for itself).
let queue = Promise.resolve();

/** `act()` once every act asked before it is done: its promise. */
export function serial(act) {
  const run = queue.then(act);
  queue = run.catch(() => {}); // the next one runs all the same
  return run;
}

/** `act` in turn, where a call asked while one still waits joins the waiting one (a drawing). */
export function joining(act) {
  let asked = null;
  return () => {
    if (asked === null) {
      asked = serial(() => {
        asked = null;
        return act();
      });
    }
    return asked;
  };
}
