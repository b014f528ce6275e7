"""The board served by granian instead of uvicorn, for the servers' side-by-side figures.

``load.start_server(..., server="granian")`` runs ``python benchmarks/serve_granian.py --host H
--port P``, which ``--server granian`` of ``benchmarks/load.py`` and ``--servers
uvicorn,granian`` of ``benchmarks/request_cost.py`` use. The app is built from the environment's
settings (``KNIFFEL_DB`` and the rest) as ``kniffel serve`` builds it, in one process: granian's
embedded server on asyncio's loop, with its access log on (``kniffel serve``'s uvicorn writes
one) and ``KNIFFEL_HEADER_TIMEOUT`` as its header-read timeout. granian is not a dependency of
the board (docs/decisions.md, "No granian"): install it by hand into the environment first
(``uv pip install granian``); ``uv sync`` removes it again.
"""

from __future__ import annotations

import argparse
import asyncio
import signal

from kniffel.cli.serve import limit_library_threads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    limit_library_threads()  # before anything imports numpy, as `kniffel serve` does
    try:
        from granian.constants import Interfaces
        from granian.http import HTTP1Settings
        from granian.log import LogLevels
        from granian.server.embed import Server
    except ImportError:
        raise SystemExit("granian is not installed: run `uv pip install granian` first") from None

    from kniffel.settings import Settings
    from kniffel.web.app import create_app

    settings = Settings()
    server = Server(
        create_app(settings),
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,
        http1_settings=HTTP1Settings(header_read_timeout=round(settings.header_timeout * 1000)),
        log_access=True,
        log_level=LogLevels.warning,
    )

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, server.stop)
        await server.serve()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
