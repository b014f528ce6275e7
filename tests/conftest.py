"""Settings for the whole test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Solver tables go to a fresh directory, never the user's cache, shared by the session.

    Set in the environment, so servers that tests start in a subprocess use it too.
    """
    path = str(tmp_path_factory.mktemp("kniffel-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KNIFFEL_CACHE_DIR", path)
        yield path
