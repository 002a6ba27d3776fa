"""The offline app in Chromium: what a first and a warm load cost, and an ``expert`` move in the
page beside the same move in CPython.

    python -m benchmarks.offline_page                # 30 expert moves
    python -m benchmarks.offline_page --moves 10     # fewer

The site is ``conquian site build``'s, served by a plain static file server on 127.0.0.1.
- first visit: a new browser profile opens ``offline/`` until the engine is ready: the bytes that
  came over the network and the time, with the worker's breakdown (the runtime loaded: its
  download, WebAssembly compile and Python's start; the engine's package unpacked; our modules
  imported);
- warm load: the same profile reloads once its service worker has kept the app: the bytes that
  still came over the network (not from the service worker), the time to the engine ready and
  its breakdown;
- warm start at a match in progress: the page reloaded at the table, the time until the table
  is playable (drawn, the player to act) and until the engine is ready (median of ``--warm``);
- an ``expert`` move: a two-handed conquian match against the expert at its page's time cap
  (:data:`conquian.web.local.EXPERT_MS`), the bots at once; the time from the player's move to
  the bot's answer as the page receives it (the worker's think, its save to IndexedDB and the
  message), p50 and p95, with the playouts it had time for; then the same positions in CPython.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

from conquian.web import site
from conquian.web.local import EXPERT_MS, LocalTable

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

#: Drives a match against the expert in the page: the player plays the first legal move, the
#: time from each move sent to the bot's answer received is kept.
DRIVE = """async ([spec, moves]) => {
  const id = await ENGINE.call('create', { spec });
  const times = [], mine = [];
  let sent = 0, resolve;
  const done = new Promise(r => { resolve = r; });
  ENGINE.listen(id, m => {
    if (m.type !== 'table') return;
    const t = m.table, d = t.deal;
    if (sent && d && d.to_act === 1) { times.push(performance.now() - sent); sent = 0; }
    if (times.length >= moves || t.status !== 'playing') { resolve(); return; }
    if (d.over) { ENGINE.post(id, { type: 'next', state: t.state }); return; }
    if (d.to_act === 1 && t.legal.length) {
      mine.push(t.legal[0]);
      sent = performance.now();
      ENGINE.post(id, { type: 'act', state: t.state, action: t.legal[0] });
    }
  });
  ENGINE.post(id, { type: 'hello', v: 1, lang: 'en' });
  await done;
  return { times, id };
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                                                ".wasm": "application/wasm"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def _load(context: Any, url: str) -> tuple[float, int, int]:
    """Open the app until the engine is ready: seconds, bytes over the network, requests."""
    got = {"bytes": 0, "requests": 0}

    def finished(request: Any) -> None:
        response = request.response()
        if response is None or response.from_service_worker:
            return
        got["requests"] += 1
        got["bytes"] += request.sizes()["responseBodySize"]

    context.on("requestfinished", finished)
    page = context.pages[0] if context.pages else context.new_page()
    start = time.perf_counter()
    if page.url.startswith(url):
        page.reload()
    else:
        page.goto(url)
    page.wait_for_function("typeof ENGINE !== 'undefined' && ENGINE.status === 'ready'", timeout=300_000)
    seconds = time.perf_counter() - start
    context.remove_listener("requestfinished", finished)
    return seconds, got["bytes"], got["requests"]


#: The app has kept its files for use offline (the site's service worker's mark; the former
#: offline worker's cache, for a build of an older version measured beside this one).
KEPT = ("() => document.documentElement.dataset.kept === '1' || "
        "caches.keys().then(k => k.some(n => n.startsWith('conquian-offline-')))")


def _ms(x: float | None) -> str:
    return "n/a" if x is None else f"{x / 1000:.2f} s"


def _warm_table(page: Any, url: str, table_id: str) -> tuple[float, float]:
    """Reload the page at a table in progress: seconds to the table drawn with the player to act
    (playable: a tap is taken), and to the engine ready."""
    page.goto(f"{url}#/")
    page.wait_for_function("typeof ENGINE !== 'undefined' && ENGINE.status === 'ready'", timeout=300_000)
    start = time.perf_counter()
    page.goto(f"{url}#/t/{table_id}")
    page.reload()
    page.wait_for_selector("#board[data-mine='1']", timeout=300_000)
    drawn = time.perf_counter() - start
    page.wait_for_function("typeof ENGINE !== 'undefined' && ENGINE.status === 'ready'", timeout=300_000)
    return drawn, time.perf_counter() - start


def _timings(page: Any) -> str:
    t = page.evaluate("typeof ENGINE !== 'undefined' && ENGINE.timings || null")
    if not t:
        return "no breakdown (this version's worker does not report one)"
    wasm = t.get("wasm_downloaded")
    how = {True: "from the memory snapshot", False: "plainly"}.get(t.get("snapshot"), "?")
    if t.get("snapshot_error"):
        how += f" (the snapshot failed: {t['snapshot_error']})"
    return (f"runtime started {how}, snapshot read at {t.get('snapshot_read', '?')} ms, "
            f"runtime loaded at {t['runtime']} ms (its wasm downloaded at {wasm if wasm is not None else '?'} ms; "
            f"the rest: WebAssembly compile and Python's start), package unpacked at {t['unpacked']} ms, "
            f"our modules imported at {t['imported']} ms (worker's clock)")


def main(argv: list[str] | None = None) -> int:
    """Build the site, serve it, measure in Chromium, print the figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=30, help="expert moves timed (default 30)")
    p.add_argument("--warm", type=int, default=3, help="warm starts timed (default 3; the median is printed)")
    p.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    p.add_argument("--no-snapshot", action="store_true", help="the site without the engine's memory snapshot")
    args = p.parse_args(argv)
    from playwright import sync_api

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "site"
        site.build_site(root)
        if args.no_snapshot:  # the plain start, for comparison
            (root / "offline" / "engine.snapshot").unlink(missing_ok=True)
            worker = (root / "sw.js").read_text()
            listed = re.search(r"const ENGINE = (\[.*\]);", worker)
            if listed:
                kept = [f for f in json.loads(listed.group(1)) if not f[0].endswith("engine.snapshot")]
                (root / "sw.js").write_text(worker.replace(listed.group(0), f"const ENGINE = {json.dumps(kept)};"))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/offline/"
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=ARGS)
            context = browser.new_context()
            first = _load(context, url)
            page = context.pages[0]
            first_breakdown = _timings(page)
            page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=300_000)
            page.wait_for_function(KEPT, timeout=300_000)
            time.sleep(2)  # the service worker's cache written
            warm = _load(context, url)
            warm_breakdown = _timings(page)
            # a match in progress: the warm start to its table, playable
            spec = {"variant": "conquian", "players": 2, "bot": "foster", "name": "Bench", "seed": 5, "bot_seed": 5,
                    "pace": 0}
            table_id = page.evaluate("spec => ENGINE.call('create', { spec })", spec)
            page.goto(f"{url}#/t/{table_id}")
            page.wait_for_selector("#board[data-mine='1']", timeout=300_000)
            starts = [_warm_table(page, url, table_id) for _ in range(max(1, args.warm))]
            page.goto(f"{url}#/")
            page.wait_for_function("typeof ENGINE !== 'undefined' && ENGINE.status === 'ready'", timeout=300_000)
            spec = {"variant": "conquian", "players": 2, "bot": "expert", "name": "Bench", "seed": 17, "bot_seed": 17,
                    "pace": 0}
            out = page.evaluate(DRIVE, [spec, args.moves])
            saved = page.evaluate("id => ENGINE.call('record', { id })", out["id"])
            try:
                playouts = page.evaluate("id => ENGINE.call('playouts', { id })", out["id"])
            except sync_api.Error:
                playouts = []  # a version whose engine does not count them
            browser.close()
        httpd.shutdown()
        httpd.server_close()
    page_ms = out["times"]
    # the same positions in CPython: the page's moves replayed, the expert timed at each of its own
    from conquian.bots import make_bot
    from conquian.engine.record import read_record

    rec = read_record(saved["text"])
    t = LocalTable.new("conquian", players=2, bot="expert", name="Bench", seed=17, bot_seed=17, pace=0)
    cpython_ms: list[float] = []
    cpython_playouts: list[int] = []
    for i, deal in enumerate(rec.deals):
        if i:
            t.table.next_deal(t.table.state)
        for action in deal.actions:
            seat = int(action.split()[0][1:])
            if seat != 1:
                session = t.table.session
                assert session is not None
                bot = make_bot("expert", seed=i, ms=EXPERT_MS)
                start = time.perf_counter()
                bot.choose(session.deal.view(seat))
                cpython_ms.append((time.perf_counter() - start) * 1000)
                cpython_playouts.append(int(getattr(bot, "last_playouts", 0)))
            t.table.act(seat, action, t.table.state)
    drawn = statistics.median(s[0] for s in starts)
    ready = statistics.median(s[1] for s in starts)
    print(f"offline app, Pyodide {site.PYODIDE_VERSION}, the expert capped at {EXPERT_MS:g} ms a move")
    print(f"first visit: {first[1] / 1e6:.2f} MB in {first[2]} requests, {first[0]:.1f} s to the engine ready")
    print(f"  {first_breakdown}")
    print(f"warm load:  {warm[1] / 1e6:.3f} MB in {warm[2]} requests from the network, "
          f"{warm[0]:.2f} s to the engine ready")
    print(f"  {warm_breakdown}")
    print(f"warm start at a match in progress (median of {len(starts)}): the table playable in {drawn:.2f} s, "
          f"the engine ready in {ready:.2f} s")
    thinking = [n for n in playouts if n]
    if page_ms:
        print(f"expert move in the page ({len(page_ms)} moves): p50 {statistics.median(page_ms):.0f} ms, "
              f"p95 {_pct(page_ms, 0.95):.0f} ms" + (
                  f"; playouts of its {len(thinking)} choices: p50 {statistics.median(thinking):.0f}, "
                  f"min {min(thinking)}" if thinking else "; playouts not reported by this version"))
    thought = [n for n in cpython_playouts if n]
    if cpython_ms:
        print(f"expert move in CPython {sys.version.split()[0]} ({len(cpython_ms)} moves): "
              f"p50 {statistics.median(cpython_ms):.0f} ms, p95 {_pct(cpython_ms, 0.95):.0f} ms"
              + (f"; playouts p50 {statistics.median(thought):.0f}" if thought else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
