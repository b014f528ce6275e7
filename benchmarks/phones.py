"""Phone to phone: how long an entry on one phone takes to show on a second one.

Run through ``uv run python benchmarks/live.py --phones 40 [--against DIR] [--burners N]``.
Two real browser pages (Debian's chromium, phone size, both holding the game's key as a
second phone that joined through the QR code does) watch one Rauf-Runter-Kniffel game on a
board served on loopback; the phones take turns: one types the dice and taps a due cell, the
other shows the new version without a reload. Each page notes, on one clock
(``performance.timeOrigin + performance.now()``), when

- the entering phone sent its entry (htmx's ``beforeRequest`` of the entry's post),
- the other phone's live socket brought the new version (*server*: store, tell the hub,
  send on the socket),
- that phone asked for the board and its answer arrived (*fetch*; none where the socket
  carries the board itself), and
- the new version was swapped into the page (*swap*).

It prints p50/p95/max of each part and of the whole, phone to phone. ``--against DIR``
measures a second checkout's code the same way (its ``src`` first on ``PYTHONPATH``, with
this project's environment), on a board of its own at the same time (the two games take turns
entry by entry, so both meet the same busy machine), and prints both side by side with the
ratio. ``--burners``
keeps that many CPU cores busy during the runs, as on a busy machine (default none).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from load import HOST, free_port, stop, wait_until_up  # benchmarks/load.py

CHROMIUM = Path(os.environ.get("KNIFFEL_CHROMIUM", "/usr/lib/chromium/chromium"))
MAX_ENTRIES = 150
PHONE = {"width": 390, "height": 844}
DICE = "11111"

#: Notes what the page hears and does, by version, on the page's clock (ms since the epoch).
NOTES = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const notes = (window.__phone = { sent: {}, heard: {}, asked: [], answered: [], shown: {} });
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Socket(...args);
    socket.addEventListener("message", (event) => {
      try {
        const message = JSON.parse(event.data);
        const v = message.version;
        if (v !== undefined && !(v in notes.heard)) notes.heard[v] = now();
      } catch (error) {}
    });
    return socket;
  };
  window.WebSocket.prototype = Socket.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  document.addEventListener("htmx:beforeRequest", (event) => {
    const path = event.detail.requestConfig ? event.detail.requestConfig.path : "";
    const board = document.querySelector("#board");
    const at = board ? Number(board.dataset.version) : -1;
    if (/\\/enter$/.test(path)) notes.sent[at + 1] = now();
    else if (/\\/board\\?/.test(path)) notes.asked.push(now());
  });
  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const path = event.detail.requestConfig ? event.detail.requestConfig.path : "";
    if (/\\/board\\?/.test(path)) notes.answered.push(now());
  });
  const shown = () => {
    const board = document.querySelector("#board");
    if (!board) return;
    const v = Number(board.dataset.version);
    if (!(v in notes.shown)) notes.shown[v] = now();
  };
  new MutationObserver(shown).observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-version"],
  });
})();
"""


@dataclass
class Parts:
    """Milliseconds per entry, phone to phone, and how each splits."""

    whole: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)
    fetch: list[float] = field(default_factory=list)
    swap: list[float] = field(default_factory=list)
    fetches: int = 0  # board requests the watching phone made for the entries


