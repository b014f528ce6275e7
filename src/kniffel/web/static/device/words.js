// A refusal in the page's words, as the board words it (kniffel.locales.refusals.refusal_text):
// the engine's code and params (kniffel.offline.refusal) filled into the catalogue's message.
// The server puts the words into the page (kniffel.web.pages.device.device_words): each code's
// message in the page's language, every cell, row and column, and the language's "a, b or c";
// `tests/e2e/test_device_game.py` holds the device's words equal to the board's.

/** `error` ({ code, params, message }) in words, for a game of `preset`. */
export function refusalWords(words, preset, error) {
  const own = words.presets[preset] || { refusals: {}, cells: {}, rows: {}, columns: {} };
  const message = own.refusals[error.code] || words.refusals[error.code];
  if (!message) return error.message;
  const params = error.params || {};
  return message.replace(/\{(\w+)\}/g, (_, name) => (name in params ? said(words, own, name, params[name]) : "–"));
}

function row(own, value) {
  return own.rows[value] || value;
}

function cell(own, name) {
  if (!name.includes(".")) return row(own, name);
  return own.cells[name] || name;
}

function either(words, items) {
  if (!items.length) return "–";
  if (items.length === 1) return items[0];
  const pattern = words.or[String(items.length)];
  if (!pattern) return items.join(", ");
  return pattern.replace(/\{(\d+)\}/g, (_, i) => items[Number(i)]);
}

// kniffel.rules.point_ranges with an en dash: [0, 5, 6, 7, 8] reads "0, 5–8".
function ranges(values) {
  const ordered = [...values].sort((a, b) => a - b);
  const parts = [];
  let start = ordered[0];
  let prev = start;
  for (const value of [...ordered.slice(1), null]) {
    if (value !== null && value === prev + 1) {
      prev = value;
      continue;
    }
    parts.push(start === prev ? String(start) : `${start}–${prev}`);
    if (value !== null) start = prev = value;
  }
  return parts.join(", ");
}

const whole = (value) => Number.isInteger(value);

function said(words, own, name, value) {
  if (name === "column" && typeof value === "string" && own.columns[value]) return own.columns[value];
  if ((name === "row" || name === "due_row") && typeof value === "string") return row(own, value);
  if ((name === "cell" || name === "announced") && typeof value === "string") return cell(own, value);
  if (name === "cells" && Array.isArray(value)) return either(words, value.map((c) => cell(own, String(c))));
  if ((name === "dice" || name === "keep") && Array.isArray(value)) return value.join(" ") || "–";
  if (name === "allowed" && Array.isArray(value)) {
    if (value.length && value.every(whole)) return ranges(value);
    return either(words, value.map(String));
  }
  if (name === "rows" && Array.isArray(value)) return value.map((v) => row(own, String(v))).join(", ");
  if (name === "columns" && Array.isArray(value)) return value.map((v) => own.columns[v] || String(v)).join(", ");
  if (Array.isArray(value)) return value.join(", ");
  if (whole(value)) return new Intl.NumberFormat(words.lang).format(value);
  return String(value);
}
