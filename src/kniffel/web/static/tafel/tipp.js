// The Tipp: asked for the version and dice shown (GET /g/ID/tipp), marked on the board, in
// its two modes ("Auf Punkte" or "Auf Sieg": the device's last choice, state.prefs), and
// asked again while its figures are simulated or the game's tables are built
// (templates/advice/tipp.html; docs/board.md, "Tipp").
import { $, $$, covered, diceInput, diceText, mode, rollsInput, typedNow, version } from "./dom.js";
import { offline } from "./notice.js";
import { state, subscribe, update } from "./state.js";

// -- the Tipp belongs to the version and the dice it was asked for
const tippFor = () => `${version()}|${typedNow().dice}|${typedNow().points}|${rollsInput() ? rollsInput().value : ""}`;

export function clearTipp() {
  const place = $("#tipp");
  if (place && place.dataset.for !== tippFor()) {
    place.replaceChildren();
    delete place.dataset.for;
  }
}

/** What is typed changed: an open Tipp stays open and follows it, asked again for the dice
 * once all five are typed (or none); while they are being typed it keeps the last answer
 * (issue 32 item 4: it closed on the first die typed). */
export function followTipp() {
  const place = $("#tipp");
  if (!place || !("for" in place.dataset) || place.dataset.for === tippFor()) return;
  // A Tipp of another version closes when the board is drawn (draw.js): it follows nothing.
  if (!place.dataset.for.startsWith(`${version()}|`)) return clearTipp();
  const typed = mode() === "dice" && diceInput() ? diceText().length : 0;
  const button = $("[data-tipp]");
  if (button && (typed === 0 || typed === 5)) askTipp(button);
}

export function askTipp(button) {
  const params = new URLSearchParams();
  if (diceInput() && mode() === "dice" && diceText()) {
    params.set("dice", diceText());
    if (rollsInput()) params.set("rolls", rollsInput().value);
  }
  const asked = tippFor();
  const place = $("#tipp");
  if (place) place.setAttribute("aria-busy", "true");
  fetch(`${button.dataset.tipp}?${params}`, { credentials: "same-origin" })
    .then((answer) => answer.text())
    .then((html) => {
      const now = $("#tipp");
      if (!now) return;
      now.removeAttribute("aria-busy");
      // A Tipp asked for other dice or an older version is not shown.
      if (tippFor() !== asked) return;
      now.innerHTML = html;
      now.dataset.for = asked;
      markTipp();
      // The panel opens under the tabs: where they cover its top, it comes into view below them.
      if (covered(now, 4)) now.scrollIntoView({ block: "start" });
    })
    .catch(() => {
      const now = $("#tipp");
      if (now) now.removeAttribute("aria-busy");
      offline(button);
    });
}

// The Tipp panel names the best cell and the dice to keep in data attributes; the page marks
// them with classes (no inline style: docs/architecture.md, "Security").
export function markTipp() {
  for (const el of $$(".tipp-best-cell, .tipp-keep")) el.classList.remove("tipp-best-cell", "tipp-keep");
  const tipp = $(".tipp[data-highlight-cell], .tipp[data-highlight-dice]");
  if (!tipp) return;
  const cell = tipp.dataset.highlightCell && document.getElementById(tipp.dataset.highlightCell);
  if (cell) cell.classList.add("tipp-best-cell");
  const dice = $$(".tray .die-toggle");
  for (const n of (tipp.dataset.highlightDice || "").split(" ").filter(Boolean)) {
    if (dice[Number(n) - 1]) dice[Number(n) - 1].classList.add("tipp-keep");
  }
}

// -- the panel's two modes
function show(section) {
  const modes = section.querySelector("[data-tipp-modes]");
  const chosen = modes ? state.prefs.tippMode : "punkte";
  if (modes) for (const radio of modes.querySelectorAll("input[type=radio]")) radio.checked = radio.value === chosen;
  for (const part of section.querySelectorAll("[data-tipp-mode]")) part.hidden = part.dataset.tippMode !== chosen;
}

/** A fresh panel takes the place of the shown one; the focus stays on the same control. */
function replace(section, fresh) {
  const focused = section.contains(document.activeElement) ? document.activeElement : null;
  show(fresh);
  section.replaceWith(fresh);
  markTipp();
  if (focused && focused.name === "tipp-modus") {
    const same = fresh.querySelector(`input[name="tipp-modus"][value="${focused.value}"]`);
    if (same) same.focus();
  } else if (focused && focused.matches("[data-close-tipp]")) {
    const close = fresh.querySelector("[data-close-tipp]");
    if (close) close.focus();
  }
}

