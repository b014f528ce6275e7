// Taps on the board: which wait (while a change is on its way, and the second tap of a
// double tap), and what each control does.
import { asksRoll, board, diceText, gameElement, mode, pointsInput, rollsInput } from "./dom.js";
import { removeFace, setMode, setRolls, typeFace } from "./dice.js";
import { openEdit } from "./edit.js";
import { clearNotice, notice } from "./notice.js";
import { chooseSheet } from "./sheet.js";
import { askTipp } from "./tipp.js";
import { state, update } from "./state.js";

const WAITING = ".cell-btn, [data-face], [data-pad], .roll button, .undo button, .die-toggle";

function waitOrNote(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (!target || !gameElement().contains(target)) return;
  const control = target.closest(WAITING);
  // The second tap of a double tap: the next tap after a change, at the same place, soon.
  const settle = state.taps.settle;
  const second = settle && event.detail !== 0 && performance.now() < settle.until &&
    Math.hypot(event.clientX - settle.x, event.clientY - settle.y) < 24;
  update({ taps: { settle: null } });
  if (!control) return;
  const cell = control.classList.contains("cell-btn");
  if (state.change || (cell && (event.detail > 1 || second))) {
    event.preventDefault();
    event.stopImmediatePropagation();
    return;
  }
  if (cell || control.matches(".roll button, .undo button")) {
    update({
      taps: { byKeyboard: event.detail === 0, tapped: control.id || null, lastTap: { x: event.clientX, y: event.clientY } },
    });
  }
}

function clickCell(event, cell) {
  clearNotice();
  if ("edit" in cell.dataset) {
    event.preventDefault();
    return openEdit(cell);
  }
  if (cell.getAttribute("aria-disabled") !== "true") return;
  // An allowed cell waits only for dice: typed ones go to the server, which decides.
  const typed = mode() === "dice" ? diceText().length === 5 : !!(pointsInput() && pointsInput().value);
  if (cell.dataset.state === "waiting" && typed) return;
  // A cell closed by the preview of another roll than the one now said (a tap on 1 2 3
  // whose preview has not come yet: Jamb's Najava takes only a first roll), or of no roll
  // where the rules ask which roll it was: the server decides with the roll the entry sends.
  const shownRoll = board().dataset.roll || "";
  if (typed && asksRoll() && rollsInput() && rollsInput().value !== shownRoll) return;
  event.preventDefault();
  event.stopPropagation();
  notice(cell.dataset.reason || "", false, cell);
}

function click(event) {
  const target = event.target instanceof Element ? event.target : null;
  if (!target || !gameElement().contains(target)) return;
  const tab = target.closest(".player-tab");
  if (tab) return chooseSheet(tab.id.replace("tab-", ""), false);
  const cell = target.closest(".cell-btn");
  if (cell) return clickCell(event, cell);
  const key = target.closest("[data-face], [data-pad]");
  if (key) {
    if (key.dataset.face) typeFace(key.dataset.face);
    else removeFace(key.dataset.pad === "clear");
    return;
  }
  const modeButton = target.closest("[data-entry-mode]");
  if (modeButton) return setMode(modeButton.dataset.entryMode);
  const tippButton = target.closest("[data-tipp]");
  if (tippButton) return askTipp(tippButton);
  const rollsButton = target.closest("[data-rolls]");
  if (rollsButton) return setRolls(rollsButton.dataset.rolls);
  const copy = target.closest("[data-copy]");
  if (copy) {
    const field = document.getElementById(copy.dataset.copy);
    field.select();
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(() => {});
  }
}

export function setUpTaps() {
  document.addEventListener("click", waitOrNote, true);
  // Typing in between means the next tap is meant.
  document.addEventListener("keydown", () => update({ taps: { settle: null } }), true);
  document.addEventListener("click", click);
}
