"""Spreading a run of deals: one process, local worker processes, or a Ray cluster.

A run is cut into chunks of consecutive deals (:func:`chunks`); each chunk is played by
:func:`~conquian.analysis.collect.play_chunk` wherever it lands, and the tallies are added
up.  Since a deal depends only on the seed and its number, and the tallies are whole-number
counts, every backend gives the same tally, hence the same figures and the same JSON.

```pycon
>>> from conquian import get_rules
>>> rules = get_rules("conquian")
>>> one = run(rules, ["random", "random"], 60, seed=3, workers=1)
>>> two = run(rules, ["random", "random"], 60, seed=3, workers=2, chunk=7)
>>> one.to_json() == two.to_json()
True

```
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from conquian.analysis.collect import Tally, check_bots, empty_tally, play_chunk
from conquian.engine.rules import Rules
from conquian.i18n import _

Progress = Callable[[int], None]


def chunks(deals: int, size: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of consecutive chunks covering ``range(deals)``."""
    for a in range(0, deals, size):
        yield a, min(deals, a + size)


def default_chunk(deals: int, workers: int, bots: list[str]) -> int:
    """Chunks small enough to balance the workers and show progress, large enough to cost nothing."""
    cheap = all(b in ("random", "foster") for b in bots)
    cap = 2000 if cheap else 20
    return max(1, min(cap, deals // max(1, workers * 8) or 1))


def _merge(parts: list[Tally], rules: Rules) -> Tally:
    total = empty_tally(rules)
    for p in parts:
        total = total + p
    return total


def run(rules: Rules, bots: list[str], deals: int, seed: int = 0, workers: int = 1, chunk: int | None = None,
        progress: Progress | None = None) -> Tally:
    """Play ``deals`` deals on ``workers`` local processes (1: in this process).  Raises
    :class:`RuntimeError` if a bot does not play the rules (:func:`~conquian.analysis.collect.check_bots`)."""
    check_bots(rules, bots)
    size = chunk or default_chunk(deals, workers, bots)
    parts = list(chunks(deals, size))
    if workers <= 1:
        out = []
        for a, b in parts:
            out.append(play_chunk(rules, bots, seed, a, b))
            if progress:
                progress(b - a)
        return _merge(out, rules)
    results: dict[int, Tally] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[Tally], int] = {}
        todo = iter(enumerate(parts))
        for idx, (a, b) in todo:
            pending[pool.submit(play_chunk, rules, bots, seed, a, b)] = idx
            if len(pending) >= workers * 3:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                idx = pending.pop(f)
                results[idx] = f.result()
                if progress:
                    progress(parts[idx][1] - parts[idx][0])
                nxt = next(todo, None)
                if nxt is not None:
                    pending[pool.submit(play_chunk, rules, bots, seed, *nxt[1])] = nxt[0]
    return _merge([results[i] for i in range(len(parts))], rules)


def run_ray(rules: Rules, bots: list[str], deals: int, seed: int = 0, address: str | None = None,
            num_cpus: int | None = None, chunk: int | None = None, progress: Progress | None = None) -> Tally:
    """Play the run as Ray tasks: on a local Ray instance (``address`` None, ``num_cpus`` CPUs) or on
    the cluster at ``address``.  Raises :class:`RuntimeError` if Ray is missing or unreachable, or a
    bot does not play the rules."""
    check_bots(rules, bots)
    try:
        import ray
    except ImportError:
        raise RuntimeError("--ray needs Ray: pip install 'conquian[analysis]'") from None
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                  "configure_logging": False}
        if address:
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = num_cpus or os.cpu_count() or 1
        try:
            ray.init(**kwargs)
        except Exception as e:  # an unreachable address, a cluster of another version
            reason = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
            raise RuntimeError(_("cannot start or reach Ray at {address}: {reason}").format(
                address=address, reason=reason) if address else _("cannot start or reach Ray: {reason}").format(
                reason=reason)) from None
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call, unused-ignore]
        size = chunk or default_chunk(deals, cpus, bots)
        parts = list(chunks(deals, size))
        remote = ray.remote(num_cpus=1)(play_chunk)
        rules_ref = ray.put(rules)
        refs = {remote.remote(rules_ref, bots, seed, a, b): i for i, (a, b) in enumerate(parts)}
        results: dict[int, Tally] = {}
        waiting = list(refs)
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            for ref in done:
                i = refs[ref]
                results[i] = ray.get(ref)
                if progress:
                    progress(parts[i][1] - parts[i][0])
        return _merge([results[i] for i in range(len(parts))], rules)
    finally:
        if started:
            ray.shutdown()


def progress_bar(total: int, label: str) -> tuple[Progress | None, Callable[[], None]]:
    """A progress bar on a terminal (tqdm), nothing elsewhere: ``(advance, close)``."""
    if not sys.stderr.isatty():
        return None, lambda: None
    try:
        from tqdm import tqdm
    except ImportError:
        start = time.monotonic()
        done = [0]

        def advance(n: int) -> None:
            done[0] += n
            rate = done[0] / max(1e-9, time.monotonic() - start)
            print(f"\r{label}: " + _("{done:,}/{total:,} deals ({rate:,.0f}/s)").format(done=done[0], total=total,
                                                                                      rate=rate),
                  end="", file=sys.stderr, flush=True)

        return advance, lambda: print(file=sys.stderr)
    bar = tqdm(total=total, unit=_("deal"), desc=label, unit_scale=True, file=sys.stderr)

    def update(n: int) -> None:
        bar.update(n)

    return update, bar.close
