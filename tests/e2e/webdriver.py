"""A small WebDriver client (W3C WebDriver over HTTP, httpx) for the WebKit browser tests.

iPhones run WebKit, and Playwright's own WebKit cannot be downloaded here; Debian's
``webkit2gtk-driver`` gives ``WebKitWebDriver`` and its ``MiniBrowser``, which speak plain
WebDriver. Only what the tests need: navigate, run a script, find, click, type, keys.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx

T = TypeVar("T")

#: The W3C name under which an element's reference travels.
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
#: WebDriver's code points of the keys the tests press.
KEYS = {"Enter": "\ue007", "ArrowUp": "\ue013", "ArrowDown": "\ue015", "ArrowLeft": "\ue012"}
KEYS |= {"ArrowRight": "\ue014", "Tab": "\ue004", "Backspace": "\ue003", "Escape": "\ue00c"}

DRIVER = Path(os.environ.get("KNIFFEL_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver"))
MINIBROWSER = Path(
    os.environ.get("KNIFFEL_MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
)


class WebDriverError(AssertionError):
    """The driver refused a command: its error and message, in its words."""


# What covers an element's centre, in words, for a refused click.
_COVERED = """
const el = arguments[0], r = el.getBoundingClientRect();
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
const name = (e) => !e ? "nothing" : e.id ? "#" + e.id : e.tagName + "." + String(e.className);
return `${name(el)} at ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}, ` +
  `scrolled ${Math.round(scrollY)}, under ${name(hit)}`;
