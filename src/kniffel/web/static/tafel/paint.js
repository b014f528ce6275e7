// The sheet drawn on the device while the server cannot be reached (tafel/offline.js; docs/
// decisions.md, "The board offline"): kniffel.offline's answer painted into the board the server
// drew last, each kept entry marked "noch nicht gesendet" and counted in the status line, and a
// refusal beside the kept entries with "enter again" and "drop".
import { $, $$, board, mode, pointsText } from "./dom.js";

const words = () => $("[data-live-state]").dataset;

// A cell's accessible name, worded as the server words it (kniffel.board.sheet_view._cell, which
// gives the words with the page: data-cell-words), from the state the rules in the page give.
// tests/e2e/test_offline_names.py holds the two equal.
let cellWords;
function named(seat, name, cell, mover) {
  if (cellWords === undefined) cellWords = words().cellWords ? JSON.parse(words().cellWords) : null;
  const w = cellWords;
  if (!w || !(name in w.places)) return null;
  const lang = document.documentElement.lang || "de";
  const plural = new Intl.PluralRules(lang);
  const number = new Intl.NumberFormat(lang);
  const points = (forms, n) => forms[plural.select(n)].replace("{n}", number.format(n));
  const typed = mode() === "points" ? pointsText() : ""; // points typed instead of dice
  const parts = [w.places[name]];
  if (cell.announced) parts.push(w.announced);
  if (cell.state === "filled") {
    parts.push(points(w.points, cell.points));
    if (cell.bonus && w.bonus) parts.push(w.bonus.replace("{n}", number.format(cell.bonus)));
    return parts.join(", ");
  }
  if (cell.due) parts.push(w.due);
  if (cell.state === "locked") {
    parts.push(mover !== null && seat !== mover ? w.notToMove : w.locked);
  } else if (cell.state === "open") {
    parts.push(points(w.possible, cell.preview !== null ? cell.preview : Number(typed)));
    if (cell.preview_bonus && w.previewBonus) parts.push(w.previewBonus.replace("{n}", number.format(cell.preview_bonus)));
    if (cell.joker) parts.push(w.joker);
  } else if (cell.state === "refused") {
    // Typed dice the cell does not take; typed points, the rules' reason.
    parts.push(typed !== "" && cell.refusal ? cell.refusal.message : w.notThisRoll);
  } else if (!cell.due) {
    parts.push(w.open);
  }
  return parts.join(", ");
}

function setText(td, value) {
  const inner = $(".value", td);
  if (inner) inner.textContent = String(value);
  else if (td.firstChild && td.firstChild.nodeType === Node.TEXT_NODE) td.firstChild.nodeValue = String(value);
  else td.prepend(String(value));
}

const SUMS = [["sum1", "sum1"], ["upper-sum", "upper"], ["bonus", "bonus"], ["sum2", "sum2"], ["sum3", "sum3"],
  ["lower-sum", "lower"], ["kniffel-bonus", "kniffel_bonus"], ["total", "total"]];

function paintCell(td, button, cell, keptHere, label) {
  if (label) button.setAttribute("aria-label", label);
  td.className = `cell ${cell.state}${cell.due ? " due" : ""}${cell.joker ? " joker" : ""}` +
    `${cell.announced ? " announced" : ""}${keptHere ? " kept" : ""}`;
  button.replaceChildren();
  button.removeAttribute("data-edit");
  const span = document.createElement("span");
  if (cell.state === "filled") {
    button.type = "button";
    button.setAttribute("aria-disabled", "true");
    button.dataset.reason = keptHere ? words().kept : "";
    span.className = "value";
    span.textContent = String(cell.points);
    button.append(span);
  } else if (cell.state === "open") {
    button.type = "submit";
    button.removeAttribute("aria-disabled");
    button.removeAttribute("data-state");
    if (cell.preview !== null) {
      span.className = `preview${cell.preview === 0 ? " zero" : ""}`;
      span.textContent = String(cell.preview);
      button.append(span);
    }
  } else {
    button.type = "submit";
    button.setAttribute("aria-disabled", "true");
    button.dataset.state = cell.state;
    button.dataset.reason = cell.refusal ? cell.refusal.message : "";
  }
  let mark = $(".kept-mark", td);
  if (keptHere && !mark) {
    mark = document.createElement("small");
    mark.className = "kept-mark sr-only";
    mark.textContent = words().kept;
    td.append(mark);
  } else if (!keptHere && mark) mark.remove();
  if (keptHere) td.title = words().kept;
  else td.removeAttribute("title");
}

