"""Bots on the server, in a process pool so that a search never blocks the tables.

A bot's turn is sent to a worker as a :class:`BotJob`: the deal's deck and actions so far (the
worker rebuilds the deal) and the seat; the worker gives the bot that seat's view only and
returns the action it chose, as text.  The server then plays it like any move.

```pycon
>>> from conquian import get_rules
>>> from conquian.web.table import Table
>>> t = Table("t1", "", get_rules("conquian"), seed=5)
>>> _ = t.sit(1, "Ann"); t.set_bot(2, "foster", host=True)
>>> t.act(1, "pass", state=1) and None
>>> job = bot_job(t, 2, "foster")
>>> choose(job).startswith("p2 ")
True

```
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import secrets
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from conquian.bots import make_bot
from conquian.engine.match import new_deal
from conquian.engine.rules import get_rules
from conquian.web.table import Table


@dataclass(frozen=True)
class BotJob:
    """Everything a worker needs to give a bot its view: picklable, a few kilobytes."""

    variant: str
    players: int
    options: dict[str, Any]
    deck: tuple[int, ...]
    dealer: int
    actions: tuple[str, ...]
    seat: int
    bot: str
    seed: int
    iterations: int | None = None
    """The expert's search (None: the bot's own); the hint asks for a short one."""


def bot_job(table: Table, seat: int, bot: str, iterations: int | None = None) -> BotJob:
    """The job for ``bot`` to play ``seat``'s turn at ``table``."""
    assert table.session is not None
    deal = table.session.deal
    return BotJob(
        variant=table.rules.name, players=table.rules.players, options=table.rules.options_diff(),
        deck=tuple(deal.deck), dealer=deal.dealer, actions=tuple(str(a) for a in deal.actions()),
        # the bot's own randomness: the operating system's, nothing to do with the decks
        seat=seat, bot=bot, seed=secrets.randbits(63), iterations=iterations,
    )


def choose(job: BotJob) -> str:
    """Rebuild the deal, give the bot the seat's view, return its action (runs in a worker)."""
    rules = get_rules(job.variant, players=job.players, **job.options)
    deal = new_deal(rules, job.deck, dealer=job.dealer)
    for a in job.actions:
        deal.play(a)
    bot = make_bot(job.bot, seed=job.seed) if job.iterations is None else \
        make_bot(job.bot, seed=job.seed, iterations=job.iterations)
    return str(bot.choose(deal.view(job.seat)))


def _worker_start() -> None:
    """A bot worker ignores the terminal's ctrl+c and a stop sent to the whole process group
    (systemd's SIGTERM to every process of the service): the server stops its workers when it
    stops itself (:meth:`BotRunner.close`), after their last answer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


class BotRunner:
    """Runs bot jobs in ``workers`` processes (0: in a thread of this process, for tests)."""

    def __init__(self, workers: int | None = None) -> None:
        n = min(os.cpu_count() or 1, 4) if workers is None else workers
        self.workers = n
        self.executor: Executor
        if n <= 0:
            self.executor = ThreadPoolExecutor(max_workers=1)
        else:
            # spawn, not fork: the server has threads and an event loop that a fork would copy
            self.executor = ProcessPoolExecutor(max_workers=n, mp_context=multiprocessing.get_context("spawn"),
                                                initializer=_worker_start)

    async def choose(self, job: BotJob) -> str:
        """The bot's action for ``job``, computed off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, choose, job)

    def close(self, timeout: float = 3.0) -> None:
        """Stop the workers and wait for them: the jobs not started are dropped, a search under way
        has ``timeout`` seconds to end before its process is terminated; then the pool's queues
        and their semaphores are released (a process left running, or a pool left to the
        interpreter's exit, makes Python warn of "leaked semaphore objects")."""
        executor = self.executor
        if not isinstance(executor, ProcessPoolExecutor):
            executor.shutdown(wait=False, cancel_futures=True)  # a thread: nothing outlives the process
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())

        def stop_searches() -> None:
            for process in processes:
                if process.is_alive():
                    process.kill()  # it ignores SIGTERM

        late = threading.Timer(timeout, stop_searches)
        late.start()
        try:
            executor.shutdown(wait=True, cancel_futures=True)  # joins the workers, closes the queues
        finally:
            late.cancel()