"""


@dataclass(frozen=True)
class Element:
    """One element of the page, as the driver names it."""

    session: Session
    id: str

    def click(self) -> None:
        """WebDriver's click: it fails when something else covers the element's centre."""
        try:
            self.session.command("POST", f"/element/{self.id}/click", {})
        except WebDriverError as error:
            if "intercepted" not in str(error):
                raise
            raise WebDriverError(f"{error} ({self.session.run(_COVERED, self)})") from None

    def swipe_to(self) -> None:
        """Brings the element into view as a finger would, just enough (the page's margins kept)."""
        self.session.run("arguments[0].scrollIntoView({block: 'nearest'})", self)

    def type(self, text: str) -> None:
        """Types ``text`` (key by key, as a keyboard does) into this element."""
        self.session.command("POST", f"/element/{self.id}/value", {"text": text})

    def clear(self) -> None:
        self.session.command("POST", f"/element/{self.id}/clear", {})


@dataclass(frozen=True)
class Session:
    """One WebDriver session: one browser window (a phone at the table)."""

    client: httpx.Client
    id: str

    def command(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = self.client.request(method, f"/session/{self.id}{path}", json=body)
        value = answer.json().get("value")
        if answer.status_code != 200:
            error = value.get("error") if isinstance(value, dict) else value
            message = value.get("message") if isinstance(value, dict) else ""
            raise WebDriverError(f"{method} {path}: {error}: {message}")
        return value

    def go(self, url: str) -> None:
        self.command("POST", "/url", {"url": url})

    def resize(self, width: int, height: int) -> dict[str, int]:
        """Sets the window's size; the driver answers the size it could give."""
        size = {"width": width, "height": height}
        rect: dict[str, int] = self.command("POST", "/window/rect", size)
        return rect

    def run(self, script: str, *args: Any) -> Any:
        """The value of ``script`` (a function body: ``return …``) run in the page."""
        wrapped = [{ELEMENT: a.id} if isinstance(a, Element) else a for a in args]
        return self.command("POST", "/execute/sync", {"script": script, "args": wrapped})

    def find(self, css: str) -> Element:
        found = self.command("POST", "/element", {"using": "css selector", "value": css})
        return Element(self, found[ELEMENT])

    def active(self) -> Element:
        return Element(self, self.command("GET", "/element/active")[ELEMENT])

    def press(self, *keys: str) -> None:
        """Presses each named key (``Enter``, ``ArrowDown``, or a character) on what has focus."""
        actions: list[dict[str, str]] = []
        for key in keys:
            value = KEYS.get(key, key)
            actions += [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]
        body = {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}
        self.command("POST", "/actions", body)
        self.command("DELETE", "/actions")

    def wait(self, script: str, *args: Any, seconds: float = 20, what: str = "") -> Any:
        """Runs ``script`` until it returns something truthy; fails after ``seconds``."""
        return eventually(lambda: self.run(script, *args), seconds, what or script)

    def wait_for(self, css: str, seconds: float = 20) -> Element:
        """The first element that matches ``css`` once it is on the page."""
        self.wait("return !!document.querySelector(arguments[0])", css, seconds=seconds, what=css)
        return self.find(css)


def eventually(read: Callable[[], T], seconds: float, what: str) -> T:
    """``read()`` until it is truthy (generous: the machine may be busy); its value."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s in vain for: {what}")
        time.sleep(0.025)  # each look is one quick request to the driver


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: How long a new browser window may take to open before the driver is started afresh.
SESSION_START_SECONDS = 90


class Driver:
    """A running WebKitWebDriver: opens sessions (one at a time) on its browser.

    A window that does not open within ``SESSION_START_SECONDS`` (CI once saw the driver's
    ``POST /session`` hang for its whole timeout) gets one fresh driver and one more try: that is
    the machine's browser failing to start, not the page under test. A second failure fails the
    test, with the end of the driver's log.
    """

    def __init__(self, log: Path) -> None:
        self.log = log
        self.starts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self.client = httpx.Client()
        self._start()

    def _start(self) -> None:
        port = _free_port()
        self.starts += 1
        with self.log.open("ab") as output:
            output.write(f"--- driver start {self.starts} on port {port}\n".encode())
            output.flush()
            self._process = subprocess.Popen(
                ["xvfb-run", "-a", str(DRIVER), f"--port={port}"],  # loopback only: its default
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # ending its group ends its display as well
            )
        # Starting a browser on a busy machine takes a while: generous timeouts.
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)
        process = self._process
        try:
            eventually(lambda: _ready(self.client, process), 60, "WebKitWebDriver to answer")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self.client.close()
        if self._process is None:
            return
        os.killpg(self._process.pid, signal.SIGTERM)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()
        self._process = None

    def _open(self) -> str:
        options = {"binary": str(MINIBROWSER), "args": ["--automation"]}  # never --headless: hangs
        body = {"capabilities": {"alwaysMatch": {"webkitgtk:browserOptions": options}}}
        answer = self.client.post("/session", json=body, timeout=SESSION_START_SECONDS)
        value = answer.json()["value"]
        if answer.status_code != 200:
            raise WebDriverError(f"no WebKit session: {value}")
        session_id: str = value["sessionId"]
        return session_id

    @contextmanager
    def session(self) -> Iterator[Session]:
        try:
            session_id = self._open()
        except (httpx.TimeoutException, WebDriverError):
            self.stop()
            self._start()
            try:
                session_id = self._open()
            except (httpx.TimeoutException, WebDriverError) as error:
                tail = self.log.read_text(errors="replace")[-2000:]
                message = f"no WebKit window twice ({error}); the driver's log:\n{tail}"
                raise WebDriverError(message) from error
        session = Session(self.client, session_id)
        try:
            yield session
        finally:
            self.client.delete(f"/session/{session.id}")


@contextmanager
def webkit_driver(log: Path) -> Iterator[Driver]:
    """``WebKitWebDriver`` on a loopback port under ``xvfb-run`` (WebKitGTK needs a display)."""
    driver = Driver(log)
    try:
        yield driver
    finally:
        driver.stop()


def _ready(client: httpx.Client, process: subprocess.Popen[bytes]) -> bool:
    if process.poll() is not None:
        raise AssertionError(f"WebKitWebDriver ended at start (exit {process.returncode})")
    try:
        return bool(client.get("/status").json()["value"]["ready"])
    except httpx.HTTPError:
        return False
