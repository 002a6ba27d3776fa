"""A throwaway PostgreSQL server from Debian's packages (``/usr/lib/postgresql/*/bin``), for the
load benchmark and the tests: a fresh cluster in a temporary folder on 127.0.0.1 and a free
port, run as the ``postgres`` user when we are root (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator

BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))


def _as_postgres(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_postgres(max_connections: int = 300) -> Iterator[str]:
    """A fresh PostgreSQL cluster; yields its SQLAlchemy URL and removes it afterwards."""
    if not BIN:
        raise RuntimeError("Debian's postgresql is not installed (apt-get install postgresql)")
    bindir = BIN[-1]
    folder = tempfile.mkdtemp(prefix="conquian-pg-")
    data = os.path.join(folder, "data")
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    port = _free_port()
    subprocess.run(_as_postgres([f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
                   check=True, capture_output=True)
    subprocess.run(_as_postgres([f"{bindir}/pg_ctl", "-D", data, "-l", os.path.join(folder, "log"), "-w", "-o",
                                 f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                                 f"-c max_connections={max_connections}", "start"]),
                   check=True, capture_output=True)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
