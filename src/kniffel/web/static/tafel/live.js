// Live: every change on any device appears here within a second. The page listens on
// /api/games/{id}/live and asks for the board when a newer version is heard of
// (docs/board.md); the socket opens again after a loss, later each time.
import { $, gameElement, version } from "./dom.js";
import { sendKept, startRules } from "./offline.js";
import { refresh } from "./sync.js";
import { state, update } from "./state.js";

// How long the live update leaves this device's own change to its answer.
const OWN_ANSWER_MS = 3000;

function heard(event) {
  let message;
  try {
    message = JSON.parse(event.data);
  } catch (error) {
    return;
  }
  if (message.type === "revanche") {
    followRevanche(message);
    return;
  }
  if (message.type === "tables") {
    // The game's solver tables are built: a Tipp panel that waits asks at once (tafel/tipp.js).
    update({ sync: { tables: state.sync.tables + 1 } });
    return;
  }
  if (message.type !== "state") return;
  update({ sync: { latest: Math.max(state.sync.latest, message.version) } });
  if (message.version <= version()) return;
  // This device's own change: its answer brings the board, and a third request for it
  // (preview, entry, refresh) only costs the server and swaps the page twice. Only if that
  // answer is slow does the live update draw the change (docs/board.md). The wait is for
  // this change alone: a later change heard meanwhile has asked for the board itself.
  const own = state.change;
  if (own && message.version === own.version + 1) {
    setTimeout(() => {
      if (version() <= own.version) refresh();
    }, OWN_ANSWER_MS);
    return;
  }
  refresh();
}

// A Revanche of this game started (on any device): go to it. The address hands this device
// the new game's key where it holds this one's (docs/board.md, "Revanche"). A page drawn
// after the Revanche shows its link instead and stays (someone looking back).
function followRevanche(message) {
  if ($("[data-revanche]")) return;
  if (typeof message.url === "string" && message.url.startsWith("/g/")) location.assign(message.url);
}

function connect() {
  const game = gameElement();
  const liveText = $("[data-live-state]");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${state.game.id}/live`);
  update({ sync: { socket } });
  socket.addEventListener("open", () => {
    update({ sync: { delay: 400 } });
    liveText.hidden = true;
    game.dataset.live = "open";
    sendKept(); // the entries kept while the server could not be reached (tafel/offline.js)
  });
  socket.addEventListener("message", heard);
  socket.addEventListener("close", (event) => {
    game.dataset.live = "closed";
    update({ sync: { socket: null } });
    if (event.code === 4404) return;
    startRules(); // the network may be gone: the sheet may have to be drawn on the device
    liveText.textContent = liveText.dataset.offline;
    liveText.hidden = false;
    setTimeout(connect, state.sync.delay);
    update({ sync: { delay: Math.min(state.sync.delay * 2, 8000) } });
  });
}

function wake() {
  if (state.sync.socket) return;
  update({ sync: { delay: 400 } });
  connect();
}

export function setUpLive() {
  window.addEventListener("online", wake);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") wake();
  });
  connect();
}
