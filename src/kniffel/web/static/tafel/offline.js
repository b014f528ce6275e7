// The board offline (issue 31, items 2 and 4; docs/decisions.md, "The board offline"; docs/
// board.md, "Installieren und ohne Netz"). While the network is there the page keeps the game's
// record on the device and fetches the rules' files (static/rules.js); Python starts, in a Web
// Worker, at the first sign of trouble. A change whose post finds no server (an entry, an announcement, an undo, a
// correction, a cleared cell, or a roll of virtual dice, then rolled here) is kept (static/
// pending.js) with the version it was made on, and the page draws the sheet itself from the
// record and every kept change (kniffel.offline in Pyodide); each is marked "noch nicht
// gesendet" and counted in the status line. When the server answers again (the live socket
// opens, or `online`) the kept changes are sent in order and the server draws the board; a
// refusal stays beside its change with "enter again" and "drop".
import { openPending, postForm } from "/static/pending.js";
import { fetchRules, loadRules } from "/static/rules.js";
import { $, asksRoll, board, diceText, gameElement, mode, pointsText, readGame, rollsInput } from "./dom.js";
import { clearEntry, restore } from "./dice.js";
import { eventOf, fieldsOf, keptKind, rolledHere } from "./kept.js";
import { editRefused } from "./edit.js";
import { said } from "./notes.js";
import { paint } from "./paint.js";
import { notice, offline } from "./notice.js";
import { refresh } from "./sync.js";
import { state, update } from "./state.js";

const FETCH_AFTER_MS = 5000; // the rules' files are fetched this long after the page opened
let store = null; // the game's kept entries (static/pending.js), opened once
let sendingKept = false;
let sendAgain = false; // asked to send while a send was under way: once more after it
let keeping = Promise.resolve(); // the changes being kept, one after the other
let drawing = 0; // the newest sheet asked for: only its answer is drawn

