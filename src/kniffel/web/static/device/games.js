// Games started on this device with no server (issue 31, item 5; docs/decisions.md, "The board
// offline"; docs/board.md, "Installieren und ohne Netz"). Each is kept in IndexedDB as its
// kniffel-record/1 record, with a `device` object saying it was made on this device offline;
// once the server answers, it is imported as a new game (POST /api/records), the game's key goes
// into this device's key cookie, and the device opens the server's game from then on.
//
//   import { makeGame, deviceGames, sendGames } from "/static/device/games.js";
//   const id = await makeGame({ variant, options, players });   // then open /device#game=ID
//   const sent = await sendGames();   // [{ id, game }] the games stored on the server now
//
// A kept game is { id, record, made, server, refusal }: `server` null until it is stored, then
// { id, url } of the server's game (and its `key` until the cookie holds it); `refusal` the
// server's answer ({ code, params, message }) where it refused the record.

const DATABASE = "tafel-device";
const STORE = "games";

function database() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "id" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function act(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const request = work(db.transaction(STORE, mode).objectStore(STORE));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export const deviceGame = (id) => act("readonly", (store) => store.get(id));
export const keepGame = (game) => act("readwrite", (store) => store.put(game));
export const dropGame = (id) => act("readwrite", (store) => store.delete(id));

/** `change(record)` applied to the kept game `id` in one transaction, unless the server holds
 * the game by now (another tab sent it): then nothing changes. The game as kept, or null. */
export async function changeGame(id, change) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, "readwrite");
    const store = transaction.objectStore(STORE);
    let kept = null;
    const read = store.get(id);
    read.onsuccess = () => {
      const game = read.result;
      if (!game || game.server) return;
      change(game.record);
      store.put(game);
      kept = game;
    };
    transaction.oncomplete = () => resolve(kept);
    transaction.onerror = () => reject(transaction.error);
  });
}

/** Every game kept on this device, the oldest first. */
export async function deviceGames() {
  const games = await act("readonly", (store) => store.getAll());
  return games.sort((a, b) => a.made.localeCompare(b.made));
}

/** A new game on this device: its record, no event yet. The id is the page's address. */
export async function makeGame({ variant, options, players }) {
  const id = crypto.randomUUID();
  const made = new Date().toISOString();
  const record = {
    format: "kniffel-record/1",
    variant,
    options,
    players,
    events: [],
    // Any other top-level field is ignored by a reader (docs/record-format.md): this one says
    // where the game was made.
    device: { id, offline: true, started: made },
  };
  await keepGame({ id, record, made, server: null, refusal: null });
  return id;
}

// The key of a game the server stored goes into this device's key cookie, as a play link's
// fragment does (tafel/main.js).
async function takeKey(server) {
  const answer = await fetch(`/g/${server.id}/key`, {
    method: "POST",
    credentials: "same-origin",
    body: new URLSearchParams({ key: server.key }),
  });
  return answer.ok;
}

async function sendOne(game) {
  if (!game.server) {
    const answer = await fetch("/api/records", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(game.record),
    });
    if (answer.status >= 500) return false; // the server is there but not its store: later
    const body = await answer.json();
    if (!answer.ok) {
      game.refusal = { code: body.code, params: body.params || {}, message: body.message };
      await keepGame(game);
      return false;
    }
    game.server = { id: body.id, url: `/g/${body.id}`, key: body.key };
    game.refusal = null;
    // Stored: never posted again by this device (and a post whose answer was lost, posted
    // again, finds the same game: the board imports a record with a device's id once).
    await keepGame(game);
  }
  if (game.server.key && (await takeKey(game.server))) {
    delete game.server.key;
    await keepGame(game);
  }
  return !game.server.key;
}

let sending = null;

/** Sends every game kept here that the server does not hold yet, one device tab at a time (Web
 * Locks where the browser has them); the ones stored now, as [{ id, game }]. No server: none. */
export function sendGames() {
  if (sending) return sending;
  const all = async () => {
    const sent = [];
    for (const game of await deviceGames()) {
      if (game.server && !game.server.key) continue;
      try {
        if (await sendOne(game)) sent.push({ id: game.id, game: game.server.id });
      } catch (error) {
        break; // no server: all kept for the next try
      }
    }
    return sent;
  };
  const locked = navigator.locks && navigator.locks.request ? navigator.locks.request("tafel-device-games", all) : all();
  sending = locked.finally(() => {
    sending = null;
  });
  return sending;
}

/** Sends the kept games whenever the network comes back, and every half minute while the page
 * is open (a board that slept comes back without an `online` event); `then(sent)` after each
 * send that stored a game. */
export function sendWhenOnline(then) {
  const send = () => {
    if (navigator.onLine === false) return;
    sendGames().then((sent) => sent.length && then(sent), () => {});
  };
  window.addEventListener("online", send);
  setInterval(send, 30000);
  send();
}
