// A change on its way: an entry, a roll, an undo or a correction. Every change the board
// sends leaves through `sending` below (htmx posts the forms; this is where the page learns
// of it), and nothing else is sent until the board shows its outcome. The one place where
// an entry leaves for the server; one made while the server cannot be reached is kept
// by tafel/offline.js, whose listener comes first.
import { gameElement, turnKey, version } from "./dom.js";
import { storeKey } from "./dice.js";
import { refresh } from "./sync.js";
import { newChange, state, update } from "./state.js";

/** A request of the board that changes the game (not a GET of the board or the Tipp). */
function isChange(event) {
  const config = event.detail.requestConfig;
  return !!config && config.verb && config.verb !== "get" && gameElement().contains(event.detail.elt);
}

// The change is done when the board shows a newer version than the one it was sent at
// (the live update often shows it before the change's own answer comes), or when its
// answer has ended (loaded, failed or timed out), told by the request itself: a live
// update may have replaced the tapped form, and htmx then has no element on the page to
// send htmx:afterRequest to.
function sending(event) {
  if (event.defaultPrevented || !isChange(event)) return; // kept on the device (tafel/offline.js)
  const change = newChange(version());
  update({ change, entry: { changeKey: storeKey() } });
  gameElement().setAttribute("aria-busy", "true");
  // Where the focus goes once the change shows is decided now, once, by the page's own
  // rule (docs/board.md): not by whichever answer happens to draw the new turn first.
  const form = event.detail.elt.closest ? event.detail.elt.closest("form") : null;
  const turnControl = form && (form.matches(".roll, .undo") || form.id === "enter-form");
  if (turnControl) {
    const to = !state.taps.byKeyboard ? "off" : form.matches(".roll") ? "roll" : "entry";
    update({ view: { focus: { since: version(), turn: turnKey(), to } } });
  }
  event.detail.xhr.addEventListener(
    "loadend",
    () => {
      const waited = state.change === change;
      changeDone(change);
      // An answer that drew nothing (lost, refused, or older than a change heard meanwhile)
      // while the live update left the change to it.
      if (waited && version() < state.sync.latest) refresh();
    },
    { once: true },
  );
}

export function changeDone(change) {
  if (state.change !== change) return;
  const { lastTap, byKeyboard } = state.taps;
  update({
    change: null,
    taps: { settle: lastTap && !byKeyboard ? { ...lastTap, until: performance.now() + 700 } : null },
  });
  gameElement().removeAttribute("aria-busy");
  // A change that was refused leaves the board where it was: so does the focus.
  if (state.view.focus && state.view.focus.since >= version()) update({ view: { focus: null } });
}

export function setUpChanges() {
  document.addEventListener("htmx:beforeRequest", sending);
}
