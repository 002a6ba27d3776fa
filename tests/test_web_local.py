"""The master in the page (conquian.web.local) in CPython: what the offline app's worker runs.

Every preset and seat count against random, foster and the time-capped expert; the saved form
rebuilt; the record exported and imported; the refusals; the engine's package for the page and
the snapshot builder with no server dependency (docs/internals.md: one client, two transports).
"""

from __future__ import annotations

import json
import posixpath
import random
import re
import subprocess
import sys
import zipfile
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from conquian.cli import main
from conquian.engine.record import read_record, replay
from conquian.engine.rules import PRESETS, get_rules
from conquian.web import site
from conquian.web.local import Games, LocalTable, presets
from conquian.web.site import engine_zip


def _call(games: Games, method: str, *args: Any, lang: str = "en") -> Any:
    out = json.loads(games.call(method, json.dumps(list(args)), lang))
    assert out["ok"], out
    return out["value"]


def _play_deal(games: Games, table_id: str, rng: random.Random) -> dict[str, Any]:
    """Play one deal: the player's moves chosen at random among the legal ones, the bots' their own."""
    for _ in range(2000):
        if _call(games, "bot_to_act", table_id):
            assert _call(games, "bot_move", table_id)[0]["type"] == "table"
            continue
        snap = _call(games, "handle", table_id, {"type": "hello"})[1]["table"]
        if snap["deal"]["over"]:
            return snap
        move = {"type": "act", "state": snap["state"], "action": rng.choice(snap["legal"])}
        out = _call(games, "handle", table_id, move)
        assert out[0]["type"] == "table", out
    raise AssertionError("the deal did not end")


SEATINGS = [(name, n) for name, r in PRESETS.items() for n in range(r.min_players, r.max_players + 1)]


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
@pytest.mark.parametrize("bot", ["random", "foster", "expert"])
def test_a_deal_against_each_bot_in_every_preset_and_seat_count(variant: str, players: int, bot: str) -> None:
    games = Games()
    saved = _call(games, "new", {"variant": variant, "players": players, "bot": bot, "name": "Ana", "seed": 5,
                                 "bot_seed": 5, "pace": 0, "expert_ms": 20})
    assert [s["kind"] for s in saved["seats"]] == ["human"] + [bot] * (players - 1)
    snap = _play_deal(games, saved["id"], random.Random(players))
    assert snap["offline"] is True and snap["rated"] is False
    assert sum(snap["scores"]["deals"][0]) == 0 or snap["variant"] == "conquian-mexicano"
    # the record replays through the engine to the same result
    rec = read_record(_call(games, "record", saved["id"])["text"])
    assert replay(rec).deals[0].scores == snap["scores"]["deals"][0]


def test_the_saved_form_rebuilds_the_table_and_the_record_imports() -> None:
    t = LocalTable.new("cooncan", players=3, bot="foster", name="Ann", seed=9, bot_seed=9, pace=0)
    rng = random.Random(2)
    for _ in range(12):
        while t.bot_to_act():
            t.bot_move()
        snap = t.snapshot()
        if snap["deal"]["over"]:
            break
        t.handle({"type": "act", "state": snap["state"], "action": rng.choice(snap["legal"])})
    again = LocalTable.restore(json.loads(json.dumps(t.saved())))
    assert again.snapshot() == t.snapshot()
    imported = LocalTable.from_record(t.record())
    assert [s.kind for s in imported.table.seats] == ["human", "foster", "foster"]
    assert imported.snapshot()["deal"] == t.snapshot()["deal"]
    assert imported.record() == t.record()


