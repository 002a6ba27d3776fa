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
    subprocess.run(_as_postgres([f"{bindir}/initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
                   check=True, capture_output=True)
    log = os.path.join(folder, "log")
    # a free port is free only when it is picked: another process (the tests run in parallel) may
    # bind it first, and then the server is started again on another
    for attempt in range(5):
        port, seen = _free_port(), os.path.getsize(log) if os.path.exists(log) else 0
        started = subprocess.run(_as_postgres([f"{bindir}/pg_ctl", "-D", data, "-l", log, "-w", "-o",
                                               f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                                               f"-c max_connections={max_connections}", "start"]),
                                 capture_output=True)
        if started.returncode == 0:
            break
        taken = False
        if os.path.exists(log):
            with open(log, errors="replace") as f:
                f.seek(seen)
                taken = "already in use" in f.read()
        if not taken or attempt == 4:
            shutil.rmtree(folder, ignore_errors=True)
            raise subprocess.CalledProcessError(started.returncode, started.args, started.stdout, started.stderr)
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres([f"{bindir}/pg_ctl", "-D", data, "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
