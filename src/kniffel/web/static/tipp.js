// The Tipp panel's two modes and its simulated chances (templates/advice/tipp.html).
// "Auf Punkte" or "Auf Sieg": the device's last choice (localStorage), as the
// "Gewinnchancen" switch. Where the chances of bonus and Kniffel are simulated, the panel
// comes first and the same panel with its chances follows (data-tipp-reasons): a first
// answer with its wider interval, then the final figures (data-tipp-stage); each is
// only put in place while the panel it was asked for is still shown. While the tables are
// built, the panel asks again until they are there. docs/board.md, "Tipp".
(() => {
  if (window.kniffelTippModes) return;
  window.kniffelTippModes = true;
  const KEY = "kniffel.tipp-modus";
  const chosen = () => {
    try { return localStorage.getItem(KEY) === "sieg" ? "sieg" : "punkte"; } catch (e) { return "punkte"; }
  };

  function show(section) {
    const modes = section.querySelector("[data-tipp-modes]");
    const mode = modes ? chosen() : "punkte";
    if (modes) for (const radio of modes.querySelectorAll("input[type=radio]")) radio.checked = radio.value === mode;
    for (const part of section.querySelectorAll("[data-tipp-mode]")) part.hidden = part.dataset.tippMode !== mode;
  }

  const REASONS_POLL_MS = 1500;
  function load(section) {
    const url = section.dataset.tippReasons;
    if (!url || section.dataset.tippLoading || !section.isConnected) return;
    section.dataset.tippLoading = "1";
    fetch(url, { credentials: "same-origin" })
      .then((answer) => (answer.ok ? answer.text() : null))
      .then((html) => {
        if (!html || !section.isConnected) return;
        const box = document.createElement("div");
        box.innerHTML = html;
        const fresh = box.querySelector(".tipp");
        if (!fresh) return;
        if (fresh.dataset.tippReasons && fresh.dataset.tippStage === section.dataset.tippStage) {
          // Still being simulated, nothing new to show: say how far, and ask again in a moment.
          const waiting = section.querySelector("[data-reasons-waiting]");
          const said = fresh.querySelector("[data-reasons-waiting]");
          if (waiting && said) waiting.textContent = said.textContent;
          section.dataset.tippReasons = fresh.dataset.tippReasons;
          delete section.dataset.tippLoading;
          setTimeout(() => load(section), REASONS_POLL_MS);
          return;
        }
        // The figures came (a first answer with its wider interval, or the final ones): the
        // fresh panel takes the place; one still refining is asked again by setup() below.
        const focused = section.contains(document.activeElement) ? document.activeElement : null;
        show(fresh);
        section.replaceWith(fresh);
        document.dispatchEvent(new CustomEvent("kniffel:tipp"));
        if (focused && focused.name === "tipp-modus") {
          const same = fresh.querySelector(`input[name="tipp-modus"][value="${focused.value}"]`);
          if (same) same.focus();
        } else if (focused && focused.matches("[data-close-tipp]")) {
          const close = fresh.querySelector("[data-close-tipp]");
          if (close) close.focus();
        }
      })
      .catch(() => {});
  }

  // While the game's tables are built the panel says so (data-tipp-building) and asks
  // again every two seconds until the Tipp is there (issue 19 item 4: the panel came by
  // fetch, so htmx never saw its hx-trigger and it stayed at "wird berechnet … 0 %").
  const BUILDING_POLL_MS = 2000;
  function poll(section) {
    const url = section.dataset.tippBuilding;
    if (!url || section.dataset.tippPolling) return;
    section.dataset.tippPolling = "1";
    const again = () => {
      if (!section.isConnected) return;
      fetch(url, { credentials: "same-origin" })
        .then((answer) => answer.text())
        .then((html) => {
          if (!section.isConnected) return;
          const box = document.createElement("div");
          box.innerHTML = html;
          if (!box.firstElementChild) return setTimeout(again, BUILDING_POLL_MS);
          section.replaceWith(...box.childNodes);
          document.dispatchEvent(new CustomEvent("kniffel:tipp"));
        })
        .catch(() => setTimeout(again, BUILDING_POLL_MS)); // offline a moment: ask again
    };
    setTimeout(again, BUILDING_POLL_MS);
  }

  function setup() {
    for (const section of document.querySelectorAll("#tipp .tipp")) {
      show(section);
      load(section);
      poll(section);
    }
  }

  document.addEventListener("change", (event) => {
    const radio = event.target.closest && event.target.closest("[data-tipp-modes] input");
    if (!radio) return;
    try { localStorage.setItem(KEY, radio.value); } catch (e) { /* private mode */ }
    const section = radio.closest(".tipp");
    if (section) show(section);
  });

  const start = () => {
    new MutationObserver(setup).observe(document.body, { childList: true, subtree: true });
    setup();
  };
  if (document.body) start(); else document.addEventListener("DOMContentLoaded", start);
})();
