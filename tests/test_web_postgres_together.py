"""A rematch on a real PostgreSQL server (Debian's packages, started by these tests as
``tests/test_web_postgres.py`` does): a restarted server keeps its standings, the bots' pace and
its rotated first dealer (migration 0003)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("psycopg")
pytest.importorskip("uvicorn")

from pg import require_postgres, running_postgres
from test_web_together import rematch_then_restart

require_postgres()


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with running_postgres() as url:
        yield url


def test_a_restarted_server_on_postgres_keeps_the_rematchs_standings_pace_and_dealer(postgres_url: str,
                                                                                      tmp_path: Path) -> None:
    rematch_then_restart(postgres_url, tmp_path)
