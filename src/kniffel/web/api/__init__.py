"""The JSON API under ``/api`` for programs: games and events, the live socket, the players,
the solved tables' answers (202/403/503) and ``/healthz``."""
