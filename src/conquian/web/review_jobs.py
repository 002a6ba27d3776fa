"""Reviews of a finished match's deals for the replay page (docs/review.md, "In the browser").

``POST /api/tables/{id}/review`` asks for the review of one seat in one deal of a finished
match; ``GET`` with the same ``seat``, ``deal`` (and ``playouts``) follows it.  The review
(:func:`conquian.review.review_text`) runs in a thread of the server process that hands the
decisions to a pool of *spawned* processes (never forked: the server has threads and an event
loop), so the tables are never held up; its progress (``done`` of ``total`` decisions) is read
by the next ``GET``.

Limits, per server process, from the environment (so that every process of ``conquian serve
--workers N`` reads the same):

- ``CONQUIAN_REVIEW_JOBS``: reviews running at once (default 1: a review keeps the cores busy;
  0 turns the review off).  Another is refused with ``503 review_busy`` until one ends.
- ``CONQUIAN_REVIEW_WORKERS``: processes one review uses (default: the cores, at most 4).
- ``CONQUIAN_REVIEW_PLAYOUTS``: playouts per candidate, and the most a request may ask for
  (default: the review's own, 200 and in Cooncan 64); a request for fewer gets the nearest level
  below it of the most, its half, its quarter... (a few reviews per deal, each made once).

A free slot goes to the address that has been refused longest (it keeps asking, as the page
does every :data:`RETRY_AFTER` seconds), and an address has one review running at a time: one
client cannot keep the slot by asking again the moment a review ends.  A review whose worker
process dies is started again in new processes (``/health`` is degraded meanwhile).

The reviews made are kept in memory (the last :data:`CACHE_SIZE`), keyed by
:func:`conquian.review.cache_key` (the record's text, the seat, the deal and the playouts): a
second look is answered from there at once, without a job (``"cached": true``).

```pycon
>>> reviews = Reviews(jobs=1, workers=1, playouts=2)
>>> reviews.playouts_for("conquian", None), reviews.playouts_for("cooncan", 50)
(2, 2)
>>> [Reviews(playouts=None).playouts_for("cooncan", n) for n in (10, 16, 63, 99)]
[8, 16, 32, 64]
>>> limit_from("7", 1, 0, 64), limit_from("lots", 1, 0, 64), limit_from("99", 1, 0, 64)
(7, 1, 1)

```
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any

import msgspec

from conquian.engine.errors import ConquianError
from conquian.engine.record import read_record
from conquian.engine.rules import COONCAN, PRESETS
from conquian.i18n import Msg, Translator
from conquian.review import (
    DEFAULT_COONCAN_PLAYOUTS,
    DEFAULT_PLAYOUTS,
    MARKS,
    Review,
    ReviewError,
    cache_key,
    check_target,
    mark_word,
    report,
    review_text,
    seat_decisions,
)
from conquian.web.protocol import ProtocolError

log = logging.getLogger("conquian.web")

#: Reviews kept in memory by a server process (the oldest looked at is forgotten first).
CACHE_SIZE = 256
#: The environment variables of the limits (module docstring).
JOBS_ENV = "CONQUIAN_REVIEW_JOBS"
WORKERS_ENV = "CONQUIAN_REVIEW_WORKERS"
PLAYOUTS_ENV = "CONQUIAN_REVIEW_PLAYOUTS"
#: The most playouts per candidate anyone may set for the server.
MAX_PLAYOUTS = 10_000
#: Seconds a finished job waits to be told (its review stays in the cache after that).
FORGET_AFTER = 600.0
#: Seconds a page is told to wait before asking again when the server is busy.
RETRY_AFTER = 2
#: Seconds after which an address refused a review and not asking again is no longer waiting.
WAIT_FORGET = 3 * RETRY_AFTER + 2.0
#: Times a review is started again after one of its worker processes died.
RETRIES = 2


class ReviewAsk(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/tables/{id}/review``: review ``seat`` (1, 2, ...) in deal ``deal`` (1, 2, ...)
    with ``playouts`` per candidate (at most the server's; none: the server's)."""

    seat: Annotated[int, msgspec.Meta(ge=1, le=99)]
    deal: Annotated[int, msgspec.Meta(ge=1, le=10_000)] = 1
    playouts: Annotated[int, msgspec.Meta(ge=1, le=MAX_PLAYOUTS)] | None = None


