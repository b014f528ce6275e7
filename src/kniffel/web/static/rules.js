// The rules in the page (docs/decisions.md, "The board offline"): kniffel.rules, kniffel.record
// and kniffel.offline run in Pyodide, loaded once (the service worker keeps its files), so that
// the sheet of a game can be drawn with no server: previews, due cells, locks, totals, refusals.
// Pyodide runs in a Web Worker (static/rules-worker.js): its start and every sheet leave the
// page's main thread free; a sheet is therefore answered later, as a promise.
//
//   import { loadRules } from "/static/rules.js";
//   const rules = await loadRules();
//   const state = await rules.sheet(record, pending, { dice: "66655", roll: 1 });
//
// `record` is the game's kniffel-record/1 object, `pending` the entries not yet sent (event
// objects, in order); the answer is kniffel.offline.sheet_state's, as an object. Sheets are
// answered in the order they were asked.

let loading = null;
let running = null; // the worker of `loading`

const FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

/** Fetches the rules' files without starting Python (the service worker keeps them), so that
 * they are on the device when the network drops; `loadRules` starts them when they are wanted. */
export async function fetchRules() {
  const paths = FILES.map((name) => `/static/pyodide/${name}`).concat("/offline/kniffel.zip");
  await Promise.all(paths.map((path) => fetch(path, { credentials: "same-origin" }).then((answer) => answer.arrayBuffer())));
}

/** The worker and its questions waiting for an answer: `ask(message)` posts one, `fail(error)`
 * refuses them all and ends the worker. */
function startWorker() {
  const worker = new Worker("/static/rules-worker.js", { type: "module" });
  running = worker;
  const waiting = new Map();
  let next = 0;
  const fail = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
    worker.terminate();
    if (running === worker) loading = running = null; // a later call starts a new worker
  };
  worker.addEventListener("message", (event) => {
    const { id, sheet, error } = event.data;
    const asked = waiting.get(id);
    if (!asked) return;
    waiting.delete(id);
    if (error === undefined) asked.resolve(sheet);
    else asked.reject(new Error(error));
  });
  worker.addEventListener("error", (event) => fail(new Error(`the rules did not start (${event.message || "worker"})`)));
  worker.addEventListener("messageerror", () => fail(new Error("the rules' answer could not be read")));
  const ask = (message) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  return { ask, fail };
}

export function loadRules() {
  if (loading === null) {
    const { ask, fail } = startWorker();
    loading = ask({}).then(
      () => ({ sheet: (record, pending = [], typed = {}) => ask({ record, pending, typed }) }),
      (error) => {
        fail(error); // the worker goes; a later call tries again with a new one
        throw error;
      },
    );
  }
  return loading;
}
