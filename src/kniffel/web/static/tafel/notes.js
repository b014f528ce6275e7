// The board's words while the page draws the sheet itself (tafel/offline.js, tafel/paint.js;
// docs/decisions.md, "The board offline"): the rules in the page answer a refusal's code and
// params and the notes' numbers (kniffel.offline); the words are the server's, given with the
// page (data-offline-words: kniffel.web.present.offline_words). tests/e2e/test_offline_words.py
// holds what the page says offline equal to what the server says.
import { refusalWords } from "/static/device/words.js";
import { $, $$, board } from "./dom.js";

let words; // the page's offline words, read once (null on a page without them)

function offlineWords() {
  if (words === undefined) {
    const live = $("[data-live-state]");
    words = live && live.dataset.offlineWords ? JSON.parse(live.dataset.offlineWords) : null;
  }
  return words;
}

/** A refusal of the rules in the page ({ code, params, message }) in the page's words, as the
 * server words it; the engine's plain message where the page has no words for it. */
export function said(refusal) {
  const w = offlineWords();
  return w ? refusalWords(w.refusals, w.variant, refusal) : refusal.message;
}

const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));

// The undo note (kniffel.board.turn_view.undo_view): what an undo takes back, and who moves then.
function undoNote(answer, notes) {
  if (answer.undo) return said(answer.undo);
  const taken = answer.undo_note;
  if (!taken) return "";
  let what;
  if (taken.kind === "roll") what = fill(notes.undo.roll, { name: taken.player, dice: taken.dice.join(" ") });
  else {
    let where = notes.cells[taken.cell] || taken.cell;
    if (taken.points !== null) where += ` (${new Intl.NumberFormat(offlineWords().refusals.lang).format(taken.points)})`;
    what = fill(notes.undo[taken.kind], { name: taken.player, cell: where });
  }
  const note = fill(notes.undo.note, { what });
  return taken.after ? `${note} ${fill(notes.undo[taken.after], { name: taken.next })}` : note;
}

// The lines above the dice field when the dice typed (or rolled) are a further Kniffel, as
// board.html draws them (kniffel.board.turn_view, from kniffel.offline.extra_kniffel).
function extraKniffel(answer, notes) {
  const entry = $("[data-entry]", board());
  if (!entry) return;
  let box = $(".extra-kniffel", entry);
  const note = notes.extra ? answer.extra_kniffel : null; // none on a Jamb sheet
  if (!note) return void (box && box.remove());
  const extra = notes.extra;
  const lines = [extra.title];
  if (note.bonus !== null) lines.push(note.bonus ? fill(extra.bonus, { n: String(note.bonus) }) : extra.no_bonus);
  if (note.joker === "matching") {
    lines.push(fill(extra.matching, { cells: note.cells.map((cell) => notes.cells[cell] || cell).join(" / ") }));
  } else lines.push(extra[note.joker]);
  if (!box) {
    box = Object.assign(document.createElement("div"), { className: "extra-kniffel" });
    box.setAttribute("role", "note");
    entry.prepend(box);
  }
  box.replaceChildren(...lines.map((line, i) => {
    const p = document.createElement("p");
    if (i === 0) p.append(Object.assign(document.createElement("strong"), { textContent: line }));
    else p.textContent = line;
    return p;
  }));
}

/** The notes under and beside the sheet drawn from `answer` (kniffel.offline.sheet_state): each
 * column's upper-bonus note, the rolls of the turn, the line under virtual dice, the undo note,
 * and the lines of a further Kniffel above the dice field. */
export function paintNotes(answer) {
  const w = offlineWords();
  if (!w) return;
  const { notes } = w;
  const here = board();
  for (const sheet of answer.sheets) {
    const section = document.getElementById(`sheet-${sheet.seat}`);
    const cells = section ? $$("tfoot tr.bonus td", section) : [];
    Object.values(sheet.columns).forEach((column, i) => {
      const td = cells[i];
      const note = td && $(".bonus-note", td);
      if (!note) return;
      const [state, n] = column.bonus_note;
      note.textContent = fill(notes.bonus[state], { n: String(n) });
      td.classList.toggle("reached", state === "reached");
    });
  }
  const virtual = here.dataset.mode === "virtual";
  const rolls = answer.turn ? answer.turn.rolls : 0;
  const line = $(".status .turn-rolls", here);
  if (line) {
    line.textContent = virtual ? notes.rolls[rolls] : notes.physical;
    line.dataset.rolls = String(rolls);
  }
  const hint = $("form.roll .hint", here);
  if (hint) hint.textContent = notes.hints[rolls];
  const undo = $(".undo-note", here);
  if (undo) undo.textContent = undoNote(answer, notes);
  extraKniffel(answer, notes);
}
