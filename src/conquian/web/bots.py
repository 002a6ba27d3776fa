"""Bots on the server, in a supervised process pool so that a search never blocks the tables, shared
fairly between tables and addresses.

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
import os
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from conquian.engine.match import new_deal
from conquian.engine.rules import get_rules
from conquian.review import hint_choice
from conquian.web.master import bot_choice
from conquian.web.table import Table
from conquian.web.workers import FairQueue, SupervisedPool, yield_asked

#: The job of a hint (not a bot's name): the move the review would call best.
HINT = "hint"


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
    """The expert's search (None: the bot's own)."""
    names: tuple[str, ...] = ()
    """The players' names, and the deal's number in the match: the hint's seed is the position's
    (:func:`conquian.review.position_seed`), the one the review of the record uses."""
    deal_number: int = 0
    background: bool = False
    """Nobody waits for the answer (a table of bots only): the search ends early, playing its
    best so far, while a job that a person waits for waits for a worker."""


def bot_job(table: Table, seat: int, bot: str, iterations: int | None = None) -> BotJob:
    """The job for ``bot`` to play ``seat``'s turn at ``table``."""
    assert table.session is not None
    deal = table.session.deal
    return BotJob(
        variant=table.rules.name, players=table.rules.players, options=table.rules.options_diff(),
        deck=tuple(deal.deck), dealer=deal.dealer, actions=tuple(str(a) for a in deal.actions()),
        # the bot's own randomness: the operating system's, nothing to do with the decks
        seat=seat, bot=bot, seed=secrets.randbits(63), iterations=iterations,
        names=tuple(table.session.names or ()), deal_number=len(table.session.match.deals),
        background=table.all_bots,
    )


def choose(job: BotJob) -> str:
    """Rebuild the deal, give the bot the seat's view, return its action (runs in a worker)."""
    rules = get_rules(job.variant, players=job.players, **job.options)
    deal = new_deal(rules, job.deck, dealer=job.dealer)
    for a in job.actions:
        deal.play(a)
    if job.bot == HINT:  # the review's best move at this position: the same every time it is asked
        return hint_choice(job.variant, job.options, job.names, job.deal_number, deal, job.seat)
    # the bot's choice is the master's (the page's bots choose alike); a table of bots' expert
    # ends its search early when a person's job waits
    return bot_choice(deal, job.seat, job.bot, job.seed, iterations=job.iterations,
                      stop=yield_asked if job.background else None)[0]


#: Seconds a hint's answer is kept for its position (another ask at the same position gets it).
HINT_KEPT = 600.0


class BotRunner:
    """Runs bot jobs in ``workers`` supervised processes (0: in a thread of this process, for
    tests; :class:`~conquian.web.workers.SupervisedPool`), shared fairly: a job waits for a free
    worker in a :class:`~conquian.web.workers.FairQueue`, where a time-out's move goes first and
    then whoever (``key``: the table's maker, an address) has had the workers least lately.  A
    hint is worked out once per position (:meth:`hint`): more asks for it wait for that one."""

    def __init__(self, workers: int | None = None) -> None:
        n = min(os.cpu_count() or 1, 4) if workers is None else workers
        self.workers = n
        self.pool = SupervisedPool(n, "bot workers", yielding=True)
        self.slots = max(1, n)
        self.busy = 0
        self.queue: FairQueue[asyncio.Future[None]] = FairQueue()
        self.hints: dict[tuple[str, int, int], asyncio.Future[str]] = {}
        self.jobs_run = 0
        """Jobs the workers have run (hints included, each position's once)."""
        self.hint_answers: OrderedDict[tuple[str, int, int], tuple[str, float]] = OrderedDict()
        self.people_waiting: set[asyncio.Future[None]] = set()
        """The queued jobs that a person waits for (while there are any, background jobs yield)."""

    @property
    def whole(self) -> bool:
        """Whether every worker is there (false from a worker's death until its replacement has run a job)."""
        return self.pool.whole

    @property
    def waiting(self) -> int:
        """Jobs waiting for a worker."""
        return len(self.queue)

    async def _slot(self, key: str, urgent: bool, background: bool = False) -> None:
        if self.busy < self.slots and not self.queue:
            self.busy += 1
            return
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.push(key, 0 if urgent else 2 if background else 1, ready)
        if not background:
            self.people_waiting.add(ready)
            self.pool.ask_to_yield(len(self.people_waiting))
        try:
            await ready
        except asyncio.CancelledError:
            if ready.done() and not ready.cancelled():
                self._release()  # the slot was handed over as the asker went: pass it on
            else:
                self.queue.discard(ready)
            raise
        finally:
            if not background:
                self.people_waiting.discard(ready)
                self.pool.ask_to_yield(len(self.people_waiting))

    def _release(self) -> None:
        while self.queue:
            ready = self.queue.pop()
            if not ready.done():
                ready.set_result(None)  # the slot goes to the next in the queue as it is
                return
        self.busy -= 1

    async def choose(self, job: BotJob, key: str = "", urgent: bool = False) -> str:
        """The bot's action for ``job``, computed off the event loop when a worker is free for
        ``key`` (``urgent``: a time-out's move, before every other job; a ``background`` job,
        that nobody waits for, after every other, and it yields its worker early to them)."""
        await self._slot(key, urgent, job.background)
        began = time.monotonic()
        try:
            answer = await self.pool.run(choose, job)
            self.jobs_run += 1
            return answer
        finally:
            self.queue.charge(key, time.monotonic() - began)
            self._release()

    async def hint(self, job: BotJob, position: tuple[str, int, int], key: str) -> str:
        """The hint's move at ``position`` (table, state, seat): worked out once, however many ask
        (each further ask waits for the one job, and a later ask gets the same answer)."""
        now = time.monotonic()
        for old in [p for p, (_, when) in self.hint_answers.items() if now - when > HINT_KEPT]:
            del self.hint_answers[old]
        kept = self.hint_answers.get(position)
        if kept is not None:
            return kept[0]
        running = self.hints.get(position)
        if running is None:
            running = self.hints[position] = asyncio.ensure_future(self.choose(job, key))
            running.add_done_callback(lambda f: self._hint_done(position, f))
        return await asyncio.shield(running)

    def _hint_done(self, position: tuple[str, int, int], f: asyncio.Future[str]) -> None:
        self.hints.pop(position, None)
        if not f.cancelled() and f.exception() is None:
            self.hint_answers[position] = (f.result(), time.monotonic())
            while len(self.hint_answers) > 10_000:
                self.hint_answers.popitem(last=False)

    async def probe(self) -> bool:
        """Whether the workers are whole (a dead one is found and replaced)."""
        if self.busy:
            return self.pool.whole  # jobs are running: they find a dead worker themselves
        return await self.pool.probe()

    def close(self, timeout: float = 3.0) -> None:
        """Stop the workers and wait for them (:meth:`SupervisedPool.close`)."""
        self.pool.close(timeout)
