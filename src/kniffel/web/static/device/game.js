// The page of a game started on this device with no server (/device#game=ID; issue 31, item 5;
// docs/board.md, "Installieren und ohne Netz"). The game is its record in IndexedDB
// (device/games.js); the rules in the page (static/rules.js: kniffel.offline in Pyodide) draw its
// sheet into the board's own blank sheet of the preset (copied per player) with the painter of
// the board offline (tafel/paint.js). Typed dice or points and a tap on a cell make an entry
// (with the roll said on 1 2 3 where the rules ask it: Jamb, Yams), a tap on "!" an announcement,
// each checked by the rules before it is kept; a refusal reads as on the board (device/words.js).
// A filled cell opens the board's correction dialog (device/edit.js: `edit`, `clear`, checked
// alike); the notes are the board's (tafel/notes.js). "Rückgängig" takes the last event off the
// record: nobody else has seen it. Changes and drawings run in turn (device/serial.js). Once the
// server answers, the game is stored there and the page opens the server's game.
import { loadRules } from "/static/rules.js";
import { paint } from "/static/tafel/paint.js";
import { correct, setUpCorrections } from "./edit.js";
import { changeGame, deviceGame, dropGame, sendGames, sendWhenOnline } from "./games.js";
import { joining, serial } from "./serial.js";
import { refusalWords } from "./words.js";

const $ = (selector, root) => (root || document).querySelector(selector);
const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

const root = $(".device-game");
const board = $("#board");
const words = JSON.parse(root.dataset.words);
const diceInput = $("#dice-input");
const pointsInput = $("#points-input");
const rollsPick = $(".device-rolls");
let roll = null; // which roll made the typed dice (1 to 3), where the rules ask it (Jamb, Yams)
let game = null; // the kept game: { id, record, ... }
let rules = null;
let drawn = null; // kniffel.offline.sheet_state of the sheet drawn
let shown = null; // the seat whose sheet is in front (a tab tapped), or null: the player to move

function say(text, error = true) {
  const notice = $("#notice");
  notice.textContent = text;
  notice.classList.toggle("error", !!text && error);
}

const worded = (error) => refusalWords(words, game.record.variant, error);

/** The typed dice (five faces) or points, as kniffel.offline takes them for a preview. */
function typed() {
  const said = roll === null ? {} : { roll };
  const dice = diceInput.value.replace(/\D/g, "");
  if (/^[1-6]{5}$/.test(dice)) return { dice, ...said };
  const points = pointsInput.value.trim();
  if (points !== "" && Number.isInteger(Number(points))) return { points: Number(points), ...said };
  return {};
}

function setRoll(value) {
  roll = value;
  for (const button of $$("[data-rolls]", rollsPick)) button.setAttribute("aria-pressed", String(button.dataset.rolls === String(value)));
}

function turnLine(name) {
  const [before, after] = root.dataset.turn.split("{name}");
  const bdi = document.createElement("bdi");
  bdi.textContent = name;
  $(".status .turn-name").replaceChildren(before, bdi, after || "");
}

// The board's blank sheet of the preset, once per player, and a tab for each.
function build(state) {
  // The preset's sheet with the game's columns (a house rule's column: Jamb's, Yams' hand).
  const columns = Object.keys(state.sheets[0].columns).join(" ");
  const template = $(`template[data-preset="${game.record.variant}"][data-columns="${columns}"]`);
  $(".device-title").textContent = template.dataset.label;
  // The cells are named as the board names them and the notes are the board's (tafel/paint.js
  // and tafel/notes.js read the words from here).
  const own = $(`template[data-preset="${game.record.variant}"][data-cell-words]`);
  const live = $("[data-live-state]");
  live.dataset.cellWords = own.dataset.cellWords;
  const notes = JSON.parse(own.dataset.notes);
  live.dataset.offlineWords = JSON.stringify({ variant: game.record.variant, refusals: words, notes });
  setUpCorrections(template, (event, refusedIn) => serial(() => correction(event, refusedIn)));
  const tabs = $(".players", board);
  const sheets = $("#device-sheets");
  for (const sheet of state.sheets) {
    const section = $("section", template.content).cloneNode(true);
    section.id = `sheet-${sheet.seat}`;
    section.dataset.seat = String(sheet.seat);
    section.setAttribute("aria-labelledby", `tab-${sheet.seat}`);
    $(".caption-name", section).textContent = sheet.player;
    // Announcements are drawn by the rules' answer (tafel/paint.js), not the blank sheet's.
    for (const mark of $$(".announce-btn, .announced-tag", section)) mark.remove();
    for (const button of $$(".cell-btn", section)) {
      if (!(button.value in sheet.cells)) button.closest("tr").remove(); // a house rule's row
      else button.id = `c${sheet.seat}-${button.value}`;
    }
    sheets.append(section);
    const tab = document.createElement("button");
    tab.type = "button";
    tab.className = "player-tab";
    tab.id = `tab-${sheet.seat}`;
    tab.setAttribute("role", "tab");
    tab.setAttribute("aria-controls", section.id);
    const name = document.createElement("span");
    name.className = "player-name";
    name.textContent = sheet.player;
    const total = document.createElement("span");
    total.className = "player-total";
    tab.append(name, total);
    tab.addEventListener("click", () => {
      shown = sheet.seat;
      front();
    });
    tabs.append(tab);
  }
}

