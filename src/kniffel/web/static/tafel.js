// Die Tafel in the browser: typed dice, sheet tabs, corrections and live updates.
// The server renders every state; this script only sends what the player types
// and keeps every open device on the newest version of the game.
"use strict";

document.documentElement.classList.add("js");

(function () {
  const $ = (selector, root) => (root || document).querySelector(selector);
  const $$ = (selector, root) => Array.from((root || document).querySelectorAll(selector));

  // ------------------------------------------------------------- new game

  function setUpNewGame(form) {
    const setOptions = (options) => {
      form.elements.chance.checked = !!options.chance;
      form.elements.pasch.checked = options.pasch === "matching_dice";
      form.elements.zero_only_upper.checked = !!options.zero_only_upper;
      for (const radio of form.elements.joker) radio.checked = radio.value === options.joker;
      form.elements.kniffel_bonus.value = options.kniffel_bonus;
    };
    for (const radio of $$('input[name="variant"]', form)) {
      radio.addEventListener("change", () => setOptions(JSON.parse(radio.dataset.options)));
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

  function setUpBoard(game) {
    const gameId = game.dataset.game;
    const board = () => $("#board");
    const version = () => Number(board().dataset.version);
    const turnKey = () => board().dataset.turn;
    let latest = version();
    let lastTurn = turnKey();
    let chosenSeat = null; // the sheet the player looks at, until the turn changes
    let refreshing = null;
    let again = false;
    let held = null;

    // -- what the player typed (the inputs survive every swap: hx-preserve)
    const diceInput = () => $("[data-dice-input]");
    const pointsInput = () => $("[data-points-input]");
    const mode = () => {
      const entry = $("#dice-entry");
      return entry ? entry.dataset.mode : "dice";
    };

    function diceText() {
      const input = diceInput();
      return input ? input.value.replace(/[^1-6]/g, "").slice(0, 5) : "";
    }

    function boardUrl() {
      const params = new URLSearchParams();
      if (mode() === "dice" && diceText().length === 5) params.set("dice", diceText());
      const points = pointsInput();
      if (mode() === "points" && points && points.value.trim() !== "") {
        params.set("points", points.value.trim());
      }
      const query = params.toString();
      return `/g/${gameId}/board${query ? "?" + query : ""}`;
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

    function typeFace(face) {
      const input = diceInput();
      if (!input || mode() !== "dice") return;
      backToFront();
      const text = diceText();
      input.value = (text.length >= 5 ? "" : text) + face;
      showDice();
      schedulePreview();
    }

    // Dice are always typed for the player to move: their sheet comes to the front.
    function backToFront() {
      if (chosenSeat === null) return;
      chosenSeat = null;
      selectSheet(board().dataset.front, false);
    }

    function removeFace(all) {
      const input = diceInput();
      if (!input) return;
      input.value = all ? "" : diceText().slice(0, -1);
      showDice();
      schedulePreview();
    }

    function setMode(value) {
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
      const focus = value === "dice" ? diceInput() : pointsInput();
      if (focus) focus.focus();
      schedulePreview();
    }

    function clearEntry() {
      if (diceInput()) diceInput().value = "";
      if (pointsInput()) pointsInput().value = "";
      showDice();
    }

    function notice(text, isError) {
      const box = $("#notice");
      if (!box) return;
      box.textContent = text;
      box.classList.toggle("error", !!isError);
    }

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
    }

    // -- clicks on the board
    document.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (!target || !game.contains(target)) return;
      const tab = target.closest(".player-tab");
      if (tab) {
        chosenSeat = tab.id.replace("tab-", "");
        selectSheet(chosenSeat, false);
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
      const copy = target.closest("[data-copy]");
      if (copy) {
        const field = document.getElementById(copy.dataset.copy);
        field.select();
        if (navigator.clipboard) navigator.clipboard.writeText(field.value).catch(() => {});
      }
    });

    function clickCell(event, cell) {
      if ("edit" in cell.dataset) {
        event.preventDefault();
        return openEdit(cell);
      }
      if (cell.getAttribute("aria-disabled") !== "true") return;
      // An allowed cell waits only for dice: typed ones go to the server, which decides.
      const typed = mode() === "dice" ? diceText().length === 5 : !!(pointsInput() && pointsInput().value);
      if (cell.dataset.state === "waiting" && typed) return;
      event.preventDefault();
      event.stopPropagation();
      notice(cell.dataset.reason || "", false);
    }

    // -- corrections
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
      dialog.showModal();
      points.focus();
      points.select();
    }
    if (dialog) {
      $("[data-close-dialog]", dialog).addEventListener("click", () => dialog.close());
      dialog.addEventListener("htmx:afterRequest", () => dialog.close());
    }

    // -- typing
    document.addEventListener("input", (event) => {
      if (event.target === diceInput()) {
        backToFront();
        showDice();
        schedulePreview();
      } else if (event.target === pointsInput()) {
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
          const open = $(".sheet:not(.is-back) .cell.open .cell-btn", board());
          if (open) open.focus();
        }
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const typing = target instanceof HTMLElement &&
        (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
      if (typing || (dialog && dialog.open) || !diceInput() || mode() !== "dice") return;
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
      chosenSeat = tabs[i].id.replace("tab-", "");
      selectSheet(chosenSeat, true);
    });

    // -- after every swap of the board
    document.addEventListener("htmx:beforeSwap", (event) => {
      const target = event.detail.target;
      if (!target || target.id !== "tafel") return;
      // A refresh that was sent before another answer replaced the board would swap
      // into a board no longer on the page, or show an older version: drop it.
      const incoming = /id="board"[^>]*data-version="(\d+)"/.exec(event.detail.serverResponse || "");
      if (!target.isConnected || (incoming && Number(incoming[1]) < version())) {
        event.detail.shouldSwap = false;
        if (!target.isConnected) schedulePreview();
        return;
      }
      // After a change the game goes on: the player to move comes to the front.
      const verb = event.detail.requestConfig && event.detail.requestConfig.verb;
      if (verb && verb !== "get") chosenSeat = null;
      const tray = $$(".tray input[data-die]", board());
      held = tray.length
        ? { turn: turnKey(), dice: tray.map((i) => i.value).join(""), on: tray.filter((i) => i.checked).map((i) => i.dataset.die) }
        : null;
    });

    // At the swap itself (not after settling), so that nothing typed afterwards is lost.
    document.addEventListener("htmx:afterSwap", () => {
      if (!board()) return;
      if (turnKey() !== lastTurn) {
        lastTurn = turnKey();
        chosenSeat = null;
        clearEntry();
      }
      selectSheet(chosenSeat === null ? board().dataset.front : chosenSeat, false);
      const tray = $$(".tray input[data-die]", board());
      if (held && tray.length && held.turn === turnKey() && held.dice === tray.map((i) => i.value).join("")) {
        for (const input of tray) input.checked = held.on.includes(input.dataset.die);
      }
      showDice();
      if (version() < latest) refresh();
    });

    document.addEventListener("htmx:sendError", () => notice(liveText.dataset.offline || "", true));

    // -- live: every change on any device appears here within a second
    const liveText = $("[data-live-state]");
    let delay = 400;
    let socket = null;
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
        if (message.version > version()) refresh();
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
      showDice();
      if (diceText().length === 5) schedulePreview();
    }
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
          location.reload();
          return null;
        }
        return answer.text();
      })
      .then((text) => {
        if (text === null) return;
        setUpBoard(game); // a wrong key: this device watches
        const box = $("#notice");
        if (text && box) {
          box.textContent = text;
          box.classList.add("error");
        }
      })
      .catch(() => setUpBoard(game));
    return true;
  }

  function start() {
    const form = $("[data-new-game]");
    if (form) setUpNewGame(form);
    const game = $(".game[data-game]");
    if (game && takeKey(game)) return;
    if (game) setUpBoard(game);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
