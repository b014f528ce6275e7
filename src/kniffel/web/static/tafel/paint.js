// The sheet drawn on the device while the server cannot be reached (tafel/offline.js; docs/
// decisions.md, "The board offline"): kniffel.offline's answer painted into the board the server
// drew last, each kept entry marked "noch nicht gesendet" and counted in the status line, and a
// refusal beside the kept entries with "enter again" and "drop".
import { $, $$, board, mode, pointsText } from "./dom.js";
import { paintNotes, said } from "./notes.js";

const words = () => $("[data-live-state]").dataset;

// A cell's accessible name, worded as the server words it (kniffel.board.sheet_view._cell, which
// gives the words with the page: data-cell-words), from the state the rules in the page give.
// tests/e2e/test_offline_names.py holds the two equal.
let cellWords; // { w, plural, number }, read once
function wordsOnce() {
  if (cellWords === undefined) {
    const lang = document.documentElement.lang || "de";
    const w = words().cellWords ? JSON.parse(words().cellWords) : null;
    cellWords = w && { w, plural: new Intl.PluralRules(lang), number: new Intl.NumberFormat(lang) };
  }
  return cellWords;
}

// `n` points in the form its plural category takes ("3 boda", "28 bodova").
const points = (forms, n) => forms[cellWords.plural.select(n)].replace("{n}", cellWords.number.format(n));

function named(seat, name, cell, mover) {
  if (!wordsOnce() || !(name in cellWords.w.places)) return null;
  const { w, number } = cellWords;
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
    parts.push(typed !== "" && cell.refusal ? said(cell.refusal) : w.notThisRoll);
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

function paintCell(td, button, cell, keptHere, owner, name, label) {
  if (label) button.setAttribute("aria-label", label);
  td.className = `cell ${cell.state}${cell.due ? " due" : ""}${cell.joker ? " joker" : ""}` +
    `${cell.announced ? " announced" : ""}${keptHere ? " kept" : ""}`;
  button.replaceChildren();
  button.removeAttribute("data-edit");
  const span = document.createElement("span");
  if (cell.state === "filled") {
    button.type = "button";
    // Corrected as on the server's board (tafel/edit.js; a watcher's page keeps nothing offline).
    Object.assign(button.dataset, { edit: "", player: owner, cell: name, points: String(cell.points),
      possible: cell.possible, label: `${owner}: ${button.getAttribute("aria-label")}` });
    button.removeAttribute("aria-disabled");
    button.removeAttribute("data-state");
    button.removeAttribute("data-reason");
    span.className = "value";
    span.textContent = String(cell.points);
    button.append(span);
  } else if (cell.state === "open") {
    Object.assign(button, { type: "submit", name: "cell", value: name });
    button.removeAttribute("aria-disabled");
    button.removeAttribute("data-state");
    button.removeAttribute("data-reason");
    if (cell.preview !== null) {
      span.className = `preview${cell.preview === 0 ? " zero" : ""}`;
      span.textContent = String(cell.preview);
      button.append(span);
    }
  } else {
    Object.assign(button, { type: "submit", name: "cell", value: name });
    button.setAttribute("aria-disabled", "true");
    button.dataset.state = cell.state;
    button.dataset.reason = cell.refusal ? said(cell.refusal) : "";
  }
  paintAnnounce(td, button, cell, name);
  paintBonus(td, button, cell);
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

// The extra Kniffel's bonus beside the cell, as sheet.html draws it: what a filled cell earned,
// or what the typed dice would earn in an open one (right after the cell's button).
function paintBonus(td, button, cell) {
  const bonus = cell.state === "filled" ? cell.bonus
    : cell.state === "open" && cell.preview !== null ? cell.preview_bonus : 0;
  let mark = $(".kb", td);
  if (!bonus) return void (mark && mark.remove());
  if (!mark) {
    mark = Object.assign(document.createElement("small"), { className: "kb" });
    mark.setAttribute("aria-hidden", "true");
  }
  mark.textContent = `+${bonus}`;
  button.after(mark);
}

// Jamb's Najava and Yams' annoncée, as sheet.html draws them: the announced row's mark, and a
// button on each row the rules in the page let the player to move announce now (posted as on
// the server's board; offline the post is kept, tafel/kept.js).
function paintAnnounce(td, button, cell, name) {
  let tag = $(".announced-tag", td);
  if (cell.announced && !tag) {
    tag = Object.assign(document.createElement("small"), { className: "announced-tag", textContent: "!" });
    tag.setAttribute("aria-hidden", "true");
    button.after(tag);
  } else if (!cell.announced && tag) tag.remove();
  const shown = $(".announce-btn", td);
  const label = wordsOnce() && cellWords.w.announce ? cellWords.w.announce[name] : undefined;
  if (!cell.announce || !label) return void (shown && shown.remove());
  if (shown) return;
  const form = $("#enter-form"); // none on a game kept on the device (device/game.js takes the tap)
  const announce = Object.assign(document.createElement("button"), {
    type: form ? "submit" : "button", className: "announce-btn", name: "cell", value: name, title: label, textContent: "!",
  });
  announce.setAttribute("aria-label", label);
  (tag || button).after(announce);
  if (!form) return;
  const path = form.getAttribute("action").replace(/\/enter$/, "/announce");
  announce.setAttribute("formaction", path);
  announce.setAttribute("hx-post", path);
  window.htmx.process(announce);
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
  // Every form of the board (the entry, the undo, the roll) posts the version drawn here.
  $$('input[name="version"]', here).forEach((input) => (input.value = here.dataset.version));
  const turn = $('#enter-form input[name="turn"]', here);
  if (turn) turn.value = here.dataset.turn;
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
      const keptHere = keptCells.has(`${sheet.player}|${name}`);
      if (button) paintCell(button.closest("td"), button, cell, keptHere, sheet.player, name, label);
    }
    const columns = Object.values(sheet.columns);
    for (const [row, key] of SUMS) {
      const tr = $(`tfoot tr.${row}`, section);
      if (!tr || (row === "upper-sum" && tr.classList.contains("sum1"))) continue;
      $$("td", tr).forEach((td, i) => columns[i] && setText(td, columns[i][key]));
    }
    const grand = $("tfoot tr.grand td", section);
    if (grand) setText(grand, sheet.total);
    const caption = $(".caption-total", section); // "Ana: 3 boda", as sheet_view words it
    if (caption && wordsOnce() && cellWords.w.caption)
      caption.textContent = cellWords.w.caption.replace("{name}", sheet.player).replace("{points}", points(cellWords.w.points, sheet.total));
  }
  const name = $(".status .turn-name bdi", here);
  if (name && mover) name.textContent = mover;
  const undo = $(".undo button", here);
  if (undo) undo.disabled = answer.undo !== null;
  if (here.dataset.mode === "virtual") paintTray(answer.turn);
  paintNotes(answer); // the bonus, rolls, dice and undo notes, in the server's words
  paintStatus(kept, waiting.length, act);
}