function front() {
  const seat = shown ?? drawn.to_move ?? 0;
  for (const section of $$(".sheet", board)) section.classList.toggle("is-back", section.dataset.seat !== String(seat));
  for (const tab of $$(".player-tab", board)) {
    const here = tab.id === `tab-${seat}`;
    tab.setAttribute("aria-selected", here ? "true" : "false");
    tab.tabIndex = here ? 0 : -1;
  }
}

async function drawNow() {
  const state = await rules.sheet(game.record, [], typed());
  if (state.error) return void say(worded(state.error));
  if (drawn === null) build(state);
  drawn = state;
  paint(state, [], {});
  delete board.dataset.kept;
  for (const sheet of state.sheets) {
    for (const [name, cell] of Object.entries(sheet.cells)) {
      const button = document.getElementById(`c${sheet.seat}-${name}`);
      if (button && cell.refusal && cell.state !== "filled") button.dataset.reason = worded(cell.refusal);
    }
  }
  if (state.finished) {
    const names = state.winners.join(", ");
    const line = state.winners.length > 1 ? root.dataset.tie : root.dataset.over;
    $(".status .turn-name").textContent = line.replace("{names}", names);
  } else {
    turnLine(state.players[state.to_move].name);
  }
  $(".entry", board).hidden = state.finished; // a cleared cell opens a finished game again
  $(".status .turn-rolls").hidden = state.finished;
  for (const tab of $$(".player-tab", board)) {
    const seat = Number(tab.id.slice(4));
    tab.classList.toggle("winner", state.finished && state.winners.includes(state.players[seat].name));
  }
  rollsPick.hidden = !state.asks_roll || state.finished;
  $("#device-undo").disabled = state.undo !== null; // as the rules say (and the undo note)
  board.dataset.events = String(game.record.events.length); // the entries kept (tests wait for it)
  board.dataset.finished = state.finished ? "true" : "false";
  front();
}
const draw = joining(drawNow); // the previews of what is typed, in turn with the changes

// A tap on a cell: the entry of the player to move, checked by the rules before it is kept.
async function tap(button) {
  if (!drawn || !button.id || correct(button)) return; // a filled cell: the correction dialog
  if (drawn.to_move === null) return;
  const seat = Number(button.closest(".sheet").dataset.seat);
  const cell = drawn.sheets[seat].cells[button.value];
  if (!cell || cell.state === "filled") return;
  if (seat !== drawn.to_move) return void say(worded(cell.refusal));
  const event = { type: "enter", player: drawn.players[drawn.to_move].name, cell: button.value };
  const dice = diceInput.value.replace(/\D/g, "");
  const points = pointsInput.value.trim();
  if (dice) event.dice = Array.from(dice, Number).sort(); // sorted, as the board writes dice
  else if (points !== "") event.points = Number(points);
  if (drawn.asks_roll && roll !== null && (dice || points !== "")) event.roll = roll;
  if (!(await keep(event))) return;
  diceInput.value = "";
  pointsInput.value = "";
  setRoll(null);
  await drawNow();
}

