// Die Tafel in the browser: typed dice, sheet tabs, corrections, live updates, the Tipp and
// the win chances. The server renders every state; the page only sends what the player
// types and keeps every open device on the newest version of the game. Plain ES modules,
// one state (tafel/state.js; docs/architecture.md, "The page's modules").
import { $, board, gameElement, readGame } from "./dom.js";
import { setUpChances } from "./chances.js";
import { setUpChanges } from "./changes.js";
import { startEntry, setUpDice } from "./dice.js";
import { setUpDraw } from "./draw.js";
import { setUpEdit } from "./edit.js";
import { setUpLive } from "./live.js";
import { setUpOffline } from "./offline.js";
import { setUpNewGame, showRefusal } from "./newgame.js";
import { notice, setUpNotice } from "./notice.js";
import { announce, selectSheet, setUpSheets, showDue } from "./sheet.js";
import { setUpSync } from "./sync.js";
import { setUpTaps } from "./taps.js";
import { setUpTipp } from "./tipp.js";
import { update } from "./state.js";

document.documentElement.classList.add("js");

// htmx "settles" a swap by giving the swapped elements the server's class and style again
// about 20 ms later, which undid the sheet chosen and the Tipp marks this page draws
// (docs/decisions.md, "One client state"): nothing of the board is settled.
// htmx also binds the swapped-in forms and buttons (hx-post) only when it settles: a tap in
// between was the browser's own form post, which left the page (a cell tapped the moment its
// preview showed, issue 19). With nothing to settle, the swap settles at once.
if (window.htmx) {
  window.htmx.config.attributesToSettle = [];
  window.htmx.config.defaultSettleDelay = 0;
}

// The page's state belongs to the game version and the player to move (docs/board.md):
// typed dice, previews, the Tipp and the correction dialog of an older version or another
// player are dropped when the board moves on, and taps wait while a change is on its way.
function setUpBoard() {
  update({ game: readGame() });
  setUpNotice();
  setUpTaps();
  setUpEdit();
  setUpDice();
  setUpSheets();
  setUpOffline(); // before setUpChanges: an entry kept on the device does not leave
  setUpChanges();
  setUpSync();
  setUpDraw();
  selectSheet(board().dataset.front, false);
  startEntry();
  const said = $("#notice", board());
  if (said && said.textContent.trim()) notice(said.textContent.trim(), said.classList.contains("error"), null);
  announce();
  showDue();
  setUpLive();
}

// The play link carries the key in its fragment (#key=…), which no browser sends and so no
// log keeps; the page trades it for the key cookie once and reloads as a playing device.
function takeKey(game) {
  const match = /^#key=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  if (!match) return false;
  history.replaceState(null, "", location.pathname + location.search);
  fetch(`/g/${game.dataset.game}/key`, {
    method: "POST",
    credentials: "same-origin",
    body: new URLSearchParams({ key: match[1] }),
  })
    .then((answer) => {
      if (answer.ok) {
        // A new load of the page, not a reload: a reload puts the scroll position back
        // once the page has loaded, over the due cells the board has just scrolled into view.
        location.replace(location.pathname + location.search);
        return null;
      }
      return answer.text();
    })
    .then((text) => {
      if (text === null) return;
      setUpBoard(); // a wrong key: this device watches
      const box = $("#toast") || $("#notice");
      if (text && box) {
        box.textContent = text;
        box.classList.add("error");
      }
    })
    .catch(() => setUpBoard());
  return true;
}

function start() {
  showRefusal();
  const form = $("[data-new-game]");
  if (form) {
    setUpNewGame(form);
    form.dataset.ready = ""; // the form's script is in place (tests wait for it)
  }
  setUpTipp();
  setUpChances();
  const game = gameElement();
  if (game && takeKey(game)) return;
  if (game) setUpBoard();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