// The virtual dice of the turn (rolled on the device while offline), as board.html draws them:
// each die a box to hold it; drawn again only when the roll changed, so that dice held stay held.
function paintTray(turn) {
  const form = $("form.roll", board());
  if (!form) return;
  const dice = turn ? turn.dice : [];
  let tray = $(".tray", form);
  const drawn = tray ? `${tray.dataset.rolled}:${$$("input", tray).map((box) => box.value).join("")}` : "0:";
  if (drawn !== `${turn ? turn.rolls : 0}:${dice.join("")}`) {
    if (tray) tray.remove();
    if (dice.length) form.prepend((tray = newTray(form, turn)));
  }
  const left = turn ? turn.rolls_left : 0;
  const count = $(".roll-count", form);
  if (count) count.textContent = `${turn ? turn.rolls : 0}/${(turn ? turn.rolls : 0) + left}`;
  const button = $(".roll-button", form);
  if (button) button.disabled = left === 0;
  if (tray) $$("input", tray).forEach((box) => (box.disabled = left === 0));
}

function newTray(form, turn) {
  const tray = document.createElement("fieldset");
  tray.className = "tray";
  tray.dataset.rolled = String(turn.rolls);
  const legend = document.createElement("legend");
  legend.className = "sr-only";
  legend.textContent = form.dataset.keepWords;
  tray.append(legend);
  turn.dice.forEach((value, i) => {
    const label = document.createElement("label");
    label.className = "die-toggle";
    const box = Object.assign(document.createElement("input"), { type: "checkbox", name: "keep", value: String(value) });
    box.className = "sr-only";
    box.dataset.die = String(i);
    const die = document.createElement("span");
    die.className = `die face-${value}`;
    die.setAttribute("aria-hidden", "true");
    for (let pip = 0; pip < value; pip += 1) die.append(document.createElement("i"));
    const said = document.createElement("span");
    said.className = "sr-only";
    said.textContent = form.dataset.dieWords.replace("{n}", String(i + 1)).replace("{face}", String(value));
    const held = document.createElement("span");
    held.className = "held-tag";
    held.setAttribute("aria-hidden", "true");
    held.textContent = form.dataset.heldWords;
    label.append(box, die, said, held);
    tray.append(label);
  });
  return tray;
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
  const undo = $(".undo button", board());
  const { type, player, cell, dice } = refused.event;
  const announced = type === "announce" && wordsOnce() && cellWords.w.announce ? cellWords.w.announce[cell] : null;
  const what = type === "undo"
    ? (undo ? undo.textContent.trim() : "↶")
    : `${player}: ${type === "roll" ? dice.join(" ") : announced || cell.replace(/^main\./, "")}`;
  said.textContent = `${what} – ${refused.refusal.words}`;
  const again = document.createElement("button");
  again.type = "button";
  again.textContent = words().again;
  again.addEventListener("click", () => act.again(refused.id));
  const drop = document.createElement("button");
  drop.type = "button";
  drop.textContent = words().drop;
  drop.addEventListener("click", () => act.drop(refused.id));
  // An undo takes back whatever came last: sent again on a game another device moved on, it
  // would take back that device's change. It is only dropped; the player undoes again, seeing
  // the game as it is now.
  if (type === "undo") box.replaceChildren(said, drop);
  else box.replaceChildren(said, again, drop);
}
