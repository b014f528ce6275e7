// The rules in the page (docs/decisions.md, "The board offline"): kniffel.rules, kniffel.record
// and kniffel.offline run in Pyodide, loaded once (the service worker keeps its files), so that
// the sheet of a game can be drawn with no server: previews, due cells, locks, totals, refusals.
//
//   import { loadRules } from "/static/rules.js";
//   const rules = await loadRules();
//   const state = rules.sheet(record, pending, { dice: "66655", roll: 1 });
//
// `record` is the game's kniffel-record/1 object, `pending` the entries not yet sent (event
// objects, in order); the answer is kniffel.offline.sheet_state's, as an object.

let loading = null;

const FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];

/** Fetches the rules' files without starting Python (the service worker keeps them), so that
 * they are on the device when the network drops; starting them costs seconds of the page's
 * time, which `loadRules` spends only when the rules are wanted. */
export async function fetchRules() {
  const paths = FILES.map((name) => `/static/pyodide/${name}`).concat("/offline/kniffel.zip");
  await Promise.all(paths.map((path) => fetch(path, { credentials: "same-origin" }).then((answer) => answer.arrayBuffer())));
}

export function loadRules() {
  if (loading === null) {
    loading = (async () => {
      const { loadPyodide } = await import("/static/pyodide/pyodide.mjs");
      const pyodide = await loadPyodide({ indexURL: "/static/pyodide/" });
      const answer = await fetch("/offline/kniffel.zip", { credentials: "same-origin" });
      if (!answer.ok) throw new Error(`the rules did not load (${answer.status})`);
      pyodide.unpackArchive(await answer.arrayBuffer(), "zip", { extractDir: "/home/pyodide/tafel" });
      pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/tafel')\nimport kniffel.offline");
      const sheetJson = pyodide.pyimport("kniffel.offline").sheet_state_json;
      return {
        sheet(record, pending = [], typed = {}) {
          const text = sheetJson(JSON.stringify(record), JSON.stringify(pending), JSON.stringify(typed));
          return JSON.parse(text);
        },
      };
    })();
    loading.catch(() => {
      loading = null; // a later call tries again
    });
  }
  return loading;
}
