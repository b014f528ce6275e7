// The board's "Gewinnchancen" switch: off by default, remembered per device (localStorage).
// While on, each player's tab shows their chance to finish first, read from
// /api/games/{id}/chances for the board's version and refreshed after every swap of the
// board (a live update, an entry). docs/board.md, "Gewinnchancen".
(() => {
  const KEY = "kniffel.gewinnchancen";
  const isOn = () => {
    try { return localStorage.getItem(KEY) === "an"; } catch (e) { return false; }
  };

  function clear() {
    document.querySelectorAll(".player-chance").forEach((el) => el.remove());
  }

  function percent(p) {
    if (p > 0 && p < 0.005) return "< 1 %";
    if (p < 1 && p > 0.995) return "> 99 %";
    return Math.round(p * 100) + " %";
  }

  function paint() {
    const box = document.querySelector("[data-chances-switch]");
    const board = document.getElementById("board");
    if (!box) return;
    box.checked = isOn();
    clear();
    if (!board || !box.checked) return;
    const version = board.dataset.version;
    fetch("/api/games/" + encodeURIComponent(box.dataset.game) + "/chances")
      .then((r) => {
        // 202: the solver's tables are being built; ask again in a moment.
        if (r.status === 202) setTimeout(paint, 2000);
        return r.status === 200 ? r.json() : null;
      })
      .then((data) => {
        const now = document.getElementById("board");
        if (!data || !now || !isOn() || String(data.version) !== now.dataset.version) return;
        if (now.dataset.version !== version) return;
        clear();
        data.players.forEach((player, seat) => {
          const tab = document.getElementById("tab-" + seat);
          if (!tab) return;
          const span = document.createElement("span");
          span.className = "player-chance";
          span.dataset.win = String(player.win);
          span.textContent = percent(player.win);
          span.title = box.dataset.label + " " + percent(player.win);
          span.setAttribute("aria-label", box.dataset.label + " " + percent(player.win));
          tab.appendChild(span);
        });
      })
      .catch(() => {});
  }

  document.addEventListener("change", (event) => {
    const box = event.target.closest && event.target.closest("[data-chances-switch]");
    if (!box) return;
    try { localStorage.setItem(KEY, box.checked ? "an" : "aus"); } catch (e) { /* private mode */ }
    paint();
  });
  document.addEventListener("htmx:afterSwap", paint);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", paint);
  else paint();
})();
