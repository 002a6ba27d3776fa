"""Storage of tables: SQLAlchemy 2 over SQLite (the default, in the user's data folder) or
PostgreSQL, the schema created and upgraded by Alembic migrations at start.

A table is stored as its settings, its seats and the list of commands it accepted (the state
number is a command's position); it is rebuilt by replaying the commands.  A command is written
in the transaction that advances the table, under a lock of the table's row, and only if the
stored state is the one the move was chosen on; the key (table, state number) backs this up, so
two writers (two server processes) can never both apply a move made on one state.  On
PostgreSQL the same transaction sends a NOTIFY on :data:`CHANNEL`, delivered to every process
listening when, and only when, the move is committed (:mod:`conquian.web.cluster`).

```pycon
>>> import tempfile, os
>>> store = Store("sqlite:///" + os.path.join(tempfile.mkdtemp(), "t.db"))
>>> store.upgrade()
>>> from conquian import get_rules
>>> from conquian.web.table import Table
>>> t = Table("abc", "Friday", get_rules("conquian"), seed=5)
>>> store.create(t)
>>> token = t.sit(1, "Ann"); t.set_bot(2, "random", host=True)
>>> store.save_seats(t); store.append(t, 0)
>>> again = store.load("abc")
>>> again.status, again.seat_of(token), again.session.deal.deck == t.session.deal.deck
('playing', 1, True)

```
"""

from __future__ import annotations

import json
import os
import secrets
import time
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from conquian.engine.cards import parse_cards
from conquian.engine.rules import get_rules
from conquian.web.table import Seat, Table, deck_text

metadata = MetaData()

#: The platform's modules above this one that define tables of ``metadata`` (the migrations and the schema
#: test must see every table, whichever of them a process happened to import).
TABLE_MODULES = tuple(f"conquian.web.platform.{feature}.storage" for feature in (
    "accounts", "ratings", "passkeys", "quickmatch", "friends", "puzzle_ratings", "offline_matches"))


def full_metadata() -> MetaData:
    """``metadata`` with the tables of every module of :data:`TABLE_MODULES` defined in it."""
    import importlib

    for name in TABLE_MODULES:
        importlib.import_module(name)
    return metadata


def required(**columns: Any) -> list[Column[Any]]:
    """Columns, in their order, that every row fills (``NOT NULL``): a name and its type each."""
    return [Column(name, kind, nullable=False) for name, kind in columns.items()]


def optional(**columns: Any) -> list[Column[Any]]:
    """Columns, in their order, that a row may leave empty (``NULL``): a name and its type each."""
    return [Column(name, kind, nullable=True) for name, kind in columns.items()]