/** Draws the sheet `answer` (kniffel.offline.sheet_state) into the board the server drew last,
 * each kept entry marked; `act.again(id)` and `act.drop(id)` answer a refused one. */
export function paint(answer, kept, act) {
  const here = board();
  const waiting = kept.filter((entry) => entry.refusal === null);
  const mover = answer.to_move === null ? null : answer.players[answer.to_move].name;
  const keptCells = new Set(waiting.map((entry) => `${entry.event.player}|${entry.event.cell}`));
  here.dataset.version = String(answer.version + waiting.length);
  here.dataset.kept = "true"; // drawn on the device: the server's board of this version is drawn again
  here.dataset.turn = String(answer.turn_key);
  here.dataset.player = mover || "";
  here.dataset.finished = answer.finished ? "true" : "false";
  if (answer.to_move !== null) here.dataset.front = String(answer.to_move);
  for (const [name, value] of [["version", here.dataset.version], ["turn", here.dataset.turn]]) {
    const input = $(`#enter-form input[name="${name}"]`, here);
    if (input) input.value = value;
  }
  for (const sheet of answer.sheets) {
    const section = document.getElementById(`sheet-${sheet.seat}`);
    const tab = document.getElementById(`tab-${sheet.seat}`);
    if (tab) {
      tab.classList.toggle("to-move", sheet.to_move);
      $(".player-total", tab).textContent = String(sheet.total);
    }
    if (!section) continue;
    section.classList.toggle("to-move", sheet.to_move);
    section.classList.toggle("is-back", answer.to_move !== null && !sheet.to_move);
    for (const [name, cell] of Object.entries(sheet.cells)) {
      const button = document.getElementById(`c${sheet.seat}-${name}`);
      const label = named(sheet.seat, name, cell, answer.to_move);
      if (button) paintCell(button.closest("td"), button, cell, keptCells.has(`${sheet.player}|${name}`), label);
    }
    const columns = Object.values(sheet.columns);
    for (const [row, key] of SUMS) {
      const tr = $(`tfoot tr.${row}`, section);
      if (!tr || (row === "upper-sum" && tr.classList.contains("sum1"))) continue;
      $$("td", tr).forEach((td, i) => columns[i] && setText(td, columns[i][key]));
    }
    const grand = $("tfoot tr.grand td", section);
    if (grand) setText(grand, sheet.total);
  }
  const name = $(".status .turn-name bdi", here);
  if (name && mover) name.textContent = mover;
  const rolls = $(".status .turn-rolls", here);
  if (rolls) rolls.textContent = "";
  const undo = $(".undo button", here);
  if (undo) undo.disabled = true;
  paintStatus(kept, waiting.length, act);
}

function paintStatus(kept, count, act) {
  const status = $(".status", board());
  let line = $(".kept-count", status);
  if (!line) {
    line = document.createElement("p");
    line.className = "kept-count";
    line.setAttribute("role", "status");
    status.append(line);
  }
  line.textContent = count ? words().keptCount.replace("{n}", String(count)) : "";
  const refused = kept.find((entry) => entry.refusal !== null);
  let box = $(".kept-refused", status);
  if (!refused) return void (box && box.remove());
  if (!box) {
    box = document.createElement("div");
    box.className = "kept-refused message error";
    box.setAttribute("role", "alert");
    status.append(box);
  }
  const said = document.createElement("p");
  said.textContent = `${refused.event.player}: ${refused.event.cell.replace(/^main\./, "")} – ${refused.refusal.words}`;
  const again = document.createElement("button");
  again.type = "button";
  again.textContent = words().again;
  again.addEventListener("click", () => act.again(refused.id));
  const drop = document.createElement("button");
  drop.type = "button";
  drop.textContent = words().drop;
  drop.addEventListener("click", () => act.drop(refused.id));
  box.replaceChildren(said, again, drop);
}
