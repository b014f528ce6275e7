// The sheets: one in front on a phone (tabs), moved through by keyboard, and the due cells
// kept clear of the entry panel, the tabs and the column heads.
import { $, $$, board, covered } from "./dom.js";
import { state, update } from "./state.js";

export function selectSheet(seat, focus) {
  const tabs = $$(".player-tab", board());
  if (!tabs.length) return;
  const wanted = $(`#tab-${seat}`) ? String(seat) : board().dataset.front;
  for (const tab of tabs) {
    const on = tab.id === `tab-${wanted}`;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
  }
  for (const sheet of $$(".sheet", board())) {
    sheet.classList.toggle("is-back", sheet.dataset.seat !== wanted);
  }
  showTab($(`#tab-${wanted}`));
}

/** The player chose a sheet: it stays in front until the turn changes. */
export function chooseSheet(seat, focus) {
  update({ view: { sheet: seat } });
  selectSheet(seat, focus);
}

/** Dice are always typed for the player to move: their sheet comes to the front. */
export function backToFront() {
  if (state.view.sheet === null) return;
  update({ view: { sheet: null } });
  selectSheet(board().dataset.front, false);
}

// On a phone the tabs are one row that scrolls sideways: the chosen tab is kept in it.
function showTab(tab) {
  const strip = tab && tab.parentElement;
  if (!strip || strip.scrollWidth <= strip.clientWidth) return;
  const inner = strip.getBoundingClientRect();
  const outer = tab.getBoundingClientRect();
  const room = 8;
  if (outer.left < inner.left + room) strip.scrollLeft -= inner.left + room - outer.left;
  else if (outer.right > inner.right - room) strip.scrollLeft += outer.right - (inner.right - room);
}

// -- the due cells are never under the entry panel, the tabs or the column heads: the sheet
// scrolls them clear (their scroll-margin in tafel.css keeps the sticky bands' heights; the
// entry panel's height is measured here, --entry-h)

/** Measures the entry panel; true where it is fixed (a phone) and grew since last time. */
export function measureEntry() {
  const panel = $(".entry", board());
  const fixed = !!panel && getComputedStyle(panel).position === "fixed";
  const height = fixed ? panel.offsetHeight : 0;
  document.documentElement.style.setProperty("--entry-h", `${height}px`);
  const grew = state.view.entryHeight !== null && height > state.view.entryHeight;
  update({ view: { entryHeight: height } });
  return fixed && grew;
}

export function showDue() {
  measureEntry();
  if (!state.view.entryHeight) return;
  const due = $$(".sheet:not(.is-back) td.cell.due", board());
  const seen = due.filter((cell) => !covered(cell)).length;
  if (seen === due.length) return;
  // The last first, then the first: all end up in view where they fit together; where
  // they do not (a small phone, ↓ Einser and ↑ Chance), one already in view stays so.
  const start = window.scrollY;
  for (const cell of due.slice().reverse()) if (covered(cell)) cell.scrollIntoView({ block: "nearest" });
  if (seen && due.some((cell) => covered(cell))) window.scrollTo(window.scrollX, start);
}

/** The turn, announced in place (the board itself is swapped). */
export function announce() {
  const turnLive = $("#turn-live");
  if (!turnLive) return;
  const turn = $(".status .turn", board());
  const text = turn ? turn.textContent.replace(/\s+/g, " ").trim() : "";
  if (turnLive.textContent !== text) turnLive.textContent = text;
}

export function setUpSheets() {
  // A phone's toolbars come and go while the page scrolls (a resize of the height only):
  // only a new width (the phone turned) scrolls the due cells again.
  window.addEventListener("resize", () => {
    if (window.innerWidth === state.view.shownWidth) return void measureEntry();
    update({ view: { shownWidth: window.innerWidth } });
    showDue();
  });

  // The sheet by keyboard: arrow keys move between the cells of a sheet, like on paper.
  document.addEventListener("keydown", (event) => {
    const cell = event.target instanceof Element && event.target.closest(".cell-btn");
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
    if (!cell || !step || event.altKey || event.ctrlKey || event.metaKey) return;
    const rows = $$("tbody tr", cell.closest("table"));
    const row = cell.closest("tr");
    const r = rows.indexOf(row) + step[0];
    const c = $$("td.cell", row).indexOf(cell.closest("td")) + step[1];
    const next = rows[r] && $$("td.cell", rows[r])[c];
    if (!next) return;
    event.preventDefault();
    $(".cell-btn", next).focus();
  });

  // Tabs by keyboard (arrow keys, as a tab list should).
  document.addEventListener("keydown", (event) => {
    const tab = event.target instanceof Element && event.target.closest(".player-tab");
    if (!tab || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const tabs = $$(".player-tab", board());
    let i = tabs.indexOf(tab);
    if (event.key === "ArrowLeft") i = (i - 1 + tabs.length) % tabs.length;
    if (event.key === "ArrowRight") i = (i + 1) % tabs.length;
    if (event.key === "Home") i = 0;
    if (event.key === "End") i = tabs.length - 1;
    event.preventDefault();
    chooseSheet(tabs[i].id.replace("tab-", ""), true);
  });
}