def account_key(name: str, primary: bool = False) -> Column[Any]:
    """A column naming an account, whose rows go with it (``ON DELETE CASCADE``): part of the
    primary key, or required."""
    if primary:
        return Column(name, String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    return Column(name, String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False)


def table_key(name: str = "table_id") -> Column[Any]:
    """A column naming a table, part of the primary key, whose rows go with it (``ON DELETE CASCADE``)."""
    return Column(name, String(16), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)


tables = SqlTable(
    "tables", metadata,
    Column("id", String(16), primary_key=True),
    *required(name=String(60), variant=String(30), players=Integer, options=Text, seed=BigInteger,
              host_hash=String(64), show_buried=Boolean),
    *optional(away_after=Float),
    *required(deals_in_match=Integer),
    *optional(rematch_id=String(16)),
    *required(status=String(10), state=Integer, created_at=Float, updated_at=Float),
    *optional(deck=Text, first_dealer=Integer, carried=Text, pace=Float, turn_timer=Integer),
    Column("public", Boolean, nullable=False, server_default=false()),
    Index("ix_tables_status_updated", "status", "updated_at"),
)

seats = SqlTable(
    "seats", metadata,
    table_key(),
    Column("seat", Integer, primary_key=True),
    *required(kind=String(20), name=String(40), token_hash=String(64)),
)

commands = SqlTable(
    "commands", metadata,
    table_key(),
    Column("seq", Integer, primary_key=True),
    *required(command=Text, created_at=Float),
)


#: The PostgreSQL channel of the tables' notifications (see :mod:`conquian.web.cluster`).
CHANNEL = "conquian"
#: The advisory lock that serialises schema upgrades of processes starting together ("conu").
UPGRADE_LOCK = 0x636F6E75


#: What the ``seed`` column holds for an ordinary table (no seed: every deal's deck is drawn from
#: the operating system's randomness when the deal starts, and stored in its command).
NO_SEED = -1


class ConflictError(Exception):
    """Another writer changed the table first (a command for this state, or a seat)."""


class CorruptDatabase(Exception):
    """The database file is damaged (:meth:`Store.check`)."""


def default_url() -> str:
    """The default database: ``conquian.db`` in the user's data folder (platformdirs)."""
    from platformdirs import user_data_dir

    folder = Path(os.environ.get("CONQUIAN_DATA") or user_data_dir("conquian", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'conquian.db'}"


def normalise_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg 3 (the driver the ``web`` extra installs)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class Store:
    """The database of tables (synchronous: the application calls it from worker threads)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url or default_url())
        if self.url.startswith("postgresql"):
            # no ping before each use (a round trip per move): a connection found dead fails
            # that one move, which is rebuilt from the database, and the pool is renewed
            self.engine: Engine = create_engine(self.url, pool_size=10, max_overflow=20, pool_recycle=1800)
        else:
            self.engine = create_engine(self.url, pool_pre_ping=True)
        self.postgres = self.engine.dialect.name == "postgresql"
        """Whether several processes can share the tables (notifications, row locks)."""
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)

    def upgrade(self) -> None:
        """Create or upgrade the schema to the newest migration (Alembic)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
        with self.engine.begin() as conn:
            if self.postgres:
                # processes starting together upgrade one at a time (the others then find the
                # schema current): a lock held until this transaction ends
                conn.execute(text("SELECT pg_advisory_xact_lock(:k, 0)"), {"k": UPGRADE_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def dispose(self) -> None:
        """Close the connections."""
        self.engine.dispose()

    # ------------------------------------------------------------------ writing
    def create(self, table: Table) -> None:
        """Store a new table with its seats and commands."""
        with self.engine.begin() as conn:
            self.insert_table(conn, table)

    def insert_table(self, conn: Connection, table: Table) -> None:
        """Store a new table with its seats and commands in the transaction ``conn`` (so that
        what makes it, a quick match's pairing say, is written with it or not at all)."""
        now = time.time()
        conn.execute(insert(tables).values(
            id=table.id, name=table.name, variant=table.rules.name, players=table.rules.players,
            options=json.dumps(table.rules.options_diff(), sort_keys=True),
            seed=NO_SEED if table.seed is None else table.seed,
            deck=None if table.deck is None else deck_text(table.deck),
            host_hash=table.host_hash, show_buried=table.show_buried, away_after=table.away_after,
            deals_in_match=table.deals_in_match, rematch_id=table.rematch_id, status=table.status,
            state=table.state, created_at=table.created, updated_at=now, first_dealer=table.first_dealer,
            carried=json.dumps(table.carried) if table.carried else None, pace=table.pace,
            turn_timer=table.turn_timer, public=table.public))
        conn.execute(insert(seats), [
            {"table_id": table.id, "seat": s.number, "kind": s.kind, "name": s.name, "token_hash": s.token_hash}
            for s in table.seats])
        if table.commands:
            conn.execute(insert(commands), [
                {"table_id": table.id, "seq": i + 1, "command": c, "created_at": now}
                for i, c in enumerate(table.commands)])

    def save_seats(self, table: Table) -> None:
        """Store every seat as ``table`` has it, unconditionally (setting a table up; the server
        stores a seat change with :meth:`save_seat`, which refuses to overwrite another's)."""
        with self.engine.begin() as conn:
            for s in table.seats:
                conn.execute(update(seats).where(seats.c.table_id == table.id, seats.c.seat == s.number).values(
                    kind=s.kind, name=s.name, token_hash=s.token_hash))
            conn.execute(update(tables).where(tables.c.id == table.id).values(
                away_after=table.away_after, status=table.status, updated_at=time.time()))

    def save_settings(self, table: Table, worker: str = "") -> None:
        """Store what a host may change during the match (the delay before a bot plays for
        someone away, the bots' pace, the turn timer)."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table.id).values(
                away_after=table.away_after, pace=table.pace, turn_timer=table.turn_timer, updated_at=time.time()))
            self._notify(conn, {"k": "settings", "t": table.id, "w": worker})

    def save_seat(self, table: Table, number: int, first: int, worker: str = "") -> None:
        """Store seat ``number``, just taken by a person or given to a bot, and the commands
        since state ``first`` (the match's start when it filled the table).  The seat must still
        be open in the database and the other seats as ``table`` has them, else
        :class:`ConflictError` and nothing is written: another process seated someone first."""
        seat = table.seats[number - 1]
        now = time.time()
        try:
            with self.engine.begin() as conn:
                self._lock(conn, table, first)
                stored = {r.seat: (r.kind, r.token_hash) for r in conn.execute(
                    select(seats.c.seat, seats.c.kind, seats.c.token_hash).where(seats.c.table_id == table.id))}
                mine = {s.number: (s.kind, s.token_hash) for s in table.seats if s.number != number}
                if stored.pop(number, None) != ("open", "") or stored != mine:
                    raise ConflictError(f"table {table.id}: seat {number} changed meanwhile")
                conn.execute(update(seats).where(seats.c.table_id == table.id, seats.c.seat == number).values(
                    kind=seat.kind, name=seat.name, token_hash=seat.token_hash))
                self._insert_commands(conn, table, first, now)
                self._notify(conn, {"k": "seats", "t": table.id, "s": table.state, "w": worker})
        except IntegrityError:
            raise ConflictError(f"table {table.id}: state {first + 1} is already stored") from None

    def save_rematch(self, table: Table) -> str:
        """Store ``table.rematch_id`` unless a rematch was stored first; returns the stored one."""
        with self.engine.begin() as conn:
            conn.execute(update(tables).where(tables.c.id == table.id, tables.c.rematch_id.is_(None)).values(
                rematch_id=table.rematch_id, updated_at=time.time()))
            stored = conn.execute(select(tables.c.rematch_id).where(tables.c.id == table.id)).scalar_one()
            self._notify(conn, {"k": "settings", "t": table.id, "w": ""})
        return str(stored)

    def append(self, table: Table, first: int, worker: str = "") -> None:
        """Store the commands that took ``table`` from state ``first`` to its current state, in one
        transaction with the table's new status.  :class:`ConflictError` if the stored state is
        not ``first`` (another writer stored a move first): nothing is then written."""
        if first >= table.state:
            return
        now = time.time()
        try:
            with self.engine.begin() as conn:
                # the update locks the table's row until the transaction ends, and applies only if
                # the stored state is the one the move was chosen on (a second writer waits for
                # the first, then finds the state moved on)
                done = conn.execute(update(tables).where(tables.c.id == table.id, tables.c.state == first).values(
                    status=table.status, state=table.state, updated_at=now))
                if done.rowcount != 1:
                    raise ConflictError(f"table {table.id}: the stored state is not {first}")
                conn.execute(insert(commands), [
                    {"table_id": table.id, "seq": seq, "command": table.commands[seq - 1], "created_at": now}
                    for seq in range(first + 1, table.state + 1)])
                new = table.commands[first:]
                payload: dict[str, Any] = {"k": "move", "t": table.id, "s": table.state, "w": worker}
                if sum(len(c) for c in new) < 4000:  # a NOTIFY holds 8,000 bytes: else they read it
                    payload |= {"f": first, "c": new}
                self._notify(conn, payload)
        except IntegrityError:
            raise ConflictError(f"table {table.id}: state {first + 1} is already stored") from None

    def _lock(self, conn: Connection, table: Table, first: int) -> None:
        # the table's row, locked until the transaction ends (PostgreSQL: SELECT ... FOR UPDATE;
        # SQLite has one writer at a time anyway): moves of one table are written one at a time
        stored = conn.execute(select(tables.c.state).where(tables.c.id == table.id).with_for_update()).scalar()
        if stored != first:
            raise ConflictError(f"table {table.id}: the stored state is {stored}, not {first}")

    def _insert_commands(self, conn: Connection, table: Table, first: int, now: float) -> None:
        if first < table.state:
            conn.execute(insert(commands), [
                {"table_id": table.id, "seq": seq, "command": table.commands[seq - 1], "created_at": now}
                for seq in range(first + 1, table.state + 1)])
        conn.execute(update(tables).where(tables.c.id == table.id).values(
            status=table.status, state=table.state, updated_at=now))

    def _notify(self, conn: Connection, payload: dict[str, Any]) -> None:
        # delivered to the listeners when the transaction commits, never if it rolls back
        if self.postgres:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                         {"channel": CHANNEL, "payload": json.dumps(payload, separators=(",", ":"))})

    def delete(self, table_id: str) -> None:
        """Remove a table and everything of it."""
        with self.engine.begin() as conn:
            for t in (commands, seats):
                conn.execute(delete(t).where(t.c.table_id == table_id))
            conn.execute(delete(tables).where(tables.c.id == table_id))

    # ------------------------------------------------------------------ reading
    def load(self, table_id: str) -> Table | None:
        """Rebuild a table from its stored commands, or None if there is no such table."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
                                     ).mappings().all()
            stored = conn.execute(select(commands.c.command).where(commands.c.table_id == table_id)
                                  .order_by(commands.c.seq)).scalars().all()
            marks = metadata.tables.get("rated_tables")  # conquian.web.platform.ratings's, where it is in use
            rated = marks is not None and conn.execute(
                select(marks.c.table_id).where(marks.c.table_id == table_id)).first() is not None
        rules = get_rules(row["variant"], players=row["players"], **json.loads(row["options"]))
        table = Table(
            id=row["id"], name=row["name"], rules=rules, seed=None if row["seed"] == NO_SEED else int(row["seed"]),
            deck=None if row["deck"] is None else tuple(parse_cards(row["deck"])), host_hash=row["host_hash"],
            show_buried=bool(row["show_buried"]), away_after=row["away_after"],
            deals_in_match=row["deals_in_match"], rematch_id=row["rematch_id"], created=row["created_at"],
            seats=[Seat(r["seat"], r["kind"], r["name"], r["token_hash"]) for r in seat_rows],
            first_dealer=row["first_dealer"], carried=json.loads(row["carried"]) if row["carried"] else [],
            pace=row["pace"], turn_timer=row["turn_timer"], public=bool(row["public"]),
        )
        table.rated = rated
        table.rebuild(list(stored))
        return table

    def changes(self, table_id: str, after: int) -> tuple[list[Seat], dict[str, Any], list[str]] | None:
        """What another process stored for a table: its seats, settings and the commands after
        state ``after`` (how a process catches up on a notification); None if it is gone."""
        with self.engine.connect() as conn:
            row = conn.execute(select(tables.c.away_after, tables.c.rematch_id, tables.c.pace, tables.c.turn_timer)
                               .where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)
                                     ).mappings().all()
            stored = conn.execute(select(commands.c.command).where(commands.c.table_id == table_id,
                                                                   commands.c.seq > after)
                                  .order_by(commands.c.seq)).scalars().all()
        return ([Seat(r["seat"], r["kind"], r["name"], r["token_hash"]) for r in seat_rows], dict(row), list(stored))

    def stale_playing(self, older_than: float, limit: int = 1000) -> list[str]:
        """Tables being played, with a bot or a bot allowed to play for someone away or out of time,
        that nobody has moved at for ``older_than`` seconds (a process that held their bots may have
        died)."""
        with_bots = select(seats.c.table_id).where(seats.c.kind.not_in(("human", "open")))
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(tables.c.id).where(tables.c.status == "playing", tables.c.updated_at < time.time() - older_than,
                                          tables.c.id.in_(with_bots) | tables.c.away_after.is_not(None)
                                          | tables.c.turn_timer.is_not(None))
                .order_by(tables.c.updated_at).limit(limit)).scalars().all())

    def ping(self) -> bool:
        """Whether the database answers."""
        with self.engine.connect() as conn:
            return conn.execute(text("SELECT 1")).scalar() == 1

    def probe_write(self) -> None:
        """Write to the database and take the write back, committed (a full disk, a read-only
        file or a database refusing writes raises): a row of a table that cannot exist (its id
        is not one the server makes) is inserted and deleted in one transaction."""
        now = time.time()
        probe = "~" + secrets.token_hex(6)
        with self.engine.begin() as conn:
            conn.execute(insert(tables).values(
                id=probe, name="", variant="", players=0, options="{}", seed=0, host_hash="", show_buried=False,
                away_after=None, deals_in_match=0, rematch_id=None, status="probe", state=0, created_at=now,
                updated_at=now))
            conn.execute(delete(tables).where(tables.c.id == probe))

    def check(self) -> None:
        """Read the whole database (SQLite: ``PRAGMA quick_check``; a server checks its own), so a
        file damaged in its middle is found at start, not by the request that reads that part.
        :class:`CorruptDatabase` if it is damaged."""
        if self.engine.dialect.name != "sqlite":
            return
        with self.engine.connect() as conn:
            found = [str(r[0]) for r in conn.execute(text("PRAGMA quick_check(4)"))]
        if found != ["ok"]:
            said = [f.splitlines()[0][:100] for f in found if not f.startswith("***")] or found[:1]
            raise CorruptDatabase("the database is damaged (SQLite's quick_check: " + "; ".join(said[:2]) + ")")

    def listing(self, limit: int = 100, unjoined_after: float | None = None) -> list[dict[str, Any]]:
        """Tables waiting for players or being played (for the lobby): those where a person sits
        first, then newest first.  ``unjoined_after``: a table still waiting that no person has
        sat at for that many seconds since it was made is left out (so that tables made and never
        used cannot push the others out of the list)."""
        people = (select(func.count()).select_from(seats)
                  .where(seats.c.table_id == tables.c.id, seats.c.kind == "human").scalar_subquery())
        shown = tables.c.status != "over"
        if unjoined_after is not None:
            shown = shown & ~((tables.c.status == "waiting") & (people == 0)
                              & (tables.c.created_at < time.time() - unjoined_after))
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.name, tables.c.variant, tables.c.players, tables.c.status,
                       tables.c.updated_at, ((tables.c.seed != NO_SEED) | tables.c.deck.is_not(None)).label("set_deal"))
                .where(shown).order_by((people > 0).desc(), tables.c.updated_at.desc()).limit(limit)
            ).mappings().all()
            by_table = _seats_of(conn, [r["id"] for r in rows])
        return [dict(r) | {"set_deal": bool(r["set_deal"]),
                           "seats": by_table.get(r["id"], [])} for r in rows]

    def finished(self, limit: int = 50) -> list[dict[str, Any]]:
        """Finished matches of public tables, newest first (anyone can replay them), with who sat
        where; a private table's (the default) is its players' only, kept in their browsers."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables.c.id, tables.c.name, tables.c.variant, tables.c.players, tables.c.updated_at,
                       tables.c.rematch_id)
                .where((tables.c.status == "over") & tables.c.public).order_by(tables.c.updated_at.desc()).limit(limit)
            ).mappings().all()
            by_table = _seats_of(conn, [r["id"] for r in rows])
        return [{k: v for k, v in r.items() if k != "rematch_id"} | {
            "rematch": r["rematch_id"] or "",
            "seats": by_table.get(r["id"], [])} for r in rows]



def _seats_of(conn: Connection, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Who sits where at the tables ``ids``, by table, each table's seats in their order."""
    rows = conn.execute(select(seats.c.table_id, seats.c.seat, seats.c.kind, seats.c.name)
                        .where(seats.c.table_id.in_(ids))).mappings().all() if ids else []
    by_table: dict[str, list[dict[str, Any]]] = {}
    for s in rows:
        by_table.setdefault(s["table_id"], []).append({"seat": s["seat"], "kind": s["kind"], "name": s["name"]})
    return {table: sorted(held, key=lambda s: s["seat"]) for table, held in by_table.items()}

def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL survives a killed process (a committed move is never lost) and lets readers run beside
    # the writer; foreign keys are off by default in SQLite.
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()