@contextlib.contextmanager
def board(workdir: Path, source: Path | None) -> Iterator[str]:
    """One ``kniffel serve`` on loopback with a throwaway SQLite file; ``source``: run that
    checkout's code instead of this one's."""
    env = {
        **os.environ,
        "KNIFFEL_DB": f"sqlite:///{workdir / 'phones.db'}",
        "KNIFFEL_CACHE_DIR": str(workdir / "cache"),
        "KNIFFEL_PREBUILD_TABLES": "0",
        "KNIFFEL_BACKGROUND": "0",
    }
    if source is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(source / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "kniffel", "serve", "--host", HOST, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://{HOST}:{port}"
        wait_until_up(f"{url}/healthz", process, timeout=180)  # a busy machine starts slowly
        yield url
    finally:
        stop(process)


def _post_json(url: str, body: dict[str, object]) -> dict[str, Any]:
    import json
    import urllib.request

    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


def measure(urls: list[str], entries: int) -> list[Parts]:
    """The same entries on a game on each board, taking turns entry by entry, so that every
    board meets the same busy machine."""
    from playwright.sync_api import expect, sync_playwright

    found = [Parts() for _ in urls]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        tables = []
        for url in urls:
            players = {"variant": "rauf-runter", "players": ["Anna", "Ben"]}
            game = _post_json(f"{url}/api/games", players)
            pages = []
            for _ in range(2):
                context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
                context.add_init_script(NOTES)
                page = context.new_page()
                page.goto(f"{url}/g/{game['id']}#key={game['key']}")
                expect(page.locator(".game")).to_have_attribute("data-live", "open", timeout=60_000)
                expect(page.locator("[data-dice-input]")).to_be_visible(timeout=60_000)
                pages.append(page)
            tables.append(pages)
        for number in range(1, entries + 1):
            for pages, parts in zip(tables, found, strict=True):
                enter(pages, number, parts)
        browser.close()
    return found


def enter(pages: list[Any], number: int, parts: Parts) -> None:
    """One phone enters the ``number``th entry; what the other one shows goes into ``parts``."""
    from playwright.sync_api import expect

    mover, watcher = pages[number % 2], pages[(number + 1) % 2]
    mover.locator("#dice-input").focus()
    mover.keyboard.type(DICE)
    cell = mover.locator(".sheet:not(.is-back) td.due .cell-btn:has(.preview)").first
    expect(cell).to_be_visible(timeout=60_000)
    asked_before = watcher.evaluate("window.__phone.asked.length")
    cell.click()
    for page in pages:
        expect(page.locator("#board")).to_have_attribute(
            "data-version", str(number), timeout=60_000
        )
    sent = mover.evaluate(f"window.__phone.sent[{number}]")
    notes = watcher.evaluate("window.__phone")
    heard = notes["heard"].get(str(number))
    shown = notes["shown"][str(number)]
    parts.fetches += len(notes["asked"]) - asked_before
    if sent is None or heard is None:
        return
    parts.whole.append(shown - sent)
    parts.server.append(heard - sent)
    answered = [at for at in notes["answered"] if heard <= at <= shown]
    if answered:
        parts.fetch.append(answered[-1] - heard)
        parts.swap.append(shown - answered[-1])
    else:
        parts.swap.append(shown - heard)


def burn(stop_event: Any) -> None:
    """Keeps one core busy until ``stop_event`` is set."""
    while not stop_event.is_set():
        sum(i * i for i in range(10_000))


def quantile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def describe(values: list[float]) -> str:
    return (
        f"p50 {quantile(values, 0.5):7.1f}  p95 {quantile(values, 0.95):7.1f}"
        f"  max {max(values, default=float('nan')):7.1f} ms"
    )


def run_phones(entries: int, against: Path | None, burners: int) -> None:
    if not 1 <= entries <= MAX_ENTRIES:
        raise SystemExit(f"--phones must be between 1 and {MAX_ENTRIES}")
    if not CHROMIUM.exists():
        raise SystemExit(f"Debian chromium is missing at {CHROMIUM} (apt-get install chromium)")
    runs: list[tuple[str, Path | None]] = [("this checkout", None)]
    if against is not None:
        runs.append((f"{against}", against.resolve()))
    stop_event = multiprocessing.Event()
    busy = [multiprocessing.Process(target=burn, args=(stop_event,)) for _ in range(burners)]
    for process in busy:
        process.start()
    found: list[tuple[str, Parts]] = []
    try:
        started = time.perf_counter()
        with contextlib.ExitStack() as stack:
            urls = []
            for _, source in runs:
                tmp = Path(
                    stack.enter_context(tempfile.TemporaryDirectory(prefix="kniffel-phones-"))
                )
                urls.append(stack.enter_context(board(tmp, source)))
            measured = measure(urls, entries)
        seconds = time.perf_counter() - started
        for (label, _), parts in zip(runs, measured, strict=True):
            found.append((label, parts))
            print(f"{label}: {len(parts.whole)} entries, {burners} CPU burners, {seconds:.0f} s")
            print(f"  phone -> phone   {describe(parts.whole)}")
            print(f"    server         {describe(parts.server)}  (sent -> socket message)")
            if parts.fetch:
                print(f"    fetch          {describe(parts.fetch)}  (message -> board answer)")
            print(f"    swap           {describe(parts.swap)}  (-> new version on the page)")
            print(
                f"  over 1 s: {sum(w > 1000 for w in parts.whole)} of {len(parts.whole)};"
                f" board requests by the watching phone: {parts.fetches}"
            )
    finally:
        stop_event.set()
        for process in busy:
            process.join()
    if len(found) == 2:
        (_, mine), (label, theirs) = found
        for share, name in ((0.5, "p50"), (0.95, "p95")):
            ratio = quantile(mine.whole, share) / quantile(theirs.whole, share)
            print(
                f"{name}: this checkout {quantile(mine.whole, share):.1f} ms,"
                f" {label} {quantile(theirs.whole, share):.1f} ms, ratio {ratio:.2f}"
            )
    if found[0][1].whole:
        print(f"(mean phone -> phone: {statistics.fmean(found[0][1].whole):.1f} ms)")