@dataclass
class Job:
    """A review under way in this process, or finished and not yet told to anyone."""

    seat: int
    deal: int
    playouts: int
    done: int = 0
    total: int = 0
    review: dict[str, Any] | None = None
    error: Msg | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    """When it ended (``time.monotonic()``; None: running)."""
    address: str = ""
    """The client address that asked for it."""


class ReviewBusy(ConquianError):
    """Every review this process may run at once is running (``503 review_busy``)."""

    code = "review_busy"


def ask_of_query(query: Mapping[str, str]) -> ReviewAsk:
    """The :class:`ReviewAsk` of a ``GET``'s query (``?seat=2&deal=1``; ``lang`` is the language's),
    or :class:`~conquian.web.protocol.ProtocolError` ``bad_message``."""
    try:
        return msgspec.convert({k: v for k, v in query.items() if k != "lang"}, ReviewAsk, strict=False)
    except msgspec.ValidationError as e:
        raise ProtocolError("bad_message", str(e)[:200]) from None


def limit_from(text: str | None, default: int, low: int, high: int) -> int:
    """A limit from the environment: ``text`` as a whole number from ``low`` to ``high``, else ``default``."""
    try:
        value = int(text or "")
    except ValueError:
        return default
    return value if low <= value <= high else default


class Reviews:
    """The reviews of one server process: those running (at most ``jobs``), each in ``workers``
    processes, and those made (the last ``cache_size``).  ``playouts``: per candidate, and the
    most a request may ask for (None: the review's defaults)."""

    def __init__(self, jobs: int = 1, workers: int | None = None, playouts: int | None = None,
                 cache_size: int = CACHE_SIZE) -> None:
        self.jobs = jobs
        self.workers = workers or min(os.cpu_count() or 1, 4)
        self.playouts = playouts
        self.cache_size = cache_size
        self.cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.running: dict[str, Job] = {}
        self.waiting: dict[str, tuple[float, float]] = {}
        """Addresses refused for want of a slot: when first refused, when last (they ask again)."""
        self.whole = True
        """False while a review is tried again after one of its worker processes died."""
        self._lock = threading.Lock()

    @classmethod
    def from_environment(cls) -> Reviews:
        """The limits of ``CONQUIAN_REVIEW_JOBS``, ``_WORKERS`` and ``_PLAYOUTS`` (module docstring)."""
        env = os.environ
        playouts = limit_from(env.get(PLAYOUTS_ENV), 0, 1, MAX_PLAYOUTS)
        return cls(jobs=limit_from(env.get(JOBS_ENV), 1, 0, 64), workers=limit_from(env.get(WORKERS_ENV), 0, 1, 64),
                   playouts=playouts or None)

    def playouts_for(self, variant: str, asked: int | None) -> int:
        """The playouts per candidate of a review of ``variant`` that asked for ``asked``: the
        server's (or the review's default), or fewer if asked."""
        rules = PRESETS.get(variant)
        default = DEFAULT_COONCAN_PLAYOUTS if rules is not None and rules.family == COONCAN else DEFAULT_PLAYOUTS
        most = self.playouts or default
        if not asked or asked >= most:
            return most
        # a few levels only (the most, its half, its quarter...): asking for every number in turn
        # would make a new review each time instead of finding the one made
        levels = [most >> k for k in range(most.bit_length()) if most >> k >= 1]
        return next(level for level in levels if level <= asked)

    # ------------------------------------------------------------------ asking and answering
    def ask(self, text: str, seat: int, deal: int, asked: int | None, tr: Translator, start: bool,
            address: str = "") -> tuple[int, dict[str, Any]]:
        """The answer (status and JSON) to a page asking for the review of ``seat`` in deal
        ``deal`` of the record ``text``: the review (from the cache, or from a job just
        finished), its progress, nothing yet (``start`` false: a ``GET``) or a new job
        (``start``: a ``POST``).  Raises :class:`ReviewError` for a seat or deal the match does
        not have and :class:`ReviewBusy` when no job may start."""
        rec = read_record(text)
        check_target(rec, deal, seat)
        playouts = self.playouts_for(rec.variant, asked)
        key = cache_key(text, seat, deal, playouts)
        what = {"seat": seat, "deal": deal, "playouts": playouts}
        with self._lock:
            now = time.monotonic()
            for old in [k for k, j in self.running.items()
                        if j.finished is not None and now - j.finished > FORGET_AFTER]:
                del self.running[old]  # an end nobody came back for (a review stays in the cache)
            job = self.running.get(key)
            if job is not None and job.finished is not None:
                del self.running[key]  # told once; from now on it is a cached review
                if job.error is not None:
                    return 500, {"error": {"code": "review_failed", "rule": None,
                                           "message": tr.render(job.error)[:300]}}
                assert job.review is not None
                return 200, self._done(job.review, tr, cached=False)
            if job is not None:
                return 202, {"status": "running", **what, "done": job.done, "total": job.total}
            made = self.cache.get(key)
            if made is not None:
                self.cache.move_to_end(key)
                return 200, self._done(made, tr, cached=True)
            if not start:
                return 200, {"status": "none", **what}
            if not self.jobs:
                raise ReviewBusy(Msg("this server does not review deals"))
            for old in [a for a, (_, last) in self.waiting.items() if now - last > WAIT_FORGET]:
                del self.waiting[old]  # gave up
            first = self.waiting[address][0] if address in self.waiting else now
            ahead = any(a != address and since < first for a, (since, _) in self.waiting.items())
            mine = any(j.finished is None and j.address == address for j in self.running.values())
            if ahead or mine or sum(j.finished is None for j in self.running.values()) >= self.jobs:
                self.waiting[address] = (first, now)
                raise ReviewBusy(Msg("the server is reviewing another deal; try again in a moment"))
            self.waiting.pop(address, None)
            job = self.running[key] = Job(seat, deal, playouts, address=address)
            job.total = len(seat_decisions(rec, deal, seat)[0])
        threading.Thread(target=self._run, args=(key, job, text), name=f"review-{key[:8]}", daemon=True).start()
        log.info("review", extra={"event": "review", "seat": seat, "deal": deal, "playouts": playouts})
        return 202, {"status": "running", **what, "done": 0, "total": job.total}

    def _done(self, review: dict[str, Any], tr: Translator, cached: bool) -> dict[str, Any]:
        rv = Review.from_json(review)
        return {"status": "done", "cached": cached, "seat": rv.seat, "deal": rv.deal, "playouts": rv.playouts,
                "review": review,
                "words": {"marks": {m: mark_word(m, tr) for m in MARKS}, "report": report(rv, tr)}}

    def _run(self, key: str, job: Job, text: str) -> None:
        """The job, in its thread: the decisions in a pool of spawned processes."""

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            workers = max(1, min(self.workers, job.total))
            for attempt in range(RETRIES + 1):
                try:
                    # spawn, not fork: the server has threads and an event loop that a fork would copy
                    with ProcessPoolExecutor(max_workers=workers,
                                             mp_context=multiprocessing.get_context("spawn")) as pool:
                        rv = review_text(text, job.seat, job.deal, job.playouts, progress=progress, executor=pool)
                    break
                except BrokenExecutor:
                    # a worker died (the OOM killer, kill -9): the review again, in new processes
                    self.whole = False
                    log.warning("a review worker died; the review starts again",
                                extra={"event": "workers_replaced", "pool": "review workers"})
                    if attempt == RETRIES:
                        raise
            self.whole = True
            made = rv.to_json()
        except ReviewError as e:
            job.error = e.message
        except Exception as e:  # a worker that died, a machine out of memory: said in words, logged here
            log.exception("a review failed", extra={"event": "review_failed"})
            job.error = Msg("the review failed: {reason}", reason=(str(e).splitlines() or [type(e).__name__])[0][:150])
        else:
            with self._lock:
                self.cache[key] = made
                while len(self.cache) > self.cache_size:
                    self.cache.popitem(last=False)
            job.review = made
            log.info("reviewed", extra={"event": "reviewed", "seat": job.seat, "deal": job.deal,
                                        "seconds": round(time.monotonic() - job.started, 2)})
        job.done = job.total if job.error is None else job.done
        job.finished = time.monotonic()


__all__ = ["CACHE_SIZE", "Job", "ReviewAsk", "ReviewBusy", "Reviews", "ask_of_query", "limit_from"]
