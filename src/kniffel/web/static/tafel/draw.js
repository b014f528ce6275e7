// The one function that draws the client state, at the swap itself (not after settling), so
// that nothing typed afterwards is lost (docs/decisions.md, "One client state"): the game
// part is read from the board the server drew and replaced as a whole; the view part is the
// page's own and is kept only while it still fits the game that is drawn.
import { $, $$, board, diceInput, firstOpenCell, mode, pointsInput, readGame, turnKey, typedNow, version } from "./dom.js";
import { changeDone } from "./changes.js";
import { clearEntry, forget, recall, remember, restore, showDice } from "./dice.js";
import { closeStaleEdit } from "./edit.js";
import { clearNotice, notice } from "./notice.js";
import { announce, measureEntry, selectSheet, showDue } from "./sheet.js";
import { refresh, schedulePreview } from "./sync.js";
import { clearTipp } from "./tipp.js";
import { state, update } from "./state.js";

export function draw() {
  const before = state.game;
  update({ game: readGame() });
  const newVersion = state.game.version !== before.version;
  const newTurn = state.game.turn !== before.turn;
  // After this device's own change the game goes on: the player to move comes to the front.
  if (newTurn || (state.change && version() > state.change.version)) update({ view: { sheet: null } });
  if (newTurn) {
    clearEntry();
    const kept = recall() || undone();
    if (kept) restore(kept);
    remember();
    if (state.entry.changeKey) {
      forget(state.entry.changeKey); // the dice of the turn that is over
      update({ entry: { changeKey: null } });
    }
  }
  if (newVersion) {
    clearTipp();
    closeStaleEdit();
  }
  selectSheet(state.view.sheet === null ? state.game.front : state.view.sheet, false);
  // The dice held stay held while the same roll is drawn again; every roll releases them all,
  // also one whose faces came out the same (issue 32 item 4).
  const tray = $$(".tray input[data-die]", board());
  const held = state.view.held;
  const rolled = tray.length ? tray[0].closest(".tray").dataset.rolled : null;
  const same = held && held.turn === turnKey() && held.rolled === rolled;
  if (same && tray.length && held.dice === tray.map((i) => i.value).join("")) {
    for (const input of tray) input.checked = held.on.includes(input.dataset.die);
  }
  showDice();
  // The board's own message (a refusal, a lost tap) goes to the message region.
  const said = $("#notice", board());
  if (said && said.textContent.trim()) {
    const tapped = state.taps.tapped;
    const anchor = (tapped && document.getElementById(tapped)) || $("#dice-entry") || null;
    notice(said.textContent.trim(), said.classList.contains("error"), anchor);
  } else if (newVersion && version() !== state.view.noticeVersion) {
    clearNotice();
  }
  placeFocus(newTurn);
  if (state.change && version() > state.change.version) changeDone(state.change);
  announce();
  // A new turn, or an entry panel that grew (the dice tray after the first roll), shows
  // the due cells again.
  if (measureEntry() || newTurn) showDue();
  if (version() < state.sync.latest) refresh();
  else if (newTurn && (typedNow().dice || typedNow().points)) schedulePreview();
}

/** The dice or points the board shows for a turn that was just taken back (the undo's answer
 * previews the entry undone): they go back into the field, kept as if typed. */
function undone() {
  const { dice, points, roll } = board().dataset;
  if (!diceInput() || (!dice && !points)) return null;
  return { dice, points, mode: dice ? "dice" : "points", rolls: roll || null };
}

function focusEntry() {
  const next = diceInput() && mode() === "dice" ? diceInput()
    : mode() === "points" && pointsInput() ? pointsInput()
    : $(".roll-button:not([disabled])", board()) || firstOpenCell() || $(".status", board());
  if (!next) return;
  if (next.matches(".status")) next.tabIndex = -1;
  next.focus({ preventScroll: false });
}

// After a roll the same hand rolls again, or, with no roll left, chooses a cell.
function focusRoll() {
  const next = $(".roll-button:not([disabled])", board()) || firstOpenCell();
  if (next) next.focus({ preventScroll: false });
}

// The client's one rule for the focus, applied when the board is drawn.
function placeFocus(newTurn) {
  const intent = state.view.focus;
  const kept = state.view.kept;
  update({ view: { kept: null } });
  const active = document.activeElement;
  if (intent && version() > intent.since) {
    update({ view: { focus: null } });
    const moved = turnKey() !== intent.turn;
    if (intent.to === "roll" && !moved) return focusRoll();
    // After an entry the next player types: from the keyboard focus goes to their dice;
    // after a tap nothing keeps focus on the sheet (a second tap or Enter must not
    // reach the next player's cells).
    if (moved && intent.to !== "off") return focusEntry();
    if (moved && active && active.closest && active.closest(".cell-btn")) return active.blur();
  }
  // Without Element.moveBefore (WebKit, so every iPhone) htmx takes the kept dice field out
  // of the page and puts it back: the focus fell to the body. It goes back where it was.
  if (kept && kept.el.isConnected && !kept.el.disabled && (!active || active === document.body)) {
    kept.el.focus({ preventScroll: true });
    if (kept.start !== null && kept.el.setSelectionRange) {
      try {
        kept.el.setSelectionRange(kept.start, kept.end);
      } catch (error) {
        // a field without a selection (a number field): the focus is enough
      }
    }
    return;
  }
  // Another device moved the turn on while this keyboard sat on a cell.
  const now = document.activeElement;
  if (newTurn && now && now.closest && now.closest(".cell-btn") && now.matches(":focus-visible")) focusEntry();
}

export function setUpDraw() {
  document.addEventListener("htmx:afterSwap", (event) => {
    if (!board() || !event.detail.target || event.detail.target.id !== "tafel") return;
    draw();
  });
}
