// Die Tafel in the browser: typed dice, sheet tabs, corrections and live updates.
// The server renders every state; this script only sends what the player types
// and keeps every open device on the newest version of the game.
"use strict";

document.documentElement.classList.add("js");

// htmx "settles" a swap by giving the swapped elements the server's class and style again
// about 20 ms later, which undid the sheet chosen and the Tipp marks this script draws
// (docs/decisions.md, "One client state"): nothing of the board is settled.
// htmx also binds the swapped-in forms and buttons (hx-post) only when it settles: a tap in
// between was the browser's own form post, which left the page (a cell tapped the moment its
// preview showed, issue 19). With nothing to settle, the swap settles at once.
if (window.htmx) {
  window.htmx.config.attributesToSettle = [];
  window.htmx.config.defaultSettleDelay = 0;
}

(function () {
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  // ------------------------------------------------------------- new game

  function setUpNewGame(form) {
    // Each preset offers its own house rules (Jamb: Triling, Kenta, Σ2 and its columns): only
    // the chosen preset's fields show; the server reads only those (docs/board.md).
    const showRules = (variant) => {
      for (const part of $$("[data-variants]", form)) {
        part.hidden = !part.dataset.variants.split(" ").includes(variant);
      }
    };
    // The house rules as the rules declare them (kniffel.rules.HOUSE_RULES), from the form.
    const setOptions = (options) => {
      for (const { name, widget, on } of JSON.parse(form.dataset.houseRules)) {
        if (!(name in options)) continue;
        const field = form.elements[name];
        if (widget === "check") field.checked = options[name] === on;
        else if (widget === "radio") for (const radio of field) radio.checked = radio.value === options[name];
        else field.value = options[name];
      }
    };
    for (const radio of $$('input[name="variant"]', form)) {
      radio.addEventListener("change", () => {
        setOptions(JSON.parse(radio.dataset.options));
        showRules(radio.value);
      });
      if (radio.checked) showRules(radio.value);
    }
    const extra = $$("[data-extra-player]", form).filter((li) => !$("input", li).value);
    const add = $("[data-add-player]", form);
    if (!add || extra.length === 0) return;
    extra.forEach((li) => (li.hidden = true));
    add.hidden = false;
    add.addEventListener("click", () => {
      const next = extra.shift();
      if (!next) return;
      next.hidden = false;
      $("input", next).focus();
      if (extra.length === 0) add.hidden = true;
    });
  }

  // ----------------------------------------------------------------- board

  // The page's state belongs to the game version and the player to move (docs/board.md):
  // typed dice, previews, the Tipp and the correction dialog of an older version or
  // another player are dropped when the board moves on, and taps wait while a change is
  // on its way.
  function setUpBoard(game) {
    const gameId = game.dataset.game;
    const board = () => $("#board");
    const version = () => Number(board().dataset.version);
    const turnKey = () => board().dataset.turn;
    const mover = () => board().dataset.player || "";
    let latest = version();
    let refreshing = null;
    let again = false;
    let settle = null; // where and until when a tap is the second of a double tap
    let lastTap = null; // where the last change was tapped
    let byKeyboard = false; // the last change was made from the keyboard
    let tapped = null; // the id of the control last pressed: messages appear next to it
    let changeKey = null; // where the dice of the turn a change was sent in are kept
    let mismatch = null; // typed values a preview was already dropped for once

    // -- one client state (docs/decisions.md, "One client state"): the game part is read from
    // the board the server drew and replaced as a whole with every swap; the view part is the
    // page's own and is kept only while it still fits the game that is drawn.
    const readGame = () => ({ version: version(), turn: turnKey(), player: mover(), front: board().dataset.front });
    const state = {
      game: readGame(),
      view: {
        sheet: null, // the seat whose sheet the player chose, until the turn changes
        dialog: null, // the correction open: { version } it was opened at
        focus: null, // where the focus goes once a change shows: { since, turn, to: "entry" | "roll" | "off" }
        kept: null, // the element focused when a swap began, and its selection
        held: null, // the dice held in the tray: { turn, dice, on }
      },
      change: null, // the change on its way: { version } it was sent at; taps and keys wait for it
    };
    const busyNow = () => state.change !== null;

    // -- what the player typed (the inputs survive every swap: hx-preserve)
    const diceInput = () => $("[data-dice-input]");
    const pointsInput = () => $("[data-points-input]");
    const rollsInput = () => $("[data-rolls-input]");
    const mode = () => {
      const entry = $("#dice-entry");
      return entry ? entry.dataset.mode : "dice";
    };

    function diceText() {
      const input = diceInput();
      return input ? input.value.replace(/[^1-6]/g, "").slice(0, 5) : "";
    }

    function pointsText() {
      const points = pointsInput();
      return mode() === "points" && points ? points.value.trim() : "";
    }

    // -- typed dice survive a reload: kept per game, turn and player for this tab
    const storeKey = () => `tafel:${gameId}:${turnKey()}:${mover()}`;
    function remember() {
      if (!diceInput()) return;
      try {
        const rolls = rollsInput() ? rollsInput().value : "3";
        const kept = { dice: diceText(), points: pointsText(), mode: mode(), rolls };
        if (!kept.dice && !kept.points && rolls === "3") sessionStorage.removeItem(storeKey());
        else sessionStorage.setItem(storeKey(), JSON.stringify(kept));
      } catch (error) {
        // private mode without storage: typing still works, it just is not kept
      }
    }
    function recall() {
      try {
        return JSON.parse(sessionStorage.getItem(storeKey()) || "null");
      } catch (error) {
        return null;
      }
    }

    function boardUrl() {
      const params = new URLSearchParams();
      if (mode() === "dice" && diceText().length === 5) params.set("dice", diceText());
      if (pointsText() !== "") params.set("points", pointsText());
      // Which roll made them: Jamb's Kenta and the first-roll columns score by it.
      if (rollsInput()) params.set("rolls", rollsInput().value);
      // The turn the dice were typed in: the server previews them only for that turn.
      params.set("turn", turnKey());
      return `/g/${gameId}/board?${params}`;
    }

    // What the board previews must be what the entry panel holds.
    function typedNow() {
      if (!diceInput()) return { dice: "", points: "" };
      return { dice: mode() === "dice" && diceText().length === 5 ? diceText() : "", points: pointsText() };
    }

    function refresh() {
      if (refreshing) {
        again = true;
        return refreshing;
      }
      refreshing = htmx
        .ajax("GET", boardUrl(), { target: "#tafel", swap: "innerHTML" })
        .catch(() => {})
        .finally(() => {
          refreshing = null;
          if (again) {
            again = false;
            refresh();
          }
        });
      return refreshing;
    }

    let previewTimer = null;
    function schedulePreview() {
      clearTimeout(previewTimer);
      previewTimer = setTimeout(refresh, 90);
    }

    function showDice() {
      const show = $("[data-dice-show]");
      const input = diceInput();
      if (!show || !input) return;
      const text = diceText();
      if (input.value !== text) input.value = text;
      show.replaceChildren();
      for (let i = 0; i < 5; i++) {
        const face = Number(text[i]);
        const die = document.createElement("span");
        if (face) {
          die.className = `die small face-${face}`;
          for (let pip = 0; pip < face; pip++) die.append(document.createElement("i"));
        } else {
          die.className = "slot";
        }
        show.append(die);
      }
    }

    function typedChanged() {
      clearTipp();
      remember();
      showDice();
      schedulePreview();
    }

    function typeFace(face) {
      const input = diceInput();
      if (!input || mode() !== "dice" || busyNow()) return;
      backToFront();
      const text = diceText();
      if (text.length >= 5) {
        // A sixth die keeps the five there: the player clears first (⌫ or ✕).
        notice(input.dataset.full || "", true, $("[data-dice-show]"));
        return;
      }
      clearNotice();
      input.value = text + face;
      lastDice = input.value;
      typedChanged();
    }

    // Dice are always typed for the player to move: their sheet comes to the front.
    function backToFront() {
      if (state.view.sheet === null) return;
      state.view.sheet = null;
      selectSheet(board().dataset.front, false);
    }

    function removeFace(all) {
      const input = diceInput();
      if (!input || busyNow()) return;
      clearNotice();
      input.value = all ? "" : diceText().slice(0, -1);
      lastDice = input.value;
      typedChanged();
    }

    function setMode(value, focus = true) {
      const entry = $("#dice-entry");
      if (!entry) return;
      entry.dataset.mode = value;
      for (const button of $$("[data-entry-mode]", entry)) {
        button.setAttribute("aria-pressed", button.dataset.entryMode === value ? "true" : "false");
      }
      for (const panel of $$("[data-mode-panel]")) {
        panel.hidden = panel.dataset.modePanel !== value;
      }
      if (diceInput()) diceInput().disabled = value !== "dice";
      if (pointsInput()) pointsInput().disabled = value !== "points";
      const field = value === "dice" ? diceInput() : pointsInput();
      if (field && focus) field.focus();
      typedChanged();
    }

    function setRolls(value, keep = true) {
      const input = rollsInput();
      if (!input) return;
      input.value = value;
      for (const button of $$("[data-rolls]")) {
        button.setAttribute("aria-pressed", button.dataset.rolls === value ? "true" : "false");
      }
      clearTipp();
      if (!keep) return;
      remember();
      schedulePreview(); // the preview of a Jamb entry may change with the roll
    }

    function clearEntry() {
      if (diceInput()) diceInput().value = "";
      if (pointsInput()) pointsInput().value = "";
      lastDice = "";
      setRolls("3", false);
      showDice();
    }

    // -- messages: in one live region that stays on the page, shown where the finger was
    const toast = $("#toast");
    let noticeVersion = -1;
    function notice(text, isError, anchor) {
      if (!toast) return;
      toast.textContent = text;
      toast.classList.toggle("error", !!isError);
      noticeVersion = version();
      place(anchor);
    }
    function clearNotice() {
      if (toast && toast.textContent) toast.textContent = "";
    }
    function place(anchor) {
      if (!toast || !toast.textContent) return;
      toast.style.top = "";
      const height = toast.offsetHeight;
      const status = $(".status", board());
      const floor = status ? Math.max(8, status.getBoundingClientRect().bottom + 6) : 8;
      const panel = $(".entry", board());
      const panelTop = panel && getComputedStyle(panel).position === "fixed"
        ? panel.getBoundingClientRect().top : window.innerHeight;
      const ceiling = Math.max(floor, panelTop - height - 8);
      let top = floor;
      if (anchor && anchor.isConnected) {
        const rect = anchor.getBoundingClientRect();
        top = rect.bottom + 6 > ceiling ? rect.top - height - 6 : rect.bottom + 6;
      }
      toast.style.top = `${Math.round(Math.min(Math.max(top, floor), ceiling))}px`;
    }
    // A message never takes a tap meant for what lies under it: taps go through it, and the
    // next touch anywhere clears it (a tap that has something to say says it again).
    if (toast) toast.style.pointerEvents = "none";
    document.addEventListener("pointerdown", clearNotice, true);
    window.addEventListener("resize", () => place(null));

    // -- sheets as tabs (on a phone one sheet is in front)
    function selectSheet(seat, focus) {
      const tabs = $$(".player-tab", board());
      if (!tabs.length) return;
      const wanted = $(`#tab-${seat}`) ? String(seat) : board().dataset.front;
      for (const tab of tabs) {
        const on = tab.id === `tab-${wanted}`;
        tab.setAttribute("aria-selected", on ? "true" : "false");
        tab.tabIndex = on ? 0 : -1;
        if (on && focus) tab.focus();
      }
      for (const sheet of $$(".sheet", board())) {
        sheet.classList.toggle("is-back", sheet.dataset.seat !== wanted);
      }
      showTab($(`#tab-${wanted}`));
    }

    // On a phone the tabs are one row that scrolls sideways: the chosen tab is kept in it.
    function showTab(tab) {
      const strip = tab && tab.parentElement;
      if (!strip || strip.scrollWidth <= strip.clientWidth) return;
      const inner = strip.getBoundingClientRect();
      const outer = tab.getBoundingClientRect();
      const room = 8;
      if (outer.left < inner.left + room) strip.scrollLeft -= inner.left + room - outer.left;
      else if (outer.right > inner.right - room) strip.scrollLeft += outer.right - (inner.right - room);
    }

    // -- taps that must wait: while a change is on its way, and the second tap of a double tap
    document.addEventListener(
      "click",
      (event) => {
        const target = event.target instanceof Element ? event.target : null;
        if (!target || !game.contains(target)) return;
        const control = target.closest(".cell-btn, [data-face], [data-pad], .roll button, .undo button, .die-toggle");
        // The second tap of a double tap: the next tap after a change, at the same place, soon.
        const second = settle && event.detail !== 0 && performance.now() < settle.until &&
          Math.hypot(event.clientX - settle.x, event.clientY - settle.y) < 24;
        settle = null;
        if (!control) return;
        const cell = control.classList.contains("cell-btn");
        if (busyNow() || (cell && (event.detail > 1 || second))) {
          event.preventDefault();
          event.stopImmediatePropagation();
          return;
        }
        if (cell || control.matches(".roll button, .undo button")) {
          byKeyboard = event.detail === 0;
          tapped = control.id || null;
          lastTap = { x: event.clientX, y: event.clientY };
        }
      },
      true,
    );

    // Typing in between means the next tap is meant.
    document.addEventListener("keydown", () => (settle = null), true);

    // -- clicks on the board
    document.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (!target || !game.contains(target)) return;
      const tab = target.closest(".player-tab");
      if (tab) {
        state.view.sheet = tab.id.replace("tab-", "");
        selectSheet(state.view.sheet, false);
        return;
      }
      const cell = target.closest(".cell-btn");
      if (cell) return clickCell(event, cell);
      const key = target.closest("[data-face], [data-pad]");
      if (key) {
        if (key.dataset.face) typeFace(key.dataset.face);
        else removeFace(key.dataset.pad === "clear");
        return;
      }
      const modeButton = target.closest("[data-entry-mode]");
      if (modeButton) return setMode(modeButton.dataset.entryMode);
      const tippButton = target.closest("[data-tipp]");
      if (tippButton) return askTipp(tippButton);
      const rollsButton = target.closest("[data-rolls]");
      if (rollsButton) return setRolls(rollsButton.dataset.rolls);
      const copy = target.closest("[data-copy]");
      if (copy) {
        const field = document.getElementById(copy.dataset.copy);
        field.select();
        if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(() => {});
      }
    });

    function clickCell(event, cell) {
      clearNotice();
      if ("edit" in cell.dataset) {
        event.preventDefault();
        return openEdit(cell);
      }
      if (cell.getAttribute("aria-disabled") !== "true") return;
      // An allowed cell waits only for dice: typed ones go to the server, which decides.
      const typed = mode() === "dice" ? diceText().length === 5 : !!(pointsInput() && pointsInput().value);
      if (cell.dataset.state === "waiting" && typed) return;
      // A cell closed by the preview of another roll than the one now said (a tap on 1 2 3
      // whose preview has not come yet: Jamb's Najava takes only a first roll): the server
      // decides with the roll the entry sends. The board names its roll only where the rules
      // ask which roll it was.
      const shownRoll = board().dataset.roll || "";
      if (typed && shownRoll && rollsInput() && rollsInput().value !== shownRoll) return;
      event.preventDefault();
      event.stopPropagation();
      notice(cell.dataset.reason || "", false, cell);
    }

    // -- corrections: the dialog belongs to the version it was opened at
    const dialog = $("#edit-dialog");
    function openEdit(cell) {
      if (!dialog) return;
      $("[data-edit-label]", dialog).textContent = cell.dataset.label;
      $("[data-edit-version]", dialog).value = version();
      $("[data-edit-player]", dialog).value = cell.dataset.player;
      $("[data-edit-cell]", dialog).value = cell.dataset.cell;
      const points = $("[data-edit-points]", dialog);
      points.value = cell.dataset.points;
      const possible = $("[data-edit-possible]", dialog);
      possible.textContent = possible.dataset.template.replace("{values}", cell.dataset.possible);
      editError.hidden = true;
      editError.textContent = "";
      dialog.showModal();
      state.view.dialog = { version: version() };
      points.focus();
      points.select();
    }
    // A refusal is said inside the dialog, which stays open with the value to change; the
    // dialog closes once the board shows another version (its own change, or another's).
    const editError = document.createElement("p");
    editError.className = "message error edit-error";
    editError.setAttribute("role", "alert");
    editError.hidden = true;
    function editRefused(text) {
      editError.textContent = text;
      editError.hidden = !text;
      const points = $("[data-edit-points]", dialog);
      points.focus();
      points.select();
    }
    if (dialog) {
      $("[data-edit-possible]", dialog).after(editError);
      $("[data-close-dialog]", dialog).addEventListener("click", () => dialog.close());
      dialog.addEventListener("close", () => (state.view.dialog = null));
      $("[data-edit-points]", dialog).addEventListener("input", () => (editError.hidden = true));
    }

    // -- typing into the dice field: a wrong key or a sixth die says so and keeps the five
    let lastDice = diceText();
    document.addEventListener("input", (event) => {
      const input = diceInput();
      if (event.target === input) {
        backToFront();
        const raw = input.value;
        const digits = raw.replace(/[\s,]/g, "");
        if (busyNow() || /[^1-6]/.test(digits) || digits.length > 5) {
          input.value = lastDice;
          if (!busyNow()) {
            notice(digits.length > 5 && !/[^1-6]/.test(digits) ? input.dataset.full : input.dataset.faces, true, input);
          }
          showDice();
          return;
        }
        clearNotice();
        lastDice = digits;
        typedChanged();
      } else if (event.target === pointsInput()) {
        clearTipp();
        remember();
        schedulePreview();
      }
    });

    document.addEventListener("keydown", (event) => {
      const target = event.target;
      if (target === diceInput() || target === pointsInput()) {
        if (event.key === "Escape" && target === diceInput()) {
          removeFace(true);
        } else if (event.key === "Enter") {
          // Enter moves on to the cells; it never enters into the first one by itself.
          event.preventDefault();
          const open = firstOpenCell();
          if (open) open.focus();
        }
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const typing = target instanceof HTMLElement &&
        (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) &&
        !["checkbox", "radio"].includes(target.type);
      if (typing || (dialog && dialog.open)) return;
      // Virtual dice: the digits 1 to 5 hold (or release) that die of the tray.
      const tray = $$(".tray input[data-die]", board());
      if (!diceInput() && tray.length && /^[1-5]$/.test(event.key)) {
        const die = tray[Number(event.key) - 1];
        event.preventDefault();
        if (die && !die.disabled && !busyNow()) die.checked = !die.checked;
        return;
      }
      if (!diceInput() || mode() !== "dice") return;
      // Five dice typed and the focus nowhere: Enter still moves on to the cells.
      if (event.key === "Enter" && (target === document.body || target === document.documentElement)) {
        const open = diceText().length === 5 ? firstOpenCell() : null;
        if (open) {
          event.preventDefault();
          open.focus();
        }
        return;
      }
      if (/^[1-6]$/.test(event.key)) {
        event.preventDefault();
        typeFace(event.key);
      } else if (event.key === "Backspace") {
        event.preventDefault();
        removeFace(false);
      } else if (event.key === "Escape") {
        removeFace(true);
      }
    });

    // -- the sheet by keyboard: arrow keys move between the cells of a sheet, like on paper
    document.addEventListener("keydown", (event) => {
      const cell = event.target instanceof Element && event.target.closest(".cell-btn");
      const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
      if (!cell || !step || event.altKey || event.ctrlKey || event.metaKey) return;
      const rows = $$("tbody tr", cell.closest("table"));
      const row = cell.closest("tr");
      const r = rows.indexOf(row) + step[0];
      const c = $$("td.cell", row).indexOf(cell.closest("td")) + step[1];
      const next = rows[r] && $$("td.cell", rows[r])[c];
      if (!next) return;
      event.preventDefault();
      $(".cell-btn", next).focus();
    });

    // -- tabs by keyboard (arrow keys, as a tab list should)
    document.addEventListener("keydown", (event) => {
      const tab = event.target instanceof Element && event.target.closest(".player-tab");
      if (!tab || !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
      const tabs = $$(".player-tab", board());
      let i = tabs.indexOf(tab);
      if (event.key === "ArrowLeft") i = (i - 1 + tabs.length) % tabs.length;
      if (event.key === "ArrowRight") i = (i + 1) % tabs.length;
      if (event.key === "Home") i = 0;
      if (event.key === "End") i = tabs.length - 1;
      event.preventDefault();
      state.view.sheet = tabs[i].id.replace("tab-", "");
      selectSheet(state.view.sheet, true);
    });

    // -- the Tipp belongs to the version and the dice it was asked for
    const tippFor = () => `${version()}|${typedNow().dice}|${typedNow().points}|${rollsInput() ? rollsInput().value : ""}`;
    function clearTipp() {
      const place = $("#tipp");
      if (place && place.dataset.for !== tippFor()) {
        place.replaceChildren();
        delete place.dataset.for;
      }
    }

    function askTipp(button) {
      const params = new URLSearchParams();
      if (diceInput() && mode() === "dice" && diceText()) {
        params.set("dice", diceText());
        if (rollsInput()) params.set("rolls", rollsInput().value);
      }
      const asked = tippFor();
      const place = $("#tipp");
      if (place) place.setAttribute("aria-busy", "true");
      fetch(`${button.dataset.tipp}?${params}`, { credentials: "same-origin" })
        .then((answer) => answer.text())
        .then((html) => {
          const now = $("#tipp");
          if (!now) return;
          now.removeAttribute("aria-busy");
          // A Tipp asked for other dice or an older version is not shown.
          if (tippFor() !== asked) return;
          now.innerHTML = html;
          now.dataset.for = asked;
          markTipp();
          // The panel opens under the tabs: where they cover its top, it comes into view below them.
          if (covered(now, 4)) now.scrollIntoView({ block: "start" });
        })
        .catch(() => {
          const now = $("#tipp");
          if (now) now.removeAttribute("aria-busy");
          notice(liveText.dataset.offline || "", true, button);
        });
    }

    // -- a change on its way: nothing else is sent until the board shows its outcome
    const isChange = (event) => {
      const config = event.detail.requestConfig;
      return !!config && config.verb && config.verb !== "get" && game.contains(event.detail.elt);
    };
    // The change is done when the board shows a newer version than the one it was sent at
    // (the live update often shows it before the change's own answer comes), or when its
    // answer has ended (loaded, failed or timed out), told by the request itself: a live
    // update may have replaced the tapped form, and htmx then has no element on the page to
    // send htmx:afterRequest to.
    document.addEventListener("htmx:beforeRequest", (event) => {
      if (!isChange(event)) return;
      changeKey = storeKey();
      const change = { version: version() };
      state.change = change;
      game.setAttribute("aria-busy", "true");
      // Where the focus goes once the change shows is decided now, once, by the page's own
      // rule (docs/board.md): not by whichever answer happens to draw the new turn first.
      const form = event.detail.elt.closest ? event.detail.elt.closest("form") : null;
      const turnControl = form && (form.matches(".roll, .undo") || form.id === "enter-form");
      if (turnControl) {
        const to = !byKeyboard ? "off" : form.matches(".roll") ? "roll" : "entry";
        state.view.focus = { since: version(), turn: turnKey(), to };
      }
      event.detail.xhr.addEventListener(
        "loadend",
        () => {
          const waited = state.change === change;
          changeDone(change);
          // An answer that drew nothing (lost, refused, or older than a change heard meanwhile)
          // while the live update left the change to it.
          if (waited && version() < latest) refresh();
        },
        { once: true },
      );
    });
    function changeDone(change) {
      if (state.change !== change) return;
      state.change = null;
      game.removeAttribute("aria-busy");
      settle = lastTap && !byKeyboard ? { ...lastTap, until: performance.now() + 700 } : null;
      // A change that was refused leaves the board where it was: so does the focus.
      if (state.view.focus && state.view.focus.since >= version()) state.view.focus = null;
    }

    // -- before every swap of the board: which answers are drawn at all
    const emptyNotice = /id="notice"[^>]*>\s*<\/p>/;
    document.addEventListener("htmx:beforeSwap", (event) => {
      const target = event.detail.target;
      if (!target || target.id !== "tafel") return;
      const response = event.detail.serverResponse || "";
      const attribute = (name) => {
        const match = new RegExp(`id="board"[^>]*?data-${name}="([^"]*)"`).exec(response);
        return match ? match[1] : null;
      };
      const incoming = Number(attribute("version"));
      const verb = event.detail.requestConfig && event.detail.requestConfig.verb;
      const status = event.detail.xhr ? event.detail.xhr.status : 200;
      // A refresh that was sent before another answer replaced the board would swap
      // into a board no longer on the page, or show an older version: drop it.
      if (!target.isConnected || (attribute("version") !== null && incoming < version())) {
        event.detail.shouldSwap = false;
        if (!target.isConnected) schedulePreview();
        return;
      }
      // A refused correction: the board has not changed, so it is not drawn again; the
      // dialog stays open with the reason in it (the view part fits the same version).
      const elt = event.detail.requestConfig && event.detail.requestConfig.elt;
      if (dialog && dialog.open && elt && dialog.contains(elt) && status >= 400 && incoming === version()) {
        event.detail.shouldSwap = false;
        const said = new DOMParser().parseFromString(response, "text/html").getElementById("notice");
        editRefused(said ? said.textContent.trim() : "");
        return;
      }
      // A preview of dice no longer typed (or typed for another turn, or for another roll
      // where the rules ask which roll it was: data-roll) is not shown.
      if (verb === "get" && attribute("turn") === turnKey()) {
        const now = typedNow();
        const number = (text) => (text === "" || isNaN(Number(text)) ? text : String(Number(text)));
        const roll = attribute("roll") || "";
        const wantedRoll = roll && rollsInput() ? rollsInput().value : roll;
        const wanted = `${now.dice}|${number(now.points)}|${wantedRoll}`;
        const shown = `${attribute("dice") || ""}|${number(attribute("points") || "")}|${roll}`;
        if (shown !== wanted && mismatch !== wanted) {
          mismatch = wanted; // once: a board that cannot show these values is shown as it is
          event.detail.shouldSwap = false;
          schedulePreview();
          return;
        }
        mismatch = null;
      }
      // The version already drawn, with the same preview and no message: the live update
      // showed this change before its own answer came. Drawing it again would drop what was
      // tapped in between (a die held in the tray). The same dice of another roll are another
      // preview (Jamb's Kenta, the first-roll columns): a tap on 1 2 3 after the preview
      // was dropped here, and the cells kept the third roll's values.
      const same = incoming === version() && attribute("turn") === turnKey() &&
        attribute("dice") === board().dataset.dice && attribute("points") === board().dataset.points &&
        attribute("roll") === (board().dataset.roll ?? null);
      if (same && status < 400 && emptyNotice.test(response)) {
        event.detail.shouldSwap = false;
        return;
      }
      const active = document.activeElement;
      state.view.kept = active && active !== document.body && game.contains(active)
        ? { el: active, start: active.selectionStart ?? null, end: active.selectionEnd ?? null }
        : null;
      const tray = $$(".tray input[data-die]", board());
      state.view.held = tray.length
        ? { turn: turnKey(), dice: tray.map((i) => i.value).join(""), on: tray.filter((i) => i.checked).map((i) => i.dataset.die) }
        : null;
    });

    // The first cell the player may enter into: open, or waiting for the preview of the dice
    // just typed (the server decides when the cell is tapped).
    const firstOpenCell = () => $(".sheet:not(.is-back) :is(.cell.open, .cell.waiting) .cell-btn", board());

    function focusEntry() {
      const next = diceInput() && mode() === "dice" ? diceInput()
        : mode() === "points" && pointsInput() ? pointsInput()
        : $(".roll-button:not([disabled])", board()) || firstOpenCell() || $(".status", board());
      if (!next) return;
      if (next.matches(".status")) next.tabIndex = -1;
      next.focus({ preventScroll: false });
    }

    // After a roll the same hand rolls again, or, with no roll left, chooses a cell.
    function focusRoll() {
      const next = $(".roll-button:not([disabled])", board()) || firstOpenCell();
      if (next) next.focus({ preventScroll: false });
    }

    // The client's one rule for the focus, applied when the board is drawn.
    function placeFocus(newTurn) {
      const intent = state.view.focus;
      const kept = state.view.kept;
      state.view.kept = null;
      const active = document.activeElement;
      if (intent && version() > intent.since) {
        state.view.focus = null;
        const moved = turnKey() !== intent.turn;
        if (intent.to === "roll" && !moved) return focusRoll();
        // After an entry the next player types: from the keyboard focus goes to their dice;
        // after a tap nothing keeps focus on the sheet (a second tap or Enter must not
        // reach the next player's cells).
        if (moved && intent.to !== "off") return focusEntry();
        if (moved && active && active.closest && active.closest(".cell-btn")) return active.blur();
      }
      // Without Element.moveBefore (WebKit, so every iPhone) htmx takes the kept dice field out
      // of the page and puts it back: the focus fell to the body. It goes back where it was.
      if (kept && kept.el.isConnected && !kept.el.disabled && (!active || active === document.body)) {
        kept.el.focus({ preventScroll: true });
        if (kept.start !== null && kept.el.setSelectionRange) {
          try {
            kept.el.setSelectionRange(kept.start, kept.end);
          } catch (error) {
            // a field without a selection (a number field): the focus is enough
          }
        }
        return;
      }
      // Another device moved the turn on while this keyboard sat on a cell.
      const now = document.activeElement;
      if (newTurn && now && now.closest && now.closest(".cell-btn") && now.matches(":focus-visible")) focusEntry();
    }

    // -- the one function that draws the client state, at the swap itself (not after
    // settling), so that nothing typed afterwards is lost
    document.addEventListener("htmx:afterSwap", (event) => {
      if (!board() || !event.detail.target || event.detail.target.id !== "tafel") return;
      draw();
    });

    function draw() {
      const before = state.game;
      state.game = readGame();
      const view = state.view;
      const newVersion = state.game.version !== before.version;
      const newTurn = state.game.turn !== before.turn;
      // After this device's own change the game goes on: the player to move comes to the front.
      if (newTurn || (state.change && version() > state.change.version)) view.sheet = null;
      if (newTurn) {
        clearEntry();
        const kept = recall();
        if (kept) restore(kept);
        if (changeKey) {
          try {
            sessionStorage.removeItem(changeKey); // the dice of the turn that is over
          } catch (error) {
            // nothing kept, nothing to forget
          }
          changeKey = null;
        }
      }
      if (newVersion) {
        clearTipp();
        // A correction dialog opened at another version would only be refused.
        if (dialog && dialog.open && $("[data-edit-version]", dialog).value !== String(version())) dialog.close();
      }
      selectSheet(view.sheet === null ? state.game.front : view.sheet, false);
      const tray = $$(".tray input[data-die]", board());
      const held = view.held;
      if (held && tray.length && held.turn === turnKey() && held.dice === tray.map((i) => i.value).join("")) {
        for (const input of tray) input.checked = held.on.includes(input.dataset.die);
      }
      showDice();
      // The board's own message (a refusal, a lost tap) goes to the message region.
      const said = $("#notice", board());
      if (said && said.textContent.trim()) {
        const anchor = (tapped && document.getElementById(tapped)) || $("#dice-entry") || null;
        notice(said.textContent.trim(), said.classList.contains("error"), anchor);
      } else if (newVersion && version() !== noticeVersion) {
        clearNotice();
      }
      placeFocus(newTurn);
      if (state.change && version() > state.change.version) changeDone(state.change);
      announce();
      // A new turn, or an entry panel that grew (the dice tray after the first roll), shows
      // the due cells again.
      if (measureEntry() || newTurn) showDue();
      if (version() < latest) refresh();
      else if (newTurn && (typedNow().dice || typedNow().points)) schedulePreview();
    }

    function restore(kept) {
      if (kept.mode && kept.mode !== mode()) setMode(kept.mode, false);
      if (diceInput() && kept.dice) diceInput().value = kept.dice;
      if (pointsInput() && kept.points) pointsInput().value = kept.points;
      lastDice = diceText();
      if (kept.rolls) setRolls(kept.rolls, false);
      showDice();
    }

    // -- the due cells are never under the entry panel, the tabs or the column heads: the
    // sheet scrolls them clear (their scroll-margin in tafel.css keeps the sticky bands'
    // heights; the entry panel's height is measured here, --entry-h)
    let entryHeight = null;
    function measureEntry() {
      const panel = $(".entry", board());
      const fixed = !!panel && getComputedStyle(panel).position === "fixed";
      const height = fixed ? panel.offsetHeight : 0;
      document.documentElement.style.setProperty("--entry-h", `${height}px`);
      const grew = entryHeight !== null && height > entryHeight;
      entryHeight = height;
      return fixed && grew;
    }
    // What a tap at the element's centre (or `from` pixels below its top) would not reach.
    function covered(element, from) {
      const rect = element.getBoundingClientRect();
      const y = from === undefined ? rect.top + rect.height / 2 : rect.top + from;
      const hit = document.elementFromPoint(rect.left + rect.width / 2, y);
      return !hit || !element.contains(hit);
    }
    function showDue() {
      measureEntry();
      if (!entryHeight) return;
      const due = $$(".sheet:not(.is-back) td.cell.due", board());
      const seen = due.filter((cell) => !covered(cell)).length;
      if (seen === due.length) return;
      // The last first, then the first: all end up in view where they fit together; where
      // they do not (a small phone, ↓ Einser and ↑ Chance), one already in view stays so.
      const start = window.scrollY;
      for (const cell of due.slice().reverse()) if (covered(cell)) cell.scrollIntoView({ block: "nearest" });
      if (seen && due.some((cell) => covered(cell))) window.scrollTo(window.scrollX, start);
    }
    // A phone's toolbars come and go while the page scrolls (a resize of the height only):
    // only a new width (the phone turned) scrolls the due cells again.
    let shownWidth = window.innerWidth;
    window.addEventListener("resize", () => {
      if (window.innerWidth === shownWidth) return void measureEntry();
      shownWidth = window.innerWidth;
      showDue();
    });

    // -- the turn, announced in place (the board itself is swapped)
    const turnLive = $("#turn-live");
    function announce() {
      if (!turnLive) return;
      const turn = $(".status .turn", board());
      const text = turn ? turn.textContent.replace(/\s+/g, " ").trim() : "";
      if (turnLive.textContent !== text) turnLive.textContent = text;
    }

    document.addEventListener("htmx:sendError", () => notice(liveText.dataset.offline || "", true, null));

    // -- live: every change on any device appears here within a second
    const liveText = $("[data-live-state]");
    let delay = 400;
    let socket = null;
    // How long the live update leaves this device's own change to its answer.
    const OWN_ANSWER_MS = 3000;
    function connect() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      socket = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/live`);
      socket.addEventListener("open", () => {
        delay = 400;
        liveText.hidden = true;
        game.dataset.live = "open";
      });
      socket.addEventListener("message", (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch (error) {
          return;
        }
        if (message.type !== "state") return;
        latest = Math.max(latest, message.version);
        if (message.version <= version()) return;
        // This device's own change: its answer brings the board, and a third request for it
        // (preview, entry, refresh) only costs the server and swaps the page twice. Only if that
        // answer is slow does the live update draw the change (docs/board.md). The wait is for
        // this change alone: a later change heard meanwhile has asked for the board itself.
        const own = state.change;
        if (own && message.version === own.version + 1) {
          setTimeout(() => {
            if (version() <= own.version) refresh();
          }, OWN_ANSWER_MS);
          return;
        }
        refresh();
      });
      socket.addEventListener("close", (event) => {
        game.dataset.live = "closed";
        socket = null;
        if (event.code === 4404) return;
        liveText.textContent = liveText.dataset.offline;
        liveText.hidden = false;
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 8000);
      });
    }
    const wake = () => {
      if (!socket) {
        delay = 400;
        connect();
      }
    };
    window.addEventListener("online", wake);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") wake();
    });

    selectSheet(board().dataset.front, false);
    if (diceInput()) {
      diceInput().disabled = mode() !== "dice";
      if (!diceText() && !(pointsInput() && pointsInput().value)) {
        const kept = recall();
        if (kept) restore(kept);
      }
      lastDice = diceText();
      showDice();
      if (diceText().length === 5 || pointsText() !== "") schedulePreview();
    }
    const said = $("#notice", board());
    if (said && said.textContent.trim()) notice(said.textContent.trim(), said.classList.contains("error"), null);
    announce();
    showDue();
    connect();
  }

  // ------------------------------------------------------------------ tipp

  // The Tipp panel names the best cell and the dice to keep in data attributes;
  // the page marks them with classes (no inline style: docs/architecture.md, "Security").
  function markTipp() {
    for (const el of $$(".tipp-best-cell, .tipp-keep")) el.classList.remove("tipp-best-cell", "tipp-keep");
    const tipp = $(".tipp[data-highlight-cell], .tipp[data-highlight-dice]");
    if (!tipp) return;
    const cell = tipp.dataset.highlightCell && document.getElementById(tipp.dataset.highlightCell);
    if (cell) cell.classList.add("tipp-best-cell");
    const dice = $$(".tray .die-toggle");
    for (const n of (tipp.dataset.highlightDice || "").split(" ").filter(Boolean)) {
      if (dice[Number(n) - 1]) dice[Number(n) - 1].classList.add("tipp-keep");
    }
  }
  document.addEventListener("htmx:afterSwap", markTipp);
  document.addEventListener("kniffel:tipp", markTipp); // static/tipp.js filled the panel in
  document.addEventListener("click", (event) => {
    const close = event.target instanceof Element && event.target.closest("[data-close-tipp]");
    if (!close) return;
    const tipp = close.closest(".tipp");
    if (tipp) tipp.remove();
    markTipp();
  });

  // ------------------------------------------------------------ play link

  // The play link carries the key in its fragment (#key=…), which no browser sends and so no
  // log keeps; the page trades it for the key cookie once and reloads as a playing device.
  function takeKey(game) {
    const match = /^#key=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
    if (!match) return false;
    history.replaceState(null, "", location.pathname + location.search);
    fetch(`/g/${game.dataset.game}/key`, {
      method: "POST",
      credentials: "same-origin",
      body: new URLSearchParams({ key: match[1] }),
    })
      .then((answer) => {
        if (answer.ok) {
          // A new load of the page, not a reload: a reload puts the scroll position back
          // once the page has loaded, over the due cells the board has just scrolled into view.
          location.replace(location.pathname + location.search);
          return null;
        }
        return answer.text();
      })
      .then((text) => {
        if (text === null) return;
        setUpBoard(game); // a wrong key: this device watches
        const box = $("#toast") || $("#notice");
        if (text && box) {
          box.textContent = text;
          box.classList.add("error");
        }
      })
      .catch(() => setUpBoard(game));
    return true;
  }

  function showRefusal() {
    // A refused import or new game is printed beside its form, often far down the page:
    // bring it into view and give it focus, so that what happened is seen and read out.
    const refusal = $("#import-error, #form-error");
    if (!refusal) return;
    refusal.setAttribute("tabindex", "-1");
    refusal.scrollIntoView({ block: "center" });
    refusal.focus({ preventScroll: true });
  }

  function start() {
    showRefusal();
    const form = $("[data-new-game]");
    if (form) setUpNewGame(form);
    const game = $(".game[data-game]");
    if (game && takeKey(game)) return;
    if (game) setUpBoard(game);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
