"""Optional compiled hot path: the listing, meld tables, ``foster`` and ``apprentice`` policies built with mypyc.

The package is pure Python and stays so: every module here works uncompiled, and the tests
run on that path.  ``conquian speedups build`` compiles :data:`HOT_MODULES` with mypyc (from
the ``speed`` extra, with a C compiler) into extension modules placed beside their sources,
which Python then imports in their place; play is the same card for card, about two to three
times as fast (``docs/benchmarks.md``).  ``conquian speedups remove`` deletes them again.

The deal classes themselves (:mod:`conquian.engine.conquian.deal`, :mod:`conquian.engine.cooncan.deal`) are not
compiled: the search builds them with ``object.__new__``, which native classes refuse, and
their listing, the part that pays, lives in the two ``*_listing`` modules.

```pycon
>>> sorted(status()) == sorted(HOT_MODULES)
True

```
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The modules compiled, in the order of their imports.  (Not the deck: its shuffle is 64-bit arithmetic
#: on Python ints, which compiled code boxes at every step: it ran slower compiled than pure.)
HOT_MODULES: tuple[str, ...] = (
    "conquian.engine.conquian.melds",
    "conquian.engine.cooncan.melds",
    "conquian.engine.conquian.listing",
    "conquian.engine.cooncan.listing",
    "conquian.bots.foster_conquian",
    "conquian.bots.foster_cooncan",
    "conquian.bots.foster_mexicano",
    "conquian.bots.foster",
    "conquian.bots.apprentice_policy",
    "conquian.bots.inference",
)
#: The shared library mypyc builds for the group, inside the package.
GROUP = "conquian._speedups"


class SpeedupsError(RuntimeError):
    """The compiled modules could not be built (no mypyc, no compiler, a failed build)."""


def package_dir() -> Path:
    """The directory of the installed ``conquian`` package."""
    return Path(__file__).resolve().parent


def _suffixes() -> tuple[str, ...]:
    return tuple(importlib.machinery.EXTENSION_SUFFIXES)


def built_files(root: Path | None = None) -> list[Path]:
    """The compiled files present beside the sources (of this package, or of a copy at ``root``)."""
    base = root if root is not None else package_dir()
    names = [m.split(".", 1)[1].replace(".", "/") for m in HOT_MODULES] + [GROUP.split(".", 1)[1] + "__mypyc"]
    out = []
    for n in names:
        for suffix in _suffixes():
            p = base / (n + suffix)
            if p.exists():
                out.append(p)
    return out


def status() -> dict[str, bool]:
    """For each hot module, whether it would be (or was) imported from a compiled file."""
    out = {}
    for name in HOT_MODULES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        out[name] = bool(origin and origin.endswith(_suffixes()))
    return out


def _build_script(sources: list[str]) -> str:
    return (
        "from setuptools import Distribution\n"
        "from mypyc.build import mypycify\n"
        f"exts = mypycify({sources!r}, group_name={GROUP!r}, opt_level='3')\n"
        "d = Distribution({'ext_modules': exts, 'script_args': ['build_ext', '--inplace', '-q']})\n"
        "d.parse_command_line()\n"
        "d.run_commands()\n"
    )


def build(target: Path | None = None, quiet: bool = True) -> list[Path]:
    """Compile :data:`HOT_MODULES` and place the extension modules in ``target`` (a ``conquian``
    package directory; by default this installed one).  Returns the files written.

    The build runs in a temporary copy of the package, in a child process, so that a failure
    leaves the package as it was.  Raises :class:`SpeedupsError` with the reason.
    """
    if importlib.util.find_spec("mypyc") is None or importlib.util.find_spec("setuptools") is None:
        raise SpeedupsError("mypyc is not installed: pip install 'conquian[speed]'")
    dest = target if target is not None else package_dir()
    with tempfile.TemporaryDirectory(prefix="conquian-build-") as tmp:
        work = Path(tmp)
        shutil.copytree(package_dir(), work / "conquian",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "web", "envs"))
        sources = [m.replace(".", "/") + ".py" for m in HOT_MODULES]
        env = dict(os.environ, PYTHONPATH=str(work))
        proc = subprocess.run([sys.executable, "-c", _build_script(sources)], cwd=work, env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-12:]
            raise SpeedupsError("the build failed (a C compiler and Python's headers are needed):\n"
                                + "\n".join(tail))
        written = install(work / "conquian", dest)
    if not quiet:
        for f in written:
            print(f)
    return written


def install(built: Path, dest: Path) -> list[Path]:
    """Place the compiled modules found in the package directory ``built`` into the package
    directory ``dest``.  Returns the files written.

    Each file is copied beside its place, then renamed over it: a process that has the old
    module loaded (the one building, when the package was already compiled) keeps its mapped
    file whole, where writing into that file in place crashed it.
    """
    written = []
    for f in built_files(built):
        to = dest / f.relative_to(built)
        part = to.with_name(to.name + ".part")
        shutil.copy2(f, part)
        os.replace(part, to)
        written.append(to)
    return written


def remove(target: Path | None = None) -> list[Path]:
    """Delete the compiled modules (the pure-Python sources are used again).  Returns what was deleted."""
    gone = built_files(target)
    for f in gone:
        f.unlink()
    return gone
