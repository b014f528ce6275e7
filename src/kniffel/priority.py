"""The priority of the work no request does: below the requests, ``nice`` 10 by default.

The Tipp's simulated reasons, the queues' workers (reviews, chances, "Auf Sieg"), the background
chores and the table builds' child processes each lower themselves when they start, so that a
busy background never slows an entry down (docs/deploy.md, "Limits"). How far is one setting of
the process, ``KNIFFEL_BACKGROUND_NICE`` (0 to 19; :class:`kniffel.settings.Settings`), read here
from the environment, which the table builds' child processes inherit. It lives beneath every
package (docs/architecture.md, the layers), as :mod:`kniffel.kept` does. A game's own tables,
which its players wait for, are built halfway up (:func:`waited_nice`).
"""

from __future__ import annotations

import contextlib
import os
import threading

__all__ = [
    "DEFAULT_NICE",
    "ENV",
    "background_nice",
    "lower_this_process",
    "lower_this_thread",
    "set_background_nice",
    "waited_nice",
]

#: How far below the requests the background runs unless the setting says otherwise.
DEFAULT_NICE = 10
#: The setting's name in the environment.
ENV = "KNIFFEL_BACKGROUND_NICE"


def background_nice() -> int:
    """The ``nice`` of the background: the setting's (0 to 19) where it is one, else 10.

    >>> background_nice() in range(20)
    True
    """
    text = os.environ.get(ENV, "").strip()
    if text.isdigit() and int(text) < 20:
        return int(text)
    return DEFAULT_NICE


def waited_nice() -> int:
    """The ``nice`` of the work players wait for, a game's own tables: halfway between the
    requests (0) and the background, so that it goes before the work nobody waits for (the
    presets' tables, the reasons, the queues) and still after every request.

    >>> waited_nice() == background_nice() // 2
    True
    """
    return background_nice() // 2


def set_background_nice(nice: int) -> None:
    """The process's setting (the app's :class:`~kniffel.settings.Settings`), put where every
    thread and child process of the process reads it."""
    os.environ[ENV] = str(nice)


def lower_this_thread() -> None:
    """The calling thread below the requests (Linux threads; elsewhere nothing happens)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), background_nice())


def lower_this_process(nice: int | None = None) -> None:
    """The calling process below the requests (a table build's child): at ``nice`` where it is
    passed (the parent's setting: a process forked from a fork server started earlier has
    that server's environment), else the setting of this process's environment. Absolute, not
    added to the priority the process was started with."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, 0, background_nice() if nice is None else nice)