// -- the game's record on the device (IndexedDB "tafel-records", one object per game)
function records() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("tafel-records", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("records", { keyPath: "game" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function onDevice(access, act) {
  const db = await records();
  return new Promise((resolve, reject) => {
    const request = act(db.transaction("records", access).objectStore("records"));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** The server's record of the game, kept on the device with its version. */
async function keepRecord() {
  const answer = await fetch(`/api/games/${state.game.id}/record`, { credentials: "same-origin" });
  if (!answer.ok) return;
  const record = await answer.json();
  const kept = { game: state.game.id, version: record.events.length, record };
  await onDevice("readwrite", (s) => s.put(kept));
  update({ offline: { record } });
  gameElement().dataset.record = String(kept.version); // kept on the device (tests wait for it)
}

const waitingOf = (kept) => kept.filter((entry) => entry.refusal === null); // a refused one is not drawn

// Keeps a change made while the server cannot be reached: checked first by the rules here (a
// change they refuse is said, in the correction dialog or beside the finger, and not kept).
// "Rückgängig" takes back the last change kept here, if any (it is dropped: nothing of it went
// to the server; an entry's dice come back into the dice field, as the server gives them back);
// else the undo is kept, for an event the server holds. One change at a time, in the order made:
// each is checked on the ones kept before it (the rules answer later, in their worker).
function keep(config) {
  const kept = keeping.then(() => keepOne(config));
  keeping = kept.catch(() => {}); // the next change is kept all the same
  return kept;
}

async function keepOne(config) {
  const kind = keptKind(config);
  let fields = fieldsOf(config);
  const kept = await store.list();
  const rules = await loadRules();
  const record = state.offline.record;
  const waiting = waitingOf(kept).map((entry) => entry.event);
  const diceMode = { dice_mode: board().dataset.mode || "physical" };
  if (kind === "undo") {
    const now = await rules.sheet(record, waiting, diceMode);
    if (now.undo) return notice(said(now.undo), true, null); // a roll of virtual dice stands
    const last = kept[kept.length - 1];
    if (last && last.refusal === null && last.event.type !== "undo") {
      await store.drop(last.id);
      const { dice, points } = last.event;
      if ((dice || points !== undefined) && $("#dice-entry")) {
        backIntoTheField(last, await rules.sheet(record, waiting.slice(0, -1), {}));
      }
      return drawKept();
    }
  }
  if (kind === "roll") fields = rolledHere(fields);
  const event = eventOf(kind, fields);
  const tried = await rules.sheet(record, [...waiting, event], diceMode);
  const refused = tried.error || (tried.refused || []).find((r) => r.index === waiting.length);
  if (refused) {
    const dialog = $("#edit-dialog");
    if (dialog && dialog.open) return editRefused(said(refused));
    return notice(said(refused), true, null);
  }
  await store.add({ path: config.path, fields, event, version: Number(fields.version) });
  if (kind === "enter" && $("#dice-entry")) clearEntry();
  const undone = kind === "undo" ? (await rules.sheet(record, waiting, diceMode)).last : null;
  if (undone && undone.type === "enter" && (undone.dice || undone.points !== undefined) && $("#dice-entry")) {
    // The entry taken back gives its dice (or points, and roll) back, as the server's undo does.
    backIntoTheField({ event: undone, fields: { rolls: undone.roll || "" } }, tried);
  }
  const dialog = $("#edit-dialog");
  if (dialog && dialog.open) dialog.close();
  await drawKept();
}

// Before a change leaves: while the page draws the sheet itself, a change is kept at once and
// anything else waits for the server (it is said so).
function beforeChange(event) {
  if (!state.offline.active || !event.detail.requestConfig) return;
  const config = event.detail.requestConfig;
  const elt = event.detail.elt;
  const dialog = $("#edit-dialog");
  if (config.verb === "get" || !(gameElement().contains(elt) || (dialog && dialog.contains(elt)))) return;
  event.preventDefault();
  if (keptKind(config)) keep(config);
  else offline(null);
}

// A request that found no server (a change, or the board asked for a preview): from now on the
// device draws the sheet, and the change is kept. Only with the record on the device.
function lost(event) {
  const config = event.detail.requestConfig;
  const asked = !!config && config.verb === "get" && (config.path || "").startsWith(`/g/${state.game.id}/board`);
  if (!state.offline.record || !(asked || keptKind(config))) return;
  update({ offline: { active: true } });
  if (asked) drawKept().catch(() => {});
  else keep(config);
}

function typedNow() {
  const typed = { dice_mode: board().dataset.mode || "physical" };
  if (mode() === "dice" && diceText().length === 5) typed.dice = diceText();
  else if (pointsText() !== "" && !isNaN(Number(pointsText()))) typed.points = Number(pointsText());
  if (asksRoll() && rollsInput() && rollsInput().value) typed.roll = Number(rollsInput().value);
  return typed;
}

/** The sheet drawn on the device: the record and every kept entry (and a preview of what is
 * typed). Asked again before the answer came (a key typed, an entry kept), only the newest
 * answer is drawn. */
export async function drawKept() {
  const mine = ++drawing;
  const rules = await loadRules();
  const kept = await store.list();
  const record = state.offline.record;
  if (!record) return;
  const waiting = waitingOf(kept);
  const answer = await rules.sheet(record, waiting.map((entry) => entry.event), typedNow());
  if (answer.error || mine !== drawing) return;
  paint(answer, kept, { again: enterAgain, drop: (id) => store.drop(id).then(sendKept) });
  update({ offline: { kept: kept.length }, game: readGame() });
}

// "Enter again". Where the rules here take the refused entry on the game the server has now
// (its player is to move, its cell open), one tap: it and the ones after it are sent on the
// server's version. Else (another player is to move now, or the cell is taken) the server would
// refuse it or make it the entry of the player to move: the entries kept after it are sent, and
// its dice (or points, and roll) come back into the entry panel for the turn then, where the
// player taps the cell they belong in.
async function enterAgain(id) {
  const kept = await store.list();
  const from = kept.findIndex((entry) => entry.id === id);
  if (from < 0) return;
  const refused = kept[from];
  const record = state.offline.record;
  const rules = await loadRules();
  const taken = await rules.sheet(record, [refused.event], {});
  if (!taken.error && !taken.refused.length) {
    for (const [i, entry] of kept.slice(from).entries()) await store.again(entry.id, record.events.length + i);
    return sendKept();
  }
  if (refused.event.type !== "enter") {
    // A correction, an undo or an announcement the rules refuse on the game now: said again; the
    // player drops it.
    return notice(said(taken.error || taken.refused[0]), true, null);
  }
  await store.drop(id);
  await sendKept(); // the entries kept after it go on (or are refused in their turn)
  const waiting = (await store.list()).filter((entry) => entry.refusal === null);
  backIntoTheField(refused, await rules.sheet(state.offline.record, waiting.map((entry) => entry.event), {}));
  refresh(); // the preview of the dice given back
}

function backIntoTheField(entry, now) {
  const { dice, points } = entry.event;
  const typed = {
    dice: dice ? dice.join("") : "",
    points: points === undefined ? "" : String(points),
    mode: dice ? "dice" : "points",
    rolls: entry.fields.rolls || "",
  };
  // Kept for that turn, as typed dice are (tafel/dice.js): the board drawn next (the server's,
  // or the device's) finds them there.
  const mover = now.to_move === null ? "" : now.players[now.to_move].name;
  try {
    sessionStorage.setItem(`tafel:${state.game.id}:${now.turn_key}:${mover}`, JSON.stringify(typed));
  } catch (error) {
    // private mode without storage: the field below still has them
  }
  restore(typed);
}

/** Sends the kept entries in order once the server answers; then the server draws the board.
 * Asked while a send is under way (an entry entered again, or dropped, while the socket that
 * opened again still sends), it sends once more after that one: the send under way may have
 * read the kept entries before the tap. */
export async function sendKept() {
  if (!store) return;
  if (sendingKept) {
    sendAgain = true;
    return;
  }
  sendingKept = true;
  sendAgain = false;
  try {
    if (!(await store.list()).length) {
      if (!state.offline.active && board().dataset.kept !== "true") return;
      update({ offline: { active: false } });
      return void refresh();
    }
    const result = await store.send(postForm);
    if (result.busy) return void setTimeout(sendKept, 2000); // another tab sends them: look again
    if (result.offline) return;
    await keepRecord();
    if (result.refused) {
      await drawKept();
      notice(result.refused.refusal.words, true, null);
      return;
    }
    update({ offline: { active: false, kept: 0 } });
    refresh();
  } catch (error) {
    // no server after all: the entries stay kept for the next try
  } finally {
    sendingKept = false;
    if (sendAgain) sendKept();
  }
}

export async function setUpOffline() {
  // Only where this device enters dice, typed or virtual (a player's link, a game not over): not
  // a watcher.
  if (!($("#dice-entry") || $("form.roll")) || !window.indexedDB) return;
  document.addEventListener("htmx:beforeRequest", beforeChange);
  document.addEventListener("htmx:sendError", lost);
  window.addEventListener("online", sendKept);
  document.addEventListener("tafel:draw-offline", () => drawKept().catch(() => {})); // tafel/sync.js
  // The server's board, once drawn, is the record to keep (while nothing is kept).
  document.addEventListener("htmx:afterSwap", (event) => {
    if (event.detail.target && event.detail.target.id === "tafel" && !state.offline.active) keepRecord().catch(() => {});
  });
  store = await openPending(state.game.id);
  const kept = await onDevice("readonly", (s) => s.get(state.game.id)).catch(() => null);
  if (kept) update({ offline: { record: kept.record } });
  const online = await keepRecord().then(() => true, () => false);
  const waiting = (await store.list()).length;
  if (waiting && !online) {
    update({ offline: { active: true } });
    await drawKept();
  } // a reload offline: the sheet from the device
  else if (waiting) await sendKept();
  // While the network is there the rules' files come onto the device; Python starts (seconds, in
  // its worker: static/rules.js) at the first sign of trouble: `offline`, the live socket lost, or
  // a request that found no server.
  // A few seconds after the page opened, so that its first taps do not share the network and
  // the worker with 14 MB.
  setTimeout(() => fetchRules().catch(() => {}), FETCH_AFTER_MS);
  window.addEventListener("offline", startRules);
}

/** Starts the rules in the page (tafel/live.js calls it when the live socket is lost). */
export function startRules() {
  if (!store) return;
  loadRules().then(() => (gameElement().dataset.rules = "ready"), () => {});
}
