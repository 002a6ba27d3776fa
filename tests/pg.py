"""A PostgreSQL server from Debian's packages, started for the tests (issues 10 and 15): see
``benchmarks/postgres.py``.  ``.ci/run`` installs it and sets ``CONQUIAN_REQUIRE_POSTGRES=1``, so
that a missing server fails in CI instead of skipping.  Each test module starts its own server
(a fresh cluster in a temporary folder, on a free port): the modules that run at once in
parallel processes share nothing."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator

import pytest
from benchmarks.postgres import BIN, running_postgres

__all__ = ["read_only", "require_postgres", "running_postgres"]


def require_postgres() -> None:
    """Skip the calling module without PostgreSQL (fail, in CI)."""
    if not BIN:
        if os.environ.get("CONQUIAN_REQUIRE_POSTGRES"):
            raise RuntimeError("PostgreSQL is required (CONQUIAN_REQUIRE_POSTGRES) but is not installed")
        pytest.skip("Debian's postgresql is not installed", allow_module_level=True)


@contextlib.contextmanager
def read_only(url: str, end_sessions: bool = False) -> Iterator[None]:
    """The whole database server refuses writes (``default_transaction_read_only``) for every
    session, as a standby or a full disk's operator would leave it: the operator's ``ALTER
    SYSTEM`` and a reload, waited for (open sessions read it at their next command); with
    ``end_sessions`` every connection open is ended too, so that every session is new.  Writable
    again afterwards."""
    import psycopg

    dsn = url.replace("postgresql+psycopg://", "postgresql://")

    def switch(on: bool) -> None:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET default_transaction_read_only = on" if on
                         else "ALTER SYSTEM RESET default_transaction_read_only")
            conn.execute("SELECT pg_reload_conf()")
            if on and end_sessions:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'")
        for _ in range(100):
            with psycopg.connect(dsn, autocommit=True) as conn:
                row = conn.execute("SHOW default_transaction_read_only").fetchone()
            if row is not None and row[0] == ("on" if on else "off"):
                return
            time.sleep(0.05)
        raise AssertionError("the database server did not take the setting")

    switch(True)
    try:
        yield
    finally:
        switch(False)