// Where the chances of bonus and Kniffel are simulated, the panel comes first and the same
// panel with its chances follows (data-tipp-reasons): a first answer with its wider
// interval, then the final figures (data-tipp-stage); each is only put in place while the
// panel it was asked for is still shown.
const REASONS_POLL_MS = 1500;
function load(section) {
  if (!section.dataset.tippReasons || state.tipp.loading === section || !section.isConnected) return;
  update({ tipp: { loading: section } });
  const ask = (url) => {
    fetch(url, { credentials: "same-origin" })
      .then((answer) => (answer.ok ? answer.text() : null))
      .then((html) => {
        if (!html || !section.isConnected) return;
        const box = document.createElement("div");
        box.innerHTML = html;
        const fresh = box.querySelector(".tipp");
        if (!fresh) return;
        if (fresh.dataset.tippReasons && fresh.dataset.tippStage === section.dataset.tippStage) {
          // Still being simulated, nothing new to show: say how far, and ask again in a moment.
          const waiting = section.querySelector("[data-reasons-waiting]");
          const said = fresh.querySelector("[data-reasons-waiting]");
          if (waiting && said) waiting.textContent = said.textContent;
          setTimeout(() => ask(fresh.dataset.tippReasons), REASONS_POLL_MS);
          return;
        }
        // The figures came (a first answer with its wider interval, or the final ones): the
        // fresh panel takes the place; one still refining is asked again by setUp() below.
        replace(section, fresh);
      })
      .catch(() => {});
  };
  ask(section.dataset.tippReasons);
}

// While the game's tables are built the panel says so (data-tipp-building) and asks again
// until the Tipp is there (issue 19 item 4: the panel came by fetch, so htmx never saw its
// hx-trigger and it stayed at "wird berechnet … 0 %"): at once when the live socket says the
// tables are built (issue 35: a look every half second added a quarter of a second on
// average), else every half second for the first ten seconds, as a house rule's table takes a
// few, then every two seconds (the socket may be closed, or the tables built by another
// server process).
const BUILDING_SOON_MS = 500;
const BUILDING_SOON_FOR_MS = 10000;
const BUILDING_POLL_MS = 2000;
function buildingDelay() {
  const waited = Date.now() - state.tipp.buildingSince;
  return waited < BUILDING_SOON_FOR_MS ? BUILDING_SOON_MS : BUILDING_POLL_MS;
}
function poll(section) {
  const url = section.dataset.tippBuilding;
  if (!url || state.tipp.polling === section) return;
  update({ tipp: { polling: section, buildingSince: state.tipp.buildingSince || Date.now() } });
  let timer = null;
  const done = () => update({ tipp: { buildingSince: 0, askNow: null } });
  const later = () => {
    timer = setTimeout(again, buildingDelay());
    // Asked at once by the socket's news: the look that waits is not made as well.
    const askNow = () => {
      clearTimeout(timer);
      again();
    };
    update({ tipp: { askNow } });
  };
  function again() {
    update({ tipp: { askNow: null } });
    if (!section.isConnected) return done();
    fetch(url, { credentials: "same-origin" })
      .then((answer) => answer.text())
      .then((html) => {
        if (!section.isConnected) return done();
        const box = document.createElement("div");
        box.innerHTML = html;
        if (!box.firstElementChild) return later();
        if (!box.querySelector("[data-tipp-building]")) done();
        section.replaceWith(...box.childNodes);
        markTipp();
      })
      .catch(later); // offline a moment: ask again
  }
  later();
}

function setUpPanels() {
  for (const section of $$("#tipp .tipp")) {
    show(section);
    load(section);
    poll(section);
  }
}

export function setUpTipp() {
  document.addEventListener("htmx:afterSwap", markTipp);
  document.addEventListener("click", (event) => {
    const close = event.target instanceof Element && event.target.closest("[data-close-tipp]");
    if (!close) return;
    const tipp = close.closest(".tipp");
    if (tipp) tipp.remove();
    markTipp();
  });
  document.addEventListener("change", (event) => {
    const radio = event.target.closest && event.target.closest("[data-tipp-modes] input");
    if (!radio) return;
    update({ prefs: { tippMode: radio.value } });
    const section = radio.closest(".tipp");
    if (section) show(section);
  });
  subscribe((patch) => {
    if (patch.sync && "tables" in patch.sync && state.tipp.askNow) state.tipp.askNow();
  });
  new MutationObserver(setUpPanels).observe(document.body, { childList: true, subtree: true });
  setUpPanels();
}