// A tap on an announce button (Jamb's Najava, Yams' annoncée): the announcement of the player
// to move, checked by the rules as an entry is.
async function announce(button) {
  if (!drawn || drawn.to_move === null) return;
  const event = { type: "announce", player: drawn.players[drawn.to_move].name, cell: button.value };
  if (await keep(event)) await drawNow();
}

// The event checked by the rules, then kept in the record (and the page's own sheet shown again);
// a refusal said by `refusedIn` (the notice, or the correction dialog).
async function keep(event, refusedIn = say) {
  const check = await rules.sheet(game.record, [event], {});
  const refused = check.error || check.refused[0];
  if (refused) return void refusedIn(worded(refused));
  const kept = await changeGame(game.id, (record) => record.events.push(event)); // kept, then shown
  if (!kept) return void location.reload(); // another tab sent the game: the board's game now
  game = kept;
  shown = null;
  say("");
  return true;
}

// A correction from the board's dialog (device/edit.js): kept as an entry is, then drawn; the
// sheet chosen stays in front until the turn changes, as on the board.
async function correction(event, refusedIn) {
  const [seat, turn] = [shown, drawn.turn_key];
  if (!(await keep(event, refusedIn))) return false;
  await drawNow();
  if (seat !== null && drawn.turn_key === turn) {
    shown = seat;
    front();
  }
  return true;
}

async function undo() {
  if (!game.record.events.length) return;
  const kept = await changeGame(game.id, (record) => record.events.pop());
  if (!kept) return void location.reload();
  game = kept;
  shown = null;
  say("");
  await drawNow();
}

function opened(sent) {
  if (sent.some((stored) => stored.id === game.id)) location.replace(`/g/${sent.find((s) => s.id === game.id).game}`);
}

async function start() {
  const id = new URLSearchParams(location.hash.slice(1)).get("game");
  game = id ? await deviceGame(id).catch(() => null) : null;
  if (!game) {
    board.dataset.state = "missing";
    return void say(root.dataset.missing);
  }
  // Imported by the board already: its record there is the game, so nothing is entered here
  // any more. Online, the board's game opens (its key taken first, where it is not yet).
  const stored = !!game.server;
  if (stored && navigator.onLine !== false) {
    await sendGames().catch(() => []);
    game = await deviceGame(id);
    if (!game.server.key) return void location.replace(game.server.url);
  }
  try {
    rules = await loadRules();
  } catch (error) {
    board.dataset.state = "no-rules";
    return void say(root.dataset.noRules);
  }
  const first = await rules.sheet(game.record, [], {});
  if (first.error && !game.record.events.length) {
    // The form's game is not a game (a name twice, no player): said, and nothing kept.
    await dropGame(game.id);
    board.dataset.state = "refused";
    $(".entry", board).hidden = true;
    return void say(worded(first.error));
  }
  await drawNow();
  if (game.refusal) say(worded(game.refusal)); // the server refused the record: said, kept
  if (stored) {
    // On the board already (opened here with no network): shown, not changed here any more.
    $(".entry", board).hidden = true;
    $("#device-undo").hidden = true;
    board.dataset.state = "stored";
    return;
  }
  board.dataset.state = "ready";
  $("#device-sheets").addEventListener("click", (event) => {
    const announced = event.target.closest(".announce-btn");
    if (announced) {
      event.preventDefault();
      return void serial(() => announce(announced));
    }
    const button = event.target.closest(".cell-btn");
    if (!button) return;
    event.preventDefault();
    serial(() => tap(button));
  });
  for (const input of [diceInput, pointsInput]) {
    input.addEventListener("input", () => {
      if (input === diceInput && diceInput.value) pointsInput.value = "";
      if (input === pointsInput && pointsInput.value) diceInput.value = "";
      draw(); // the previews of what is typed
    });
    input.addEventListener("keydown", (event) => event.key === "Enter" && event.preventDefault());
  }
  rollsPick.addEventListener("click", (event) => {
    const button = event.target.closest("[data-rolls]");
    if (!button) return;
    setRoll(roll === Number(button.dataset.rolls) ? null : Number(button.dataset.rolls));
    draw(); // the previews with the roll said
  });
  $("#device-undo").addEventListener("click", () => serial(undo));
  sendWhenOnline(opened);
}

start();
