// The dice entry: typed dice (keys, the pad, the field), points, which roll made them, and
// the virtual dice's tray by keyboard. Typed dice survive a reload (sessionStorage, per
// game, turn and player for this tab) and every swap (the inputs are hx-preserve).
import {
  $, $$, asksRoll, board, diceInput, diceText, firstOpenCell, mode, mover, pointsInput, pointsText, rollsInput, turnKey,
} from "./dom.js";
import { clearNotice, notice } from "./notice.js";
import { backToFront } from "./sheet.js";
import { schedulePreview } from "./sync.js";
import { clearTipp, followTipp } from "./tipp.js";
import { state, update } from "./state.js";

export const storeKey = () => `tafel:${state.game.id}:${turnKey()}:${mover()}`;

/** The roll the entry panel says until the player picks another: none where the roll changes
 * a score or a refusal (asksRoll), else the variant's last roll, the last of the roll buttons the
 * server drew, never a figure here. (Not the field's defaultValue: a hidden input's value is its
 * value attribute, so it changes with every pick.) */
function lastRoll() {
  const buttons = $$(".rolls-pick [data-rolls]");
  return buttons.length && !asksRoll() ? buttons[buttons.length - 1].dataset.rolls : "";
}

export function remember() {
  if (!diceInput()) return;
  try {
    const rolls = rollsInput() ? rollsInput().value : "";
    const kept = { dice: diceText(), points: pointsText(), mode: mode(), rolls };
    if (!kept.dice && !kept.points && rolls === lastRoll()) sessionStorage.removeItem(storeKey());
    else sessionStorage.setItem(storeKey(), JSON.stringify(kept));
  } catch (error) {
    // private mode without storage: typing still works, it just is not kept
  }
}

export function recall() {
  try {
    return JSON.parse(sessionStorage.getItem(storeKey()) || "null");
  } catch (error) {
    return null;
  }
}

/** Forgets the dice kept for a turn that is over. */
export function forget(key) {
  try {
    sessionStorage.removeItem(key);
  } catch (error) {
    // nothing kept, nothing to forget
  }
}

export function restore(kept) {
  if (kept.mode && kept.mode !== mode()) setMode(kept.mode, false);
  if (diceInput() && kept.dice) diceInput().value = kept.dice;
  if (pointsInput() && kept.points) pointsInput().value = kept.points;
  update({ entry: { lastDice: diceText() } });
  if (kept.rolls) setRolls(kept.rolls, false);
  showDice();
}

export function showDice() {
  const show = $("[data-dice-show]");
  const input = diceInput();
  if (!show || !input) return;
  const text = diceText();
  if (input.value !== text) input.value = text;
  show.replaceChildren();
  for (let i = 0; i < 5; i++) {
    const face = Number(text[i]);
    const die = document.createElement("span");
    if (face) {
      die.className = `die small face-${face}`;
      for (let pip = 0; pip < face; pip++) die.append(document.createElement("i"));
    } else {
      die.className = "slot";
    }
    show.append(die);
  }
}

function typedChanged() {
  followTipp();
  remember();
  showDice();
  schedulePreview();
}

export function typeFace(face) {
  const input = diceInput();
  if (!input || mode() !== "dice" || state.change) return;
  backToFront();
  const text = diceText();
  if (text.length >= 5) {
    // A sixth die keeps the five there: the player clears first (⌫ or ✕).
    notice(input.dataset.full || "", true, $("[data-dice-show]"));
    return;
  }
  clearNotice();
  input.value = text + face;
  update({ entry: { lastDice: input.value } });
  typedChanged();
}

export function removeFace(all) {
  const input = diceInput();
  if (!input || state.change) return;
  clearNotice();
  input.value = all ? "" : diceText().slice(0, -1);
  update({ entry: { lastDice: input.value } });
  typedChanged();
}

