// Messages: in one live region that stays on the page (#toast), shown where the finger was.
import { $, board, version } from "./dom.js";
import { update } from "./state.js";

const toast = () => $("#toast");

export function notice(text, isError, anchor) {
  const box = toast();
  if (!box) return;
  box.textContent = text;
  box.classList.toggle("error", !!isError);
  update({ view: { noticeVersion: version() } });
  place(anchor);
}

export function clearNotice() {
  const box = toast();
  if (box && box.textContent) box.textContent = "";
}

function place(anchor) {
  const box = toast();
  if (!box || !box.textContent) return;
  box.style.top = "";
  const height = box.offsetHeight;
  const status = $(".status", board());
  const floor = status ? Math.max(8, status.getBoundingClientRect().bottom + 6) : 8;
  const panel = $(".entry", board());
  const panelTop = panel && getComputedStyle(panel).position === "fixed"
    ? panel.getBoundingClientRect().top : window.innerHeight;
  const ceiling = Math.max(floor, panelTop - height - 8);
  let top = floor;
  if (anchor && anchor.isConnected) {
    const rect = anchor.getBoundingClientRect();
    top = rect.bottom + 6 > ceiling ? rect.top - height - 6 : rect.bottom + 6;
  }
  box.style.top = `${Math.round(Math.min(Math.max(top, floor), ceiling))}px`;
}

/** The offline message (data-offline of the live state's line), where the finger was. */
export function offline(anchor) {
  const live = $("[data-live-state]");
  notice((live && live.dataset.offline) || "", true, anchor);
}

// A message never takes a tap meant for what lies under it: taps go through it, and the
// next touch anywhere clears it (a tap that has something to say says it again).
export function setUpNotice() {
  const box = toast();
  if (box) box.style.pointerEvents = "none";
  document.addEventListener("pointerdown", clearNotice, true);
  window.addEventListener("resize", () => place(null));
  document.addEventListener("htmx:sendError", () => offline(null));
}
