"""The bots' turns at the tables of a server process: when the master says a bot is to move
(:func:`conquian.web.master.bot_turn`), the table's bot loop takes the table's lease (one process
plays a table's bots), has a bot worker think during the table's pace, and plays the move; a
table of bots deals its next hand by itself; a person out of time or away has the expert play
for him."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from typing import TYPE_CHECKING

from conquian.engine.errors import ConquianError
from conquian.session import HUMAN
from conquian.web.bots import bot_job
from conquian.web.hub import Hub, log_move
from conquian.web.master import BotTurn, bot_turn
from conquian.web.table import PLAYING, TableError

if TYPE_CHECKING:
    from conquian.web.server import Server

log = logging.getLogger("conquian.web")
#: Seconds between two tries of a process to take the bots of a table another process holds.
LEASE_RETRY = 2.0
#: Failures of the bot workers in a row after which a table's bot loop stops until the next heartbeat.
BOT_FAILURES = 3


class BotTurns:
    """The bot loops of one server process's tables."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def schedule(self, hub: Hub) -> None:
        """Start the table's bot loop if a bot is to play (or a table of bots needs its next deal)."""
        if (hub.bot_task is None or hub.bot_task.done()) and self.work(hub) is not None:
            hub.bot_task = self.server.spawn(self.run(hub))

    def turn(self, hub: Hub) -> BotTurn | None:
        """The bots' next work at the table: the master's effect (:func:`conquian.web.master.bot_turn`)."""
        return bot_turn(hub.table, self.server.settings.bot_delay)

    def work(self, hub: Hub) -> str | None:
        """The kind of the bots' next work at the table (``move``, ``next``, ``wait``), or None."""
        turn = self.turn(hub)
        return turn.work if turn is not None else None

    async def _pause(self, hub: Hub, seconds: float) -> None:
        """Wait ``seconds`` before the bots' next move, or less if someone asks them to hurry."""
        if seconds > 0 and not hub.hurry.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(hub.hurry.wait(), seconds)
        hub.hurry.clear()

    def bot_key(self, hub: Hub) -> str:
        """Whose share of the bot workers a table's bots use: its maker's address if this process
        made it, else the table's own (so many tables from one address share one address's share)."""
        return f"address {hub.maker}" if hub.maker else f"table {hub.table.id}"

    async def _answer_at(self, began: float, thought: float, watched: bool) -> None:
        """Wait so that a bot's answer, begun at ``began`` and thought over for ``thought`` seconds,
        comes at a multiple of :attr:`Settings.bot_answer_step` (at a table where a person plays
        or watches): its time tells nothing of how long it thought."""
        step = self.server.settings.bot_answer_step
        if step <= 0 or not watched:
            return
        elapsed = time.monotonic() - began
        target = max(step, math.ceil(elapsed / step - 1e-9) * step)
        if target > elapsed:
            await asyncio.sleep(target - elapsed)

    async def run(self, hub: Hub) -> None:
        """Play the table's bots while there is bot work, holding its lease (one process at a time,
        for the whole match unless it dies)."""
        assert self.server.bots is not None
        table_id = hub.table.id
        failures = 0
        while True:
            turn = self.turn(hub)
            work = turn.work if turn is not None else None
            if turn is None:
                # the lease is kept while the match lasts: the bots stay with one process, which
                # the others take them from only if it dies
                if hub.table.status != PLAYING:
                    await self.server.cluster.release(table_id)
                return
            if not await self.server.cluster.lease(table_id):
                await asyncio.sleep(LEASE_RETRY)  # another process plays them, or died: try again
                continue
            t = hub.table
            if work == "wait":
                since = t.away_from(t.session.deal.to_act or 1) if t.session else None
                due = [since + (t.away_after or 0)] if since is not None and t.away_after is not None else []
                ends = t.turn_ends()
                due += [ends] if ends is not None else []
                await asyncio.sleep(min(LEASE_RETRY, max(0.05, min(due, default=time.time() + LEASE_RETRY)
                                                         - time.time())))
                continue
            delay = turn.delay  # the table's pace, else the server's
            if work == "next":
                await self._pause(hub, self.server.settings.next_delay)
                state = hub.table.state
                async with hub.lock:
                    if hub.table.state == state and self.work(hub) == "next":
                        hub.table.next_deal(state)
                        with contextlib.suppress(TableError):
                            await self.server.persist(hub)
                await self.server.broadcast(hub)
                continue
            state = hub.table.state
            who = hub.table.bot_to_act()
            if who is None:
                continue
            for_person = hub.table.seats[who[0] - 1].kind == HUMAN
            timed = for_person and hub.table.out_of_time()
            # the bot thinks during the pause, and answers when both are over: at the pace, however
            # long it thought (one legal move or many), rounded up to a step when it thought longer
            began = time.monotonic()
            thinking = asyncio.ensure_future(self.server.bots.choose(bot_job(hub.table, *who), self.bot_key(hub),
                                                              urgent=hub.table.seats[who[0] - 1].kind == HUMAN))
            try:
                await self._pause(hub, delay)
                text = await thinking
            except asyncio.CancelledError:
                thinking.cancel()
                raise
            except Exception:
                failures += 1
                log.exception("the bot failed", extra={"event": "bot_failed", "table": table_id, "by": who[1]})
                if failures >= BOT_FAILURES:
                    await self.server.cluster.release(table_id)  # the heartbeat tries it again later
                    return
                await asyncio.sleep(LEASE_RETRY)
                continue
            failures = 0
            await self._answer_at(began, time.monotonic() - began, bool(hub.people))
            async with hub.lock:
                if hub.table.state != state or hub.table.bot_to_act() != who:
                    continue  # someone moved meanwhile, or came back (or another process): think again
                try:
                    hub.table.act(who[0], text, state, timed=timed, away=for_person and not timed)
                    await self.server.persist(hub)
                except TableError as e:
                    if e.code in ("stale", "storage"):
                        continue
                    raise
                except ConquianError:
                    log.exception("the bot's move was refused",
                                  extra={"event": "bot_refused", "table": table_id, "command": text})
                    await self.server.cluster.release(table_id)
                    return
            log_move(hub.table, who[0], who[1])
            await self.server.broadcast(hub)
