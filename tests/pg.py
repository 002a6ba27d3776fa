"""A PostgreSQL server from Debian's packages, started for the tests (issues 10 and 15): see
``benchmarks/postgres.py``.  ``.ci/run`` installs it and sets ``CONQUIAN_REQUIRE_POSTGRES=1``, so
that a missing server fails in CI instead of skipping."""

from __future__ import annotations

import os

import pytest
from benchmarks.postgres import BIN, running_postgres

__all__ = ["require_postgres", "running_postgres"]


def require_postgres() -> None:
    """Skip the calling module without PostgreSQL (fail, in CI)."""
    if not BIN:
        if os.environ.get("CONQUIAN_REQUIRE_POSTGRES"):
            raise RuntimeError("PostgreSQL is required (CONQUIAN_REQUIRE_POSTGRES) but is not installed")
        pytest.skip("Debian's postgresql is not installed", allow_module_level=True)