export function setMode(value, focus = true) {
  const entry = $("#dice-entry");
  if (!entry) return;
  entry.dataset.mode = value;
  for (const button of $$("[data-entry-mode]", entry)) {
    button.setAttribute("aria-pressed", button.dataset.entryMode === value ? "true" : "false");
  }
  for (const panel of $$("[data-mode-panel]")) {
    panel.hidden = panel.dataset.modePanel !== value;
  }
  if (diceInput()) diceInput().disabled = value !== "dice";
  if (pointsInput()) pointsInput().disabled = value !== "points";
  const field = value === "dice" ? diceInput() : pointsInput();
  if (field && focus) field.focus();
  typedChanged();
}

export function setRolls(value, keep = true) {
  const input = rollsInput();
  if (!input) return;
  input.value = value;
  for (const button of $$("[data-rolls]")) {
    button.setAttribute("aria-pressed", button.dataset.rolls === value ? "true" : "false");
  }
  followTipp();
  if (!keep) return;
  remember();
  schedulePreview(); // the preview of a Jamb entry may change with the roll
}

export function clearEntry() {
  if (diceInput()) diceInput().value = "";
  if (pointsInput()) pointsInput().value = "";
  update({ entry: { lastDice: "" } });
  setRolls(lastRoll(), false);
  showDice();
}

/** The entry panel as the page loads: the dice kept for this turn come back. */
export function startEntry() {
  if (!diceInput()) return;
  diceInput().disabled = mode() !== "dice";
  if (!diceText() && !(pointsInput() && pointsInput().value)) {
    const kept = recall();
    if (kept) restore(kept);
  }
  update({ entry: { lastDice: diceText() } });
  showDice();
  if (diceText().length === 5 || pointsText() !== "") schedulePreview();
}

export function setUpDice() {
  // Typing into the dice field: a wrong key or a sixth die says so and keeps the five.
  document.addEventListener("input", (event) => {
    const input = diceInput();
    if (event.target === input) {
      backToFront();
      const digits = input.value.replace(/[\s,]/g, "");
      if (state.change || /[^1-6]/.test(digits) || digits.length > 5) {
        input.value = state.entry.lastDice;
        if (!state.change) {
          notice(digits.length > 5 && !/[^1-6]/.test(digits) ? input.dataset.full : input.dataset.faces, true, input);
        }
        showDice();
        return;
      }
      clearNotice();
      update({ entry: { lastDice: digits } });
      typedChanged();
    } else if (event.target === pointsInput()) {
      clearTipp();
      remember();
      schedulePreview();
    }
  });

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target === diceInput() || target === pointsInput()) {
      if (event.key === "Escape" && target === diceInput()) {
        removeFace(true);
      } else if (event.key === "Enter") {
        // Enter moves on to the cells; it never enters into the first one by itself.
        event.preventDefault();
        const open = firstOpenCell();
        if (open) open.focus();
      }
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = target instanceof HTMLElement &&
      (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) &&
      !["checkbox", "radio"].includes(target.type);
    const dialog = $("#edit-dialog");
    if (typing || (dialog && dialog.open)) return;
    // Virtual dice: the digits 1 to 5 hold (or release) that die of the tray.
    const tray = $$(".tray input[data-die]", board());
    if (!diceInput() && tray.length && /^[1-5]$/.test(event.key)) {
      const die = tray[Number(event.key) - 1];
      event.preventDefault();
      if (die && !die.disabled && !state.change) die.checked = !die.checked;
      return;
    }
    if (!diceInput() || mode() !== "dice") return;
    // Five dice typed and the focus nowhere: Enter still moves on to the cells.
    if (event.key === "Enter" && (target === document.body || target === document.documentElement)) {
      const open = diceText().length === 5 ? firstOpenCell() : null;
      if (open) {
        event.preventDefault();
        open.focus();
      }
      return;
    }
    if (/^[1-6]$/.test(event.key)) {
      event.preventDefault();
      typeFace(event.key);
    } else if (event.key === "Backspace") {
      event.preventDefault();
      removeFace(false);
    } else if (event.key === "Escape") {
      removeFace(true);
    }
  });
}
