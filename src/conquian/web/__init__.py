"""The web table: ``conquian serve`` (optional extra ``web``).

The layers, from the engine up (the engine never imports any of them):

- :mod:`conquian.web.table`: a table's game session — seats, tokens, the state number, whose
  move, what each seat receives — with no transport and no storage;
- :mod:`conquian.web.snapshot`: the messages a seat or a spectator receives, built from the
  engine's seat views;
- :mod:`conquian.web.protocol`: the versioned message protocol, every incoming message
  validated against a schema (``docs/protocol.md``);
- :mod:`conquian.web.store`: storage (SQLAlchemy 2, SQLite by default, PostgreSQL), its schema
  kept by Alembic migrations;
- :mod:`conquian.web.bots`: bots played in a process pool;
- :mod:`conquian.web.platform`: the players' platform above the table (accounts, passkeys,
  ratings and leaderboards, puzzle ratings, friends, quick match, learning, offline matches),
  each feature's rules, storage and routes in a module of its own;
- :mod:`conquian.web.server`: the server apart from its transport: the tables held in memory
  with their connections, presence across processes, the bots' turns, rematches, the store's glue;
- :mod:`conquian.web.routes`: the table's HTTP endpoints, one module a concern: pages, the rule
  book, health, the lobby API, seats, records and replays;
- :mod:`conquian.web.sockets`: the WebSocket endpoint: hello, the message loop, each message;
- :mod:`conquian.web.app`: the ASGI application (Starlette) that assembles them.
"""
