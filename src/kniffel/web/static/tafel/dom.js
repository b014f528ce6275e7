// What the page shows, read where it is: the board the server drew and the entry panel's
// inputs (which survive every swap: hx-preserve). Reading only; tafel/state.js holds the rest.

export const $ = (selector, root) => (root || document).querySelector(selector);
export const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

export const gameElement = () => $(".game[data-game]");
export const board = () => $("#board");
export const version = () => Number(board().dataset.version);
export const turnKey = () => board().dataset.turn;
export const mover = () => board().dataset.player || "";

/** The game part of the state, as the board the server drew says it. */
export const readGame = () => ({
  id: gameElement().dataset.game,
  version: version(),
  turn: turnKey(),
  player: mover(),
  front: board().dataset.front,
});

export const diceInput = () => $("[data-dice-input]");
export const pointsInput = () => $("[data-points-input]");
export const rollsInput = () => $("[data-rolls-input]");
/** Whether an entry of typed dice says which roll made them (Jamb's Kenta, the first-roll
 * columns): the page then assumes no roll (issue 32 item 3). */
export const asksRoll = () => {
  const pick = $(".rolls-pick");
  return !!pick && pick.dataset.asksRoll === "true";
};

/** "dice" or "points": what the entry panel takes. */
export function mode() {
  const entry = $("#dice-entry");
  return entry ? entry.dataset.mode : "dice";
}

export function diceText() {
  const input = diceInput();
  return input ? input.value.replace(/[^1-6]/g, "").slice(0, 5) : "";
}

export function pointsText() {
  const points = pointsInput();
  return mode() === "points" && points ? points.value.trim() : "";
}

/** What the board previews must be what the entry panel holds. */
export function typedNow() {
  if (!diceInput()) return { dice: "", points: "" };
  return { dice: mode() === "dice" && diceText().length === 5 ? diceText() : "", points: pointsText() };
}

/** The first cell the player may enter into: open, or waiting for the preview of the dice
 * just typed (the server decides when the cell is tapped). */
export const firstOpenCell = () => $(".sheet:not(.is-back) :is(.cell.open, .cell.waiting) .cell-btn", board());

/** What a tap at the element's centre (or `from` pixels below its top) would not reach. */
export function covered(element, from) {
  const rect = element.getBoundingClientRect();
  const y = from === undefined ? rect.top + rect.height / 2 : rect.top + from;
  const hit = document.elementFromPoint(rect.left + rect.width / 2, y);
  return !hit || !element.contains(hit);
}
