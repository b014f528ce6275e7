// Entries not yet sent (issue 31, item 2; docs/decisions.md, "The board offline"): while the
// server cannot be reached, the page keeps each change it could not post here, in IndexedDB, so
// that a reload, a closed tab or a restarted phone loses none; when the server answers again
// they are sent in order, each with the game version it was made on. The server checks each as
// it checks any post; a refusal (another device changed the game meanwhile) stays beside the
// kept entry until the player enters it again or drops it. Nothing is dropped silently.
//
//   import { openPending, postForm } from "/static/pending.js";
//   const pending = await openPending(gameId);
//   await pending.add({ path: `/g/${gameId}/enter`, fields: { cell, dice, version, turn },
//                       event, version });
//   const result = await pending.send(postForm);   // { sent, refused, offline, busy }
//
// An entry is { id, game, path, fields, event, version, refusal }: `path` and `fields` are the
// form the page would have posted (its version field included), `event` the kniffel-record/1
// event it makes (for the rules in the page, static/rules.js), `refusal` null or the server's
// words. Works without a service worker: IndexedDB is there over plain http too.

const DATABASE = "tafel";
const STORE = "pending";

function database() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      store.createIndex("game", "game");
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

// The server's answer to a form posted as the page posts it (htmx): its status and the words of
// the board's notice (#notice) in the fragment, where it refused.
export async function postForm(path, fields) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    // A list (the dice held for a roll) is the field given once per value, as a form sends it.
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== null && one !== undefined) body.append(name, String(one));
    }
  }
  const answer = await fetch(path, {
    method: "POST",
    body,
    credentials: "same-origin",
    headers: { "HX-Request": "true" },
  });
  const text = await answer.text();
  const page = new DOMParser().parseFromString(text, "text/html");
  const notice = page.querySelector("#notice");
  return { status: answer.status, notice: notice ? notice.textContent.trim() : "" };
}

// One tab at a time sends a game's kept entries (two tabs of one game share them): the Web
// Locks API where the browser has it (Safari since 15.4), else a lease in localStorage that a
// tab takes for a while. The other tab waits (or, with the lease, leaves the sending to the tab
// that holds it) and then finds the list already sent: it neither posts them again nor keeps
// the duplicate's refusal (issue 31; docs/board.md, "Installieren und ohne Netz").
const LEASE_MS = 30000;

async function oneTabAtATime(game, act) {
  if (navigator.locks && navigator.locks.request) {
    return navigator.locks.request(`tafel-pending-${game}`, act);
  }
  const key = `tafel-sending:${game}`;
  const me = `${Date.now()}-${Math.random()}`;
  let leased = false;
  try {
    const held = JSON.parse(localStorage.getItem(key) || "null");
    if (held && held.until > Date.now()) return null;
    localStorage.setItem(key, JSON.stringify({ by: me, until: Date.now() + LEASE_MS }));
    leased = JSON.parse(localStorage.getItem(key) || "null").by === me;
    if (!leased) return null;
  } catch (error) {
    // no storage (private mode): this tab sends alone
  }
  try {
    return await act();
  } finally {
    if (leased) localStorage.removeItem(key);
  }
}

// Whether the server's record already holds `entry` at the version it was made on: a post
// whose answer never came back (the server stored it and was killed before answering, the
// Wi-Fi went mid-answer) is refused when sent again, since the game moved past that version;
// it was stored, not refused.
async function storedAlready(entry) {
  const answer = await fetch(`/api/games/${entry.game}/record`, { credentials: "same-origin" });
  if (!answer.ok) return false;
  const there = (await answer.json()).events[entry.version];
  const made = entry.event;
  if (!there || !made) return false;
  const same = (name) => JSON.stringify(there[name] ?? null) === JSON.stringify(made[name] ?? null);
  return ["type", "player", "cell", "dice", "points", "keep"].every(same);
}

export async function openPending(game) {
  const db = await database();
  const store = (mode) => db.transaction(STORE, mode).objectStore(STORE);

  async function list() {
    const entries = await done(store("readonly").index("game").getAll(game));
    return entries.sort((a, b) => a.id - b.id);
  }

  async function put(entry) {
    return done(store("readwrite").put(entry));
  }

  async function sendAll(post) {
    const result = { sent: 0, refused: null, offline: false };
    for (const entry of await list()) {
      if (entry.refusal !== null) {
        result.refused = entry;
        return result;
      }
      let answer;
      try {
        answer = await post(entry.path, entry.fields);
      } catch (error) {
        result.offline = true;
        return result;
      }
      if (answer.status >= 200 && answer.status < 300) {
        await done(store("readwrite").delete(entry.id));
        result.sent += 1;
      } else if (answer.status >= 500 || answer.status === 0) {
        result.offline = true; // the server is there but not its store: try again later
        return result;
      } else if (answer.status === 409 && (await storedAlready(entry))) {
        await done(store("readwrite").delete(entry.id));
        result.sent += 1;
      } else {
        entry.refusal = { status: answer.status, words: answer.notice };
        await put(entry);
        result.refused = entry;
        return result;
      }
    }
    return result;
  }

  return {
    list,
    // Kept before the page shows it as made: the entry's id, in the order entries were made.
    async add({ path, fields, event, version }) {
      const entry = { game, path, fields, event, version, refusal: null, made: Date.now() };
      return done(store("readwrite").add(entry));
    },
    async drop(id) {
      return done(store("readwrite").delete(id));
    },
    // "Enter again": the kept entry, now on the version the page shows, is sent at the next send.
    async again(id, version) {
      const entry = await done(store("readonly").get(id));
      if (!entry) return;
      entry.refusal = null;
      entry.version = version;
      entry.fields = { ...entry.fields, version };
      await put(entry);
    },
    // Sends the kept entries in order; each one stored is taken off the list. It stops at the
    // first refusal (kept with the server's words: the entries after it were made on top of it)
    // and when the server cannot be reached (all kept for the next try).
    // Another tab sending them meanwhile (the lease above): `busy`, nothing sent here.
    async send(post = postForm) {
      const result = await oneTabAtATime(game, () => sendAll(post));
      return result || { sent: 0, refused: null, offline: false, busy: true };
    },
  };
}
