// The rules in a Web Worker (docs/decisions.md, "The board offline"): Pyodide's start (seconds of
// compiling WebAssembly and starting Python) and every sheet run here, off the page's main thread,
// so that the page answers taps and keys meanwhile. A module worker, started by static/rules.js;
// its files come through the service worker as the page's do (Pyodide's from their own cache).
//
// Messages in: { id } starts the rules; { id, record, pending, typed } asks for a sheet.
// Messages out: { id, sheet } (kniffel.offline.sheet_state's answer, an object; null for a
// start), or { id, error } in words. Answers come in the order asked: each waits for the start,
// and the start's promise wakes them in that order.

let starting = null;

async function start() {
  const { loadPyodide } = await import("/static/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: "/static/pyodide/" });
  const answer = await fetch("/offline/kniffel.zip", { credentials: "same-origin" });
  if (!answer.ok) throw new Error(`the rules did not load (${answer.status})`);
  pyodide.unpackArchive(await answer.arrayBuffer(), "zip", { extractDir: "/home/pyodide/tafel" });
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/tafel')\nimport kniffel.offline");
  return pyodide.pyimport("kniffel.offline").sheet_state_json;
}

self.addEventListener("message", async (event) => {
  const { id, record, pending, typed } = event.data;
  try {
    if (starting === null) {
      starting = start();
      starting.catch(() => (starting = null)); // a later message tries again
    }
    const sheetJson = await starting;
    if (record === undefined) return void self.postMessage({ id, sheet: null });
    const text = sheetJson(JSON.stringify(record), JSON.stringify(pending || []), JSON.stringify(typed || {}));
    self.postMessage({ id, sheet: JSON.parse(text) });
  } catch (error) {
    self.postMessage({ id, error: String((error && error.message) || error) });
  }
});