def test_the_page_reads_refusals_in_its_language() -> None:
    t = LocalTable.new("conquian", bot="foster", seed=1, bot_seed=1)
    t.handle({"type": "hello", "lang": "es"})
    stale = t.handle({"type": "act", "state": 99, "action": "pass"})[0]
    assert stale["type"] == "error" and stale["code"] == "stale" and "estado" in stale["message"]
    bad = t.handle({"type": "shuffle"})[0]
    assert bad["code"] == "bad_message"
    games = Games()
    out = json.loads(games.call("new", json.dumps([{"variant": "cooncan", "players": 9, "bot": "foster"}]), "es"))
    assert out["ok"] is False and "R1" in out["error"]["message"]
    out = json.loads(games.call("import_record", json.dumps(["format = 'nothing'"]), "en"))
    assert out["ok"] is False and out["error"]["message"]
    with pytest.raises(ValueError, match="no bot"):
        LocalTable.new("conquian", bot="master-of-none")


def test_options_hint_rematch_in_the_page() -> None:
    games = Games()
    saved = _call(games, "new", {"variant": "conquian", "players": 2, "bot": "random", "seed": 3, "bot_seed": 3,
                                 "pace": 0, "deals": 1})
    tid = saved["id"]
    while _call(games, "bot_to_act", tid):
        _call(games, "bot_move", tid)
    snap = _call(games, "handle", tid, {"type": "hello"})[1]["table"]
    card = snap["deal"]["hand"][0]
    opts = _call(games, "handle", tid, {"type": "options", "cards": [card]})[0]
    assert opts["type"] == "options" and opts["cards"] == [card]
    hint = _call(games, "handle", tid, {"type": "hint"})[0]
    assert hint["type"] == "hint" and hint["act"] in snap["legal"]
    _play_deal(games, tid, random.Random(1))
    out = _call(games, "handle", tid, {"type": "rematch"})[0]
    assert out["table"]["status"] == "over" and out["table"]["rematch"]
    new = _call(games, "saved", out["table"]["rematch"])
    assert new["status"] == "playing" and new["first_dealer"] == 1


def test_presets_are_the_servers() -> None:
    p = presets()
    assert [v["name"] for v in p["variants"]] == list(PRESETS)
    assert p["bots"] == ["beginner", "casual", "foster", "random", "expert"]
    # the levels as the menus list them: by their fitted rating in each game (expert under foster in Cooncan)
    assert p["level_order"]["cooncan"] == ["beginner", "casual", "expert", "foster"]
    mexicano = next(v for v in p["variants"] if v["name"] == "conquian-mexicano")
    assert get_rules("conquian-mexicano").players == mexicano["players"]


def test_the_engine_for_the_page_is_pure_python_without_the_server() -> None:
    names = zipfile.ZipFile(BytesIO(engine_zip())).namelist()
    assert {"conquian/web/local.py", "conquian/web/master.py", "conquian/web/snapshot.py"} <= set(names)
    assert "conquian/locale/es/LC_MESSAGES/conquian.mo" in names
    assert not [n for n in names if n.endswith((".so", ".pyd")) or "/tui/" in n or "web/server" in n or "web/app" in n]
    assert engine_zip() == engine_zip()  # the same bytes for the same sources
    # the snapshot builder and the local master import no server dependency
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('msgspec', 'starlette', 'sqlalchemy', 'uvicorn', 'alembic'):\n"
            "            raise ImportError('server dependency ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "import conquian.web.snapshot, conquian.web.master, conquian.web.local\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "ok", done.stderr


