// The board's answers: the board asked again (a preview of the dice typed, or the newest
// version), and which answers are drawn at all (before every swap of #tafel).
import { $, board, diceText, gameElement, mode, pointsText, rollsInput, turnKey, typedNow, version } from "./dom.js";
import { editRefused } from "./edit.js";
import { state, update } from "./state.js";

function boardUrl() {
  const params = new URLSearchParams();
  if (mode() === "dice" && diceText().length === 5) params.set("dice", diceText());
  if (pointsText() !== "") params.set("points", pointsText());
  // Which roll made them: Jamb's Kenta and the first-roll columns score by it.
  if (rollsInput()) params.set("rolls", rollsInput().value);
  // The turn the dice were typed in: the server previews them only for that turn.
  params.set("turn", turnKey());
  return `/g/${state.game.id}/board?${params}`;
}

/** Asks for the board (with the preview of what is typed); one request at a time, and one
 * more after it where another was wanted meanwhile. */
export function refresh() {
  if (state.offline.active) {
    // No server: the device draws it (tafel/offline.js listens: it imports this module, so this
    // module does not import it back).
    document.dispatchEvent(new CustomEvent("tafel:draw-offline"));
    return Promise.resolve();
  }
  if (state.sync.refreshing) {
    update({ sync: { again: true } });
    return state.sync.refreshing;
  }
  const refreshing = window.htmx
    .ajax("GET", boardUrl(), { target: "#tafel", swap: "innerHTML" })
    .catch(() => {})
    .finally(() => {
      update({ sync: { refreshing: null } });
      if (state.sync.again) {
        update({ sync: { again: false } });
        refresh();
      }
    });
  update({ sync: { refreshing } });
  return refreshing;
}

export function schedulePreview() {
  clearTimeout(state.sync.previewTimer);
  update({ sync: { previewTimer: setTimeout(refresh, 90) } });
}

// -- before every swap of the board: which answers are drawn at all
const emptyNotice = /id="notice"[^>]*>\s*<\/p>/;

function beforeSwap(event) {
  const target = event.detail.target;
  if (!target || target.id !== "tafel") return;
  const response = event.detail.serverResponse || "";
  const attribute = (name) => {
    const match = new RegExp(`id="board"[^>]*?data-${name}="([^"]*)"`).exec(response);
    return match ? match[1] : null;
  };
  const incoming = Number(attribute("version"));
  const verb = event.detail.requestConfig && event.detail.requestConfig.verb;
  const status = event.detail.xhr ? event.detail.xhr.status : 200;
  // A refresh that was sent before another answer replaced the board would swap
  // into a board no longer on the page, or show an older version: drop it.
  if (!target.isConnected || (attribute("version") !== null && incoming < version())) {
    event.detail.shouldSwap = false;
    if (!target.isConnected) schedulePreview();
    return;
  }
  // A refused correction: the board has not changed, so it is not drawn again; the
  // dialog stays open with the reason in it (the view part fits the same version).
  const dialog = $("#edit-dialog");
  const elt = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (dialog && dialog.open && elt && dialog.contains(elt) && status >= 400 && incoming === version()) {
    event.detail.shouldSwap = false;
    const said = new DOMParser().parseFromString(response, "text/html").getElementById("notice");
    editRefused(said ? said.textContent.trim() : "");
    return;
  }
  // A preview of dice no longer typed (or typed for another turn, or for another roll
  // where the rules ask which roll it was: data-roll) is not shown.
  if (verb === "get" && attribute("turn") === turnKey()) {
    const now = typedNow();
    const number = (text) => (text === "" || isNaN(Number(text)) ? text : String(Number(text)));
    const roll = attribute("roll") || "";
    const wantedRoll = roll && rollsInput() ? rollsInput().value : roll;
    const wanted = `${now.dice}|${number(now.points)}|${wantedRoll}`;
    const shown = `${attribute("dice") || ""}|${number(attribute("points") || "")}|${roll}`;
    if (shown !== wanted && state.entry.mismatch !== wanted) {
      update({ entry: { mismatch: wanted } }); // once: a board that cannot show these values is shown as it is
      event.detail.shouldSwap = false;
      schedulePreview();
      return;
    }
    update({ entry: { mismatch: null } });
  }
  // The version already drawn, with the same preview and no message: the live update
  // showed this change before its own answer came. Drawing it again would drop what was
  // tapped in between (a die held in the tray). The same dice of another roll are another
  // preview (Jamb's Kenta, the first-roll columns): a tap on 1 2 3 after the preview
  // was dropped here, and the cells kept the third roll's values.
  const same = incoming === version() && board().dataset.kept === undefined && attribute("turn") === turnKey() &&
    attribute("dice") === board().dataset.dice && attribute("points") === board().dataset.points &&
    attribute("roll") === (board().dataset.roll ?? null);
  if (same && status < 400 && emptyNotice.test(response)) {
    event.detail.shouldSwap = false;
    return;
  }
  const active = document.activeElement;
  const game = gameElement();
  const tray = Array.from(board().querySelectorAll(".tray input[data-die]"));
  const rolled = tray.length ? tray[0].closest(".tray").dataset.rolled : null;
  update({
    view: {
      kept: active && active !== document.body && game.contains(active)
        ? { el: active, start: active.selectionStart ?? null, end: active.selectionEnd ?? null }
        : null,
      held: tray.length
        ? { turn: turnKey(), rolled, dice: tray.map((i) => i.value).join(""), on: tray.filter((i) => i.checked).map((i) => i.dataset.die) }
        : null,
    },
  });
}

export function setUpSync() {
  update({ sync: { latest: version() } });
  document.addEventListener("htmx:beforeSwap", beforeSwap);
}
