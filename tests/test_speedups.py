"""The compiled hot path (``conquian speedups``): built with mypyc into a copy of the package, it
plays exactly as the pure-Python path does (issue 12: a compiled hot path, the pure path kept)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import conquian
from conquian import get_rules, speedups
from conquian.analysis.collect import play_chunk

pytest.importorskip("mypyc")

CASES = [("conquian", 2, ["foster", "foster"]), ("conquian", 2, ["random", "foster"]),
         ("cooncan", 3, ["foster", "foster", "random"]), ("cooncan-double", 5, ["foster"] * 5)]

PROBE = """
import json, sys
from conquian import get_rules, speedups
from conquian.analysis.collect import play_chunk
from conquian.simulate import simulate
assert all(speedups.status().values()), speedups.status()
cases = json.loads(sys.argv[1])
out = [play_chunk(get_rules(v, players=n), bots, 3, 0, 40).to_json() for v, n, bots in cases]
out.append(simulate(get_rules("cooncan"), 50, seed=2).to_json()["wins"])
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("compiled")
    shutil.copytree(Path(conquian.__file__).parent, root / "conquian",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    written = speedups.build(root / "conquian")
    assert len(written) == len(speedups.HOT_MODULES) + 1  # and the group's shared library
    return root


def test_the_pure_path_is_in_use_here() -> None:
    """The comparison below needs this checkout in pure Python (a developer who built the hot
    path in place runs it after ``conquian speedups remove``; CI never builds in place)."""
    if any(speedups.status().values()) and not os.environ.get("CONQUIAN_CI"):
        pytest.skip("the hot path is compiled in this checkout ('conquian speedups remove' to compare)")
    assert not any(speedups.status().values())


def test_compiled_play_is_the_pure_play(compiled: Path) -> None:
    if any(speedups.status().values()):
        pytest.skip("the hot path is compiled in this checkout ('conquian speedups remove' to compare)")
    from conquian.simulate import simulate

    expected = [play_chunk(get_rules(v, players=n), bots, 3, 0, 40).to_json() for v, n, bots in CASES]
    expected.append(simulate(get_rules("cooncan"), 50, seed=2).to_json()["wins"])
    env = dict(os.environ, PYTHONPATH=str(compiled))
    p = subprocess.run([sys.executable, "-c", PROBE, json.dumps(CASES)], capture_output=True, text=True, env=env,
                       cwd=compiled, timeout=600)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == json.loads(json.dumps(expected))


PINNED_PROBE = """
import json, sys
from conquian import speedups
assert all(speedups.status().values()), speedups.status()
sys.path.insert(0, sys.argv[1])
from test_foster_pinned import PINNED, decisions_digest
print(json.dumps([decisions_digest(v, n)[0] for v, n in PINNED]))
"""


def test_compiled_foster_decides_as_pinned(compiled: Path) -> None:
    """The compiled policies make every decision of ``tests/test_foster_pinned.py`` as pinned."""
    from test_foster_pinned import PINNED

    env = dict(os.environ, PYTHONPATH=str(compiled))
    p = subprocess.run([sys.executable, "-c", PINNED_PROBE, str(Path(__file__).parent)], capture_output=True,
                       text=True, env=env, cwd=compiled, timeout=600)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == list(PINNED.values())


PICKLE_PROBE = """
import copy, pickle, random
from conquian import get_rules, speedups
from conquian.engine.deck import seeded_deck
from conquian.engine.match import new_deal
assert all(speedups.status().values()), speedups.status()
for variant in ("cooncan", "cooncan-double", "conquian"):
    rules = get_rules(variant)
    deal = new_deal(rules, seeded_deck(rules, 3), dealer=1)
    rnd = random.Random(3).random
    for _ in range(60):
        if deal.over:
            break
        deal.apply_raw(*deal.random_raw(rnd))
    assert getattr(deal, "combos", True), variant  # Cooncan: combinations on the table (compiled objects)
    for other in (pickle.loads(pickle.dumps(deal)), copy.deepcopy(deal)):
        assert other == deal, variant
print("ok")
"""


def test_compiled_deals_pickle_and_copy(compiled: Path) -> None:
    """Deals holding compiled objects (Cooncan's combinations, the meld tables) pickle and
    deep-copy: a compiled class's constructor runs ``__init__``, so each says how it is made again."""
    env = dict(os.environ, PYTHONPATH=str(compiled))
    p = subprocess.run([sys.executable, "-c", PICKLE_PROBE], capture_output=True, text=True, env=env,
                       cwd=compiled, timeout=600)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr


REBUILD_PROBE = """
import shutil, sys
from pathlib import Path
from conquian import get_rules, speedups
from conquian.analysis.collect import play_chunk
assert all(speedups.status().values()), speedups.status()
rules = get_rules("cooncan")
before = play_chunk(rules, ["foster"] * 3, 3, 0, 20).to_json()
speedups.install(Path(sys.argv[1]), speedups.package_dir())  # a new build placed under a running game
assert play_chunk(rules, ["foster"] * 3, 3, 0, 20).to_json() == before
print("ok")
"""


def test_a_build_installed_under_a_running_process_leaves_it_whole(
        compiled: Path, tmp_path: Path) -> None:
    """``conquian speedups build`` run where the hot path is already compiled (and so loaded by
    the very process that builds) crashed that process when it wrote over the loaded files:
    the new files are now renamed into place, and the running process goes on playing."""
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    for f in speedups.built_files(compiled / "conquian"):
        dest = fresh / f.relative_to(compiled / "conquian")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, dest)
    loaded = tmp_path / "loaded"
    shutil.copytree(compiled, loaded)
    env = dict(os.environ, PYTHONPATH=str(loaded))
    p = subprocess.run([sys.executable, "-c", REBUILD_PROBE, str(fresh)], capture_output=True, text=True,
                       env=env, cwd=loaded, timeout=600)
    assert p.returncode == 0 and p.stdout.strip() == "ok", (p.returncode, p.stderr[-2000:])
    assert sorted(f.name for f in speedups.built_files(loaded / "conquian")) == \
        sorted(f.name for f in speedups.built_files(compiled / "conquian"))
    assert not list((loaded / "conquian").rglob("*.part"))


def test_status_and_remove_on_the_copy(compiled: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(compiled))
    p = subprocess.run([sys.executable, "-m", "conquian", "speedups", "status"], capture_output=True, text=True,
                       env=env, cwd=compiled, timeout=120)
    assert p.returncode == 0 and p.stdout.count("compiled") == len(speedups.HOT_MODULES), p.stdout
    gone = speedups.remove(compiled / "conquian")
    assert len(gone) == len(speedups.HOT_MODULES) + 1 and not speedups.built_files(compiled / "conquian")


def test_a_build_without_mypyc_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mypyc" else real(name, *a))
    with pytest.raises(speedups.SpeedupsError, match=r"conquian\[speed\]"):
        speedups.build(tmp_path)