def test_site_command_refuses_bad_input_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["site", "build"]) == 2
    assert "conquian site build DIR" in capsys.readouterr().err
    file = tmp_path / "file"
    file.write_text("x")
    assert main(["site", "build", str(file)]) == 2
    assert "is not a folder" in capsys.readouterr().err
    # no runtime and no npm: what to do, said in one line, nothing written
    monkeypatch.setenv(site.RUNTIME_ENV, str(tmp_path / "nothing"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["--lang", "es", "site", "build", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "npm (Node.js)" in err and "Traceback" not in err and "se necesita" in err
    assert not (tmp_path / "out").exists()


def test_a_runtime_whose_digest_is_not_the_pinned_one_is_refused() -> None:
    with pytest.raises(site.SiteError, match="not the pinned"):
        site._check_integrity(b"not the package")


def test_site_build_writes_a_static_site(tmp_path: Path) -> None:
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for name in site.RUNTIME_FILES:  # a stand-in runtime: the build copies it as it is
        (runtime / name).write_bytes(name.encode())
    written = site.build_site(tmp_path / "site", runtime)
    assert "offline/index.html" in written and "offline/pyodide/pyodide.asm.wasm" in written
    assert "rules/es.html" in written and "i18n/es.json" in written and "static/transport.js" in written
    listing = json.loads((tmp_path / "site" / "offline" / "engine-assets.json").read_text())
    for name in listing["files"]:
        path = (tmp_path / "site" / "offline" / name).resolve()
        assert path.exists(), name
    # the app's one service worker at the site's root keeps every file the pages load, by
    # addresses relative to it, with their digests and sizes
    worker = (tmp_path / "site" / "sw.js").read_text()
    kept = json.loads(re.search(r"const ENGINE = (\[.*\]);", worker).group(1))  # type: ignore[union-attr]
    addresses = {a for a, _, _ in kept}
    for address, _, size in kept:
        path = tmp_path / "site" / address
        assert address == "./offline/" or path.stat().st_size == size, address
    assert {"./offline/", "./offline/pyodide/pyodide.asm.wasm", "./offline/engine.zip", "./i18n/es.json"} <= addresses
    # every script, style and the manifest the pages load is in the site and kept by the worker
    for name in ("index.html", "learn.html"):
        page = (tmp_path / "site" / "offline" / name).read_text()
        assert '<link rel="manifest" href="../manifest.webmanifest">' in page and 'data-sw="../sw.js"' in page
        for ref in re.findall(r'(?:src|href)="([^"#]+)"', page):
            assert (tmp_path / "site" / "offline" / ref).resolve().exists(), ref
            address = "./" + posixpath.normpath(f"offline/{ref}") + ("/" if ref.endswith("/") else "")
            assert address in addresses, ref
    manifest = json.loads((tmp_path / "site" / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./offline/" and manifest["scope"] == "./"
    for icon in manifest["icons"]:
        assert (tmp_path / "site" / icon["src"]).exists(), icon


def test_the_experts_playouts_in_the_page_are_counted_move_by_move() -> None:
    """``playouts``: what the expert played out at each of its moves under the page's time cap."""
    games = Games()
    saved = _call(games, "new", {"variant": "conquian", "players": 2, "bot": "expert", "seed": 4, "bot_seed": 4,
                                 "pace": 0, "expert_ms": 30})
    tid = saved["id"]
    moves = 0
    for _ in range(60):  # until the expert has had a choice to think about (a lone legal move needs none)
        snap = _call(games, "handle", tid, {"type": "hello"})[-1]["table"]
        if snap["deal"]["over"] or sum(_call(games, "playouts", tid)):
            break
        if _call(games, "bot_to_act", tid):
            _call(games, "bot_move", tid)
            moves += 1
        else:
            _call(games, "handle", tid, {"type": "act", "state": snap["state"], "action": snap["legal"][0]})
    counts = _call(games, "playouts", tid)
    assert moves and len(counts) == moves and all(isinstance(n, int) and n >= 0 for n in counts)
    assert sum(counts) > 0


def test_no_memory_snapshot_without_a_node_that_makes_one(tmp_path: Path) -> None:
    """The engine's memory snapshot is made by Node.js from the real runtime: with no Node.js, or
    a runtime that is not one, there is none (the page then starts plainly) and nothing is kept."""
    from conquian.web import memory_snapshot

    runtime = tmp_path / "runtime"
    runtime.mkdir()
    for name in site.RUNTIME_FILES:
        (runtime / name).write_bytes(name.encode())
    engine = b"an engine"
    assert memory_snapshot.make(engine, runtime, node="no-such-node-here") is None
    assert memory_snapshot.make(engine, runtime) is None  # Node.js (if any) cannot start this runtime
    assert memory_snapshot.cached(engine, runtime) is None
    assert "offline/engine.snapshot" not in site.app_files(runtime)
