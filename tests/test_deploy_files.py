"""The deployment files the guide ships (docs/deployment.md, "A small server with HTTPS"), checked
by their own tools: the systemd unit by ``systemd-analyze verify``, the Caddy site by ``caddy
validate`` and ``caddy fmt`` (Debian's packages; ``.ci/run`` installs them, and in CI a missing
tool fails the test rather than skip it), and the server's flags in the unit by ``conquian
serve``'s own parser."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from conquian.cli import build_parser

DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy"
UNIT = DEPLOY / "conquian.service"
CADDYFILE = DEPLOY / "Caddyfile"


def tool(name: str) -> str:
    """The tool's path, or a skip (a failure in CI, where ``.ci/run`` installs it)."""
    path = shutil.which(name) or next((p for p in (f"/usr/bin/{name}", f"/usr/sbin/{name}") if os.path.exists(p)),
                                      None)
    if path is None:
        if os.environ.get("CONQUIAN_CI"):
            raise AssertionError(f"{name} is required in CI (.ci/run installs it) but is not installed")
        pytest.skip(f"{name} is not installed (apt install {'systemd' if name.startswith('systemd') else name})")
    return path


def exec_start() -> list[str]:
    """The unit's ``ExecStart`` command, its continued lines joined."""
    text = UNIT.read_text().replace("\\\n", " ")
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def test_the_systemd_unit_verifies(tmp_path: Path) -> None:
    analyze = tool("systemd-analyze")
    units = next((p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()), None)
    assert units is not None, "systemd's units are not installed"
    # a root of its own: the system's units (the targets the unit names), the unit where an
    # administrator puts it, and the program it starts (verify checks that it is executable)
    root = tmp_path / "root"
    shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system/conquian.service")
    program = root / exec_start()[0].lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    r = subprocess.run([analyze, "verify", f"--root={root}", "conquian.service"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stderr.strip() == "" and r.stdout.strip() == "", r.stderr + r.stdout


def test_the_units_command_is_one_conquian_serve_accepts() -> None:
    command = exec_start()
    assert command[0].endswith("/bin/conquian") and command[1] == "serve"
    args = build_parser().parse_args(command[1:])
    # behind the proxy on the same machine: loopback only, the public name allowed
    assert args.host == "127.0.0.1" and args.allowed_host == ["cards.example.org"]
    assert args.db.startswith("sqlite:////var/lib/conquian/")
    unit = UNIT.read_text()
    assert "StateDirectory=conquian" in unit and "KillMode=mixed" in unit


def test_the_caddy_site_validates_and_is_formatted(tmp_path: Path) -> None:
    caddy = tool("caddy")
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"))
    r = subprocess.run([caddy, "validate", "--config", str(CADDYFILE), "--adapter", "caddyfile"], capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode == 0 and "Valid configuration" in r.stdout + r.stderr, r.stderr
    assert "not formatted" not in r.stderr, r.stderr
    formatted = subprocess.run([caddy, "fmt", str(CADDYFILE)], capture_output=True, text=True, env=env, timeout=60)
    assert formatted.returncode == 0 and formatted.stdout == CADDYFILE.read_text()


def test_caddy_and_the_unit_meet_on_one_port() -> None:
    site = CADDYFILE.read_text()
    upstream = re.search(r"reverse_proxy\s+127\.0\.0\.1:(\d+)", site)
    assert upstream is not None
    args = build_parser().parse_args(exec_start()[1:])
    assert int(upstream[1]) == args.port
    # the name Caddy serves is the one the server answers to
    assert re.search(r"^cards\.example\.org \{", site, re.M) and "cards.example.org" in args.allowed_host
