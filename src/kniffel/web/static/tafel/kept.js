// What a change kept offline is (issue 31, items 2 and 4; docs/decisions.md, "The board
// offline"): the kind of post (an entry, an announcement, an undo, a correction, a cleared cell,
// a roll), its form's fields, and the record event it makes, as the server makes it; a roll of
// virtual dice is rolled here. tafel/offline.js keeps and sends them.
import { asksRoll, board } from "./dom.js";

// The posts kept while the server cannot be reached, by the last part of their path.
const KEPT = /^\/g\/[^/]+\/(enter|announce|undo|edit|clear|roll)$/;
export const keptKind = (config) => (config && config.verb === "post" && (config.path || "").match(KEPT)?.[1]) || null;

export function fieldsOf(config) {
  const data = config.formData || config.parameters || {};
  const fields = {};
  const pairs = typeof data.entries === "function" ? data.entries() : Object.entries(data);
  for (const [name, value] of pairs) {
    // A name given twice (the dice held for a roll) keeps every value, in order.
    fields[name] = name in fields ? [].concat(fields[name], value) : value;
  }
  return fields;
}

// -- virtual dice rolled on the device (issue 31, item 4; docs/decisions.md, "Virtual dice
// offline"): a face from crypto.getRandomValues, unbiased (a byte of 252 or more, the largest
// multiple of 6 under 256, is drawn again).
function face() {
  const byte = new Uint8Array(1);
  do crypto.getRandomValues(byte);
  while (byte[0] >= 252);
  return (byte[0] % 6) + 1;
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The device's name for the rolls it makes offline (kept in localStorage; 16 hex digits). */
function deviceName() {
  const made = hex(crypto.getRandomValues(new Uint8Array(8)));
  try {
    const kept = localStorage.getItem("tafel:device");
    if (kept) return kept;
    localStorage.setItem("tafel:device", made);
  } catch (error) {
    // private mode without storage: a name for this roll alone
  }
  return made;
}

/** The roll's form, rolled here: the held faces kept, the others drawn, the device named. */
export function rolledHere(fields) {
  const held = [].concat(fields.keep ?? []).map(Number).sort();
  const fresh = Array.from({ length: 5 - held.length }, face);
  const dice = [...held, ...fresh].sort().join("");
  return { version: fields.version, keep: held, dice, offline: deviceName() };
}

// The record event a post makes, as the server makes it (kniffel.web.pages.moves).
export function eventOf(kind, fields) {
  if (kind === "undo") return { type: "undo" };
  if (kind === "roll") {
    const event = { type: "roll", player: board().dataset.player, dice: Array.from(fields.dice, Number) };
    if (fields.keep.length) event.keep = fields.keep;
    return { ...event, offline: fields.offline };
  }
  // An announcement (Jamb's Najava, Yams' annoncée) is the player to move's, as on the server.
  if (kind === "announce") return { type: "announce", player: board().dataset.player, cell: fields.cell };
  if (kind !== "enter") {
    const event = { type: kind, player: fields.player, cell: fields.cell };
    if (kind === "edit") event.points = fields.points === "" ? null : Number(fields.points);
    return event;
  }
  const event = { type: "enter", player: board().dataset.player, cell: fields.cell };
  const dice = String(fields.dice || "").replace(/[^1-6]/g, "");
  if (dice.length === 5) event.dice = Array.from(dice, Number);
  else if (fields.points !== undefined && fields.points !== "") event.points = Number(fields.points);
  if (asksRoll() && fields.rolls) event.roll = Number(fields.rolls);
  return event;
}
