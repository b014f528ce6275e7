// Corrections: the dialog belongs to the version it was opened at; a refusal is said inside
// it, which stays open with the value to change; it closes once the board shows another
// version (its own change, or another's).
import { $, version } from "./dom.js";
import { update } from "./state.js";

const dialog = () => $("#edit-dialog");
let editError = null; // the dialog's own message line, made once with the page

export function openEdit(cell) {
  const box = dialog();
  if (!box) return;
  $("[data-edit-label]", box).textContent = cell.dataset.label;
  $("[data-edit-version]", box).value = version();
  $("[data-edit-player]", box).value = cell.dataset.player;
  $("[data-edit-cell]", box).value = cell.dataset.cell;
  const points = $("[data-edit-points]", box);
  points.value = cell.dataset.points;
  const possible = $("[data-edit-possible]", box);
  possible.textContent = possible.dataset.template.replace("{values}", cell.dataset.possible);
  editError.hidden = true;
  editError.textContent = "";
  box.showModal();
  update({ view: { dialog: { version: version() } } });
  points.focus();
  points.select();
}

export function editRefused(text) {
  editError.textContent = text;
  editError.hidden = !text;
  const points = $("[data-edit-points]", dialog());
  points.focus();
  points.select();
}

/** A correction dialog opened at another version would only be refused: it closes. */
export function closeStaleEdit() {
  const box = dialog();
  if (box && box.open && $("[data-edit-version]", box).value !== String(version())) box.close();
}

export function setUpEdit() {
  const box = dialog();
  if (!box) return;
  editError = document.createElement("p");
  editError.className = "message error edit-error";
  editError.setAttribute("role", "alert");
  editError.hidden = true;
  $("[data-edit-possible]", box).after(editError);
  $("[data-close-dialog]", box).addEventListener("click", () => box.close());
  box.addEventListener("close", () => update({ view: { dialog: null } }));
  $("[data-edit-points]", box).addEventListener("input", () => (editError.hidden = true));
}
