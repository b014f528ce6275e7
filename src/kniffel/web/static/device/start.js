// The start page with no server (issue 31, item 5; docs/board.md, "Installieren und ohne Netz"):
// where the service worker keeps the board's pages, the new-game form starts the game on this
// device when the server cannot be reached (device/games.js, played on /device), the games kept
// here are listed ("Noch nicht gesendet") and sent as soon as the server answers. The installed
// app fetches the rules' files in the background, so that they are there when the network is not.
import { fetchRules } from "/static/rules.js";
import { deviceGames, makeGame, sendWhenOnline } from "./games.js";

const $ = (selector, root) => (root || document).querySelector(selector);

const FETCH_AFTER_MS = 5000; // as a game page does (tafel/offline.js)
const list = $("[data-device-games]");
const form = $("[data-new-game]");
const kept = () => !!(navigator.serviceWorker && navigator.serviceWorker.controller);

// Whether the board answers (any answer); none within a few seconds, or the browser offline: no.
async function reachable() {
  if (navigator.onLine === false) return false;
  try {
    await fetch("/healthz", { cache: "no-store", credentials: "same-origin", signal: AbortSignal.timeout(4000) });
    return true;
  } catch (error) {
    return false;
  }
}

function refuse(text) {
  let line = $("#form-error");
  if (!line) {
    line = document.createElement("p");
    line.className = "message error";
    line.id = "form-error";
    line.setAttribute("role", "alert");
    form.before(line);
  }
  line.textContent = text;
  line.tabIndex = -1;
  line.focus();
}

// The house rules as the form posts them, read as the server reads them
// (kniffel.web.pages.forms._from_form): only those of the chosen preset.
function optionsOf(data, variant) {
  if (!data.get("house_rules")) return null;
  const options = {};
  for (const rule of JSON.parse(form.dataset.houseRules)) {
    if (!rule.presets.includes(variant)) continue;
    const text = String(data.get(rule.name) || "").trim();
    if (rule.widget === "check") options[rule.name] = rule.on === true ? !!text : text === String(rule.on) ? rule.on : rule.off;
    else if (rule.widget === "radio") options[rule.name] = text || null;
    else options[rule.name] = /^\d+$/.test(text || "0") ? Number(text || "0") : text;
  }
  return options;
}

async function startHere() {
  const data = new FormData(form);
  const variant = String(data.get("variant") || "rauf-runter");
  const bots = data.getAll("seat").some((seat) => seat && seat !== "person");
  // The presets a device starts alone: kniffel.web.pages.device.DEVICE_PRESETS.
  const presets = list.dataset.presets.split(" ");
  if (data.get("dice_mode") !== "physical" || bots || !presets.includes(variant)) {
    return refuse(list.dataset.refusal);
  }
  const players = data.getAll("player").map((name) => String(name).trim()).filter(Boolean);
  const id = await makeGame({ variant, options: optionsOf(data, variant), players });
  location.assign(`/device#game=${id}`);
}

async function showGames() {
  const games = (await deviceGames()).filter((game) => !game.server);
  const items = games.map((game) => {
    const link = document.createElement("a");
    link.href = `/device#game=${game.id}`;
    const players = document.createElement("span");
    players.className = "game-players";
    players.textContent = game.record.players.join(", ");
    const meta = document.createElement("span");
    meta.className = "game-meta";
    const preset = $(`input[name="variant"][value="${game.record.variant}"]`);
    const label = preset ? $(".choice-name", preset.closest("label")).textContent : game.record.variant;
    meta.textContent = `${label} · ${list.dataset.unsent}`;
    link.append(players, meta);
    const item = document.createElement("li");
    item.append(link);
    return item;
  });
  $("ul", list).replaceChildren(...items);
  list.hidden = items.length === 0;
}

if (list && window.indexedDB && kept()) {
  form.addEventListener("submit", async (event) => {
    if (form.dataset.sending === "server") return;
    event.preventDefault();
    if (await reachable()) {
      form.dataset.sending = "server";
      HTMLFormElement.prototype.submit.call(form);
    } else {
      await startHere();
    }
  });
  showGames().catch(() => {});
  // Stored on the server now: the start page shows them in its lists.
  sendWhenOnline(() => location.reload());
  if (matchMedia("(display-mode: standalone)").matches) setTimeout(() => fetchRules().catch(() => {}), FETCH_AFTER_MS);
}
