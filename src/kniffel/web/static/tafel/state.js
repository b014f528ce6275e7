// The page's one state (docs/decisions.md, "One client state"; docs/architecture.md, "The
// page's modules"). Every module reads `state`; only `update(patch)` below changes it, and
// then tells the subscribers what changed. No other module assigns to it (tests/web/
// test_page_modules.py checks that, and the sections are frozen: an assignment elsewhere throws).
//
// Sections, and how a patch changes them:
// - game: read from the board the server drew (tafel/draw.js), replaced as a whole.
// - change: the change on its way, { version, n }, or null; replaced as a whole.
// - every other section is merged: update({ view: { sheet: null } }) changes view.sheet only.

const KEYS = { chances: "kniffel.gewinnchancen", tippMode: "kniffel.tipp-modus" };

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch (error) {
    return null; // private mode without storage: the defaults
  }
}

export const state = {
  // { id, version, turn, player, front } of the board shown (null on a page without a board)
  game: null,
  // the change on its way: { version } it was sent at (and a serial number n); taps wait for it
  change: null,
  // the page's own view, kept only while it still fits the game that is drawn
  view: {
    sheet: null, // the seat whose sheet the player chose, until the turn changes
    dialog: null, // the correction open: { version } it was opened at
    focus: null, // where the focus goes once a change shows: { since, turn, to: "entry" | "roll" | "off" }
    kept: null, // the element focused when a swap began, and its selection
    held: null, // the dice held in the tray: { turn, dice, on }
    noticeVersion: -1, // the version the message shown was said at
    entryHeight: null, // the entry panel's height as last measured (fixed on a phone)
    shownWidth: window.innerWidth, // the width the due cells were last scrolled into view for
  },
  // what was typed, beside the inputs themselves (they survive every swap: hx-preserve)
  entry: {
    lastDice: "", // the dice field's last accepted value: a wrong key puts it back
    mismatch: null, // typed values a preview was already dropped for once
    changeKey: null, // where the dice of the turn a change was sent in are kept
  },
  // the taps: which wait, and where messages appear
  taps: {
    settle: null, // where and until when a tap is the second of a double tap
    lastTap: null, // where the last change was tapped
    byKeyboard: false, // the last change was made from the keyboard
    tapped: null, // the id of the control last pressed: messages appear next to it
  },
  // the board's answers and the live socket
  sync: {
    latest: 0, // the newest version heard of
    refreshing: null, // the refresh on its way (a promise)
    again: false, // another refresh is wanted once it is done
    previewTimer: null, // the preview asked for in a moment
    socket: null, // the live socket while open or opening
    delay: 400, // the wait before the live socket is opened again
    tables: 0, // how often the live socket said this game's solver tables are built
  },
  // the device's choices, kept in localStorage (docs/board.md, "Gewinnchancen", "Tipp")
  prefs: {
    chances: stored(KEYS.chances) === "an",
    tippMode: stored(KEYS.tippMode) === "sieg" ? "sieg" : "punkte",
  },
  // the Tipp panel being asked again: the section whose figures or tables are awaited, since
  // when (ms) the panel has waited for the game's tables (0: it does not wait), and how to ask
  // for the panel at once instead of at its next look (null: no look is waiting)
  tipp: { loading: null, polling: null, buildingSince: 0, askNow: null },
  // the board offline (tafel/offline.js): the game's record kept on the device, whether the
  // sheet is drawn from it and the kept entries, and how many entries are kept
  offline: { record: null, active: false, kept: 0 },
  // the next ask for the win chances while they are worked out (a timer)
  chances: { again: null },
};

const REPLACED = new Set(["game", "change"]);
const subscribers = [];
let serial = 0;

function freeze(value) {
  return value && typeof value === "object" && !(value instanceof Promise) ? Object.freeze(value) : value;
}

/** The one function that changes the state: merges (or replaces) each section named in
 * `patch`, then calls every subscriber with the patch and the state. */
export function update(patch) {
  for (const [key, value] of Object.entries(patch)) {
    if (!(key in state)) throw new Error(`The page has no state "${key}".`);
    state[key] = freeze(REPLACED.has(key) ? value : { ...state[key], ...value });
  }
  for (const subscriber of subscribers) subscriber(patch, state);
}

/** Calls `subscriber(patch, state)` after every update. */
export function subscribe(subscriber) {
  subscribers.push(subscriber);
}

/** A new change on its way (tafel/changes.js): its own serial number tells it from the next. */
export function newChange(version) {
  serial += 1;
  return Object.freeze({ version, n: serial });
}

for (const key of Object.keys(state)) freeze(state[key]);

// The device's choices are kept where they are changed: nowhere else writes localStorage.
subscribe((patch) => {
  if (!patch.prefs) return;
  try {
    if ("chances" in patch.prefs) localStorage.setItem(KEYS.chances, state.prefs.chances ? "an" : "aus");
    if ("tippMode" in patch.prefs) localStorage.setItem(KEYS.tippMode, state.prefs.tippMode);
  } catch (error) {
    // private mode: the choice holds for this page only
  }
});
