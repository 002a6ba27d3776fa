"""The tests run in parallel processes (``pytest -n auto``): what one process starts for its tests
never meets another's.  A free port is free only when it is picked, so the servers the tests start
(``conquian serve``, PostgreSQL) start again on another port when theirs was taken meanwhile, and a
test never talks to another process's server that happens to answer on its port."""

from __future__ import annotations

import http.server
import json
import os
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

import web_server
from web_server import Server


class _OtherHealth(http.server.BaseHTTPRequestHandler):
    """Another process's server: its /health answers 200 (for a process that is not the test's)."""

    def do_GET(self) -> None:
        body = json.dumps({"ok": True, "pid": 1}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port on 127.0.0.1 held by another server that answers /health."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _OtherHealth)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield int(httpd.server_address[1])
    httpd.shutdown()
    httpd.server_close()


def _first(port: int, then: Any) -> Any:
    """A free-port picker that picks ``port`` first (taken meanwhile), then as ``then`` does."""
    picks = iter([port])
    return lambda: next(picks, None) or then()


def test_a_server_whose_port_was_taken_meanwhile_starts_on_another(taken_port: int, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_server, "free_port", _first(taken_port, web_server.free_port))
    s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path).start()
    try:
        assert s.port != taken_port
        assert s.proc is not None and os.getpgid(s.health()["pid"]) == s.proc.pid  # the test's own server
        assert s.create(variant="conquian")["id"]
    finally:
        s.stop()


def test_a_port_given_is_kept_and_its_server_s_failure_said(taken_port: int, tmp_path: Path) -> None:
    """A port the test chose (a server started again where it was) is not changed behind its back."""
    s = Server(f"sqlite:///{tmp_path / 'web.db'}", tmp_path, port=taken_port)
    try:
        with pytest.raises(RuntimeError, match="address already in use"):
            s.start()
    finally:
        s.stop()


def test_a_database_server_whose_port_was_taken_meanwhile_starts_on_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from benchmarks import postgres

    if not postgres.BIN:
        if os.environ.get("CONQUIAN_REQUIRE_POSTGRES"):
            raise RuntimeError("PostgreSQL is required (CONQUIAN_REQUIRE_POSTGRES) but is not installed")
        pytest.skip("Debian's postgresql is not installed")
    pytest.importorskip("psycopg")
    import psycopg

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = int(held.getsockname()[1])
        monkeypatch.setattr(postgres, "_free_port", _first(port, postgres._free_port))
        with postgres.running_postgres() as url:
            assert f":{port}/" not in url
            with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
                assert conn.execute("SELECT 1").fetchone() == (1,)


def test_no_test_writes_to_a_fixed_path_in_the_shared_temporary_folder() -> None:
    """A fixed name in /tmp is shared by every process of the run (and every run on the machine):
    the tests write into their own folders (``tmp_path``), which pytest makes apart."""
    here = Path(__file__).parent
    fixed = re.compile(r"""["']/tmp/""")
    found = [f"{f.name}:{n}" for f in sorted(here.glob("*.py")) if f.name != Path(__file__).name
             for n, line in enumerate(f.read_text().splitlines(), 1) if fixed.search(line)]
    assert found == []


def test_every_test_marked_slow_by_name_is_there() -> None:
    """tests/conftest.py marks ``slow`` by file and test name: a file or test renamed must not
    leave its mark behind, unseen."""
    here = Path(__file__).parent
    named = re.findall(r'"((?:tests/)?test_\w+\.py)(?:::(\w+))?"', (here / "conftest.py").read_text())
    assert len(named) > 20
    for file, test in named:
        source = (here.parent / file if file.startswith("tests/") else here / file)
        assert source.is_file(), file
        assert not test or re.search(rf"^def {test}\(", source.read_text(), flags=re.MULTILINE), (file, test)
