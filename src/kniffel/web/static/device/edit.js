// Corrections on a game kept on this device (issue 31, item 5; docs/board.md, "Korrigieren" and
// "Installieren und ohne Netz"): a tap on a filled cell opens the board's own correction dialog
// (templates/edit_dialog.html, opened and worded by tafel/edit.js, as on the board), and
// "Speichern" or "Feld leeren" makes the record's `edit` or `clear` event, as the server makes it
// (kniffel.web.pages.moves). device/game.js checks it by the rules in the page before it is kept;
// a refusal is said inside the dialog, which stays open with the value to change.
import { editRefused, openEdit, setUpEdit } from "/static/tafel/edit.js";

const box = () => document.getElementById("edit-dialog");

/** The dialog fitted to the game's preset (`template`: its blank sheet): the points' bound and
 * what a cleared cell becomes (due again in a column played in order, else open). */
function fit(template) {
  const points = box().querySelector("[data-edit-points]");
  if (template.dataset.pointsMax) points.max = template.dataset.pointsMax;
  const note = box().querySelector("#clear-note");
  note.textContent = template.dataset.arrows === "true" ? note.dataset.arrows : note.dataset.free;
}

/** Sets up the dialog for the game of `template`; `keep(event, refused)` checks the event and
 * keeps it (true), or hands its refusal's words to `refused`. */
export function setUpCorrections(template, keep) {
  const dialog = box();
  setUpEdit();
  fit(template);
  dialog.querySelector("[data-edit-form]").addEventListener("submit", async (event) => {
    event.preventDefault();
    const field = (name) => dialog.querySelector(`[data-edit-${name}]`).value;
    const cleared = !!event.submitter && "editClear" in event.submitter.dataset;
    const change = { type: cleared ? "clear" : "edit", player: field("player"), cell: field("cell") };
    if (!cleared) change.points = field("points") === "" ? null : Number(field("points"));
    if (await keep(change, editRefused)) dialog.close();
  });
}

/** A tap on a cell: a filled one opens the correction dialog (true), any other is an entry. */
export function correct(button) {
  if (!("edit" in button.dataset) || !box()) return false;
  openEdit(button);
  return true;
}
