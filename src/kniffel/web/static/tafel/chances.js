// The board's "Gewinnchancen" switch: off by default, remembered per device (state.prefs,
// kept in localStorage). While on, each player's tab shows their chance to finish first, read
// from /g/{id}/chancen.json (the API's answer, under the page's address so that this
// device's key comes with it and can start building a house-rules game's tables) for the
// board's version and refreshed after every swap of the board (a live update, an entry);
// while the version's chances are being worked out (202 chances_pending) it asks again, and
// while Jamb's and Yams's are being narrowed ("refining": true, with Retry-After) it asks again
// and shows each narrower range, marked (data-refining: "…" after it, the words in its label,
// the note beside the switch). A simulated chance whose 95 % interval is wider than 2 points
// shows as "≈" and its range.
// The end screen's and the review's charts are asked for again until drawn.
// docs/board.md, "Gewinnchancen".
import { $, $$ } from "./dom.js";
import { state, subscribe, update } from "./state.js";

function clear(keep) {
  $$(".player-chance").forEach((el) => {
    if (!keep || el.dataset.version !== keep) el.remove();
  });
  const note = $("[data-chances-note]");
  if (note && !keep) note.hidden = true;
}

// Percents as the page's language writes them ("41 %", "41%"): the browser's Intl, as the
// server's words use Babel (docs/board.md, "Gewinnchancen").
const percents = new Intl.NumberFormat(document.documentElement.lang || undefined, {
  style: "percent",
  maximumFractionDigits: 0,
});

function percent(p) {
  if (p > 0 && p < 0.005) return "< " + percents.format(0.01);
  if (p < 1 && p > 0.995) return "> " + percents.format(0.99);
  return percents.format(p);
}

// "≈ 41–55 %" where the interval is wider than 2 points of percentage, else the chance: the
// range as people write it (the lower figure bare, the upper with its percent sign), which
// stays narrow on a phone's tab where Intl's formatRange spaced it ("41 – 55 %"). Its ends
// are rounded outwards, so the range shown claims no more than the 95 % interval.
function shown(player) {
  const [low, high] = player.interval || [player.win, player.win];
  if (high - low <= 0.02) return percent(player.win);
  const from = Math.floor(low * 100 + 1e-9);
  const to = Math.ceil(high * 100 - 1e-9);
  return `≈ ${from}–${percents.format(to / 100)}`;
}

function paint() {
  const box = $("[data-chances-switch]");
  const board = $("#board");
  clearTimeout(state.chances.again);
  update({ chances: { again: null } });
  if (!box) return;
  box.checked = state.prefs.chances;
  if (!board || !box.checked) {
    clear();
    return;
  }
  const version = board.dataset.version;
  clear(version); // this version's figures stay until narrower ones come
  fetch("/g/" + encodeURIComponent(box.dataset.game) + "/chancen.json", { credentials: "same-origin", cache: "no-store" })
    .then((r) => {
      // 202: the solver's tables are being built, or this version's chances are being
      // worked out off the request; 503: too many are; 200 with Retry-After: they are being
      // narrowed. Ask again after Retry-After.
      if (r.status === 202 || r.status === 503 || (r.status === 200 && r.headers.get("Retry-After"))) {
        const wait = Number(r.headers.get("Retry-After")) || 2;
        update({ chances: { again: setTimeout(paint, wait * 1000) } });
      }
      return r.status === 200 ? r.json() : null;
    })
    .then((data) => {
      const now = $("#board");
      if (!data || !now || !state.prefs.chances || String(data.version) !== now.dataset.version) return;
      if (now.dataset.version !== version) return;
      clear();
      data.players.forEach((player, seat) => {
        const tab = document.getElementById("tab-" + seat);
        if (!tab) return;
        const span = document.createElement("span");
        span.className = "player-chance";
        span.dataset.win = String(player.win);
        span.dataset.method = player.method;
        span.dataset.version = version;
        span.textContent = shown(player);
        let label = box.dataset.label + " " + shown(player);
        if (data.refining) {
          span.dataset.refining = "1";
          label += ", " + box.dataset.refining;
        }
        span.title = label;
        span.setAttribute("aria-label", label);
        tab.appendChild(span);
      });
      const note = $("[data-chances-note]");
      if (note) note.hidden = !data.refining;
    })
    .catch(() => {});
}

// The end screen's chart and the review's chart are drawn off the request: until one is,
// its address answers a "being drawn" picture (202, or 503 when the board is busy) with
// Retry-After. Ask again then, and show the chart when it is there.
function drawChart() {
  const charts = "img[data-chances-chart]:not([data-asking]), img[data-review-chart]:not([data-asking])";
  $$(charts).forEach((img) => {
    img.dataset.asking = "1";
    const url = img.getAttribute("src").split("&drawn=")[0];
    const ask = () => {
      if (!img.isConnected) return;
      fetch(url, { credentials: "same-origin", cache: "no-store" })
        .then((r) => {
          if (r.status === 200) {
            img.src = url + "&drawn=1";
            img.dataset.drawn = "1";
            return;
          }
          if (r.status === 202 || r.status === 503) {
            const wait = Number(r.headers.get("Retry-After")) || 2;
            setTimeout(ask, wait * 1000);
          }
        })
        .catch(() => {});
    };
    ask();
  });
}

function refresh() {
  paint();
  drawChart();
}

export function setUpChances() {
  document.addEventListener("change", (event) => {
    const box = event.target.closest && event.target.closest("[data-chances-switch]");
    if (box) update({ prefs: { chances: box.checked } });
  });
  subscribe((patch) => {
    if (patch.prefs && "chances" in patch.prefs) paint();
  });
  document.addEventListener("htmx:afterSwap", refresh);
  refresh();
}
