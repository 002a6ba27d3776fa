"""How a web server runs: the settings ``conquian serve`` gathers from its options (its pace,
its limits, its names and origins), apart from the server that uses them."""

from __future__ import annotations

from dataclasses import dataclass

from conquian.web import security
from conquian.web.limits import CHAT_BURST, CHAT_CHARS, CHAT_PER_SECOND, LEARN_PER_MINUTE
from conquian.web.table import TURN_TIMERS


@dataclass
class Settings:
    """How the server runs: ``bot_delay`` paces the bots (seconds between their moves, so people
    can follow), ``next_delay`` the next deal at a table of bots only; ``allowed_origins`` adds
    origins a WebSocket may come from besides the server's own; ``allowed_hosts`` are the names
    the server answers to (``Host``; :func:`~conquian.web.security.allowed_hosts`);
    ``health_token``, if set, shows ``/health``'s detail to a request that presents it."""

    db_url: str | None = None
    bot_workers: int | None = None
    bot_delay: float = 0.9
    next_delay: float = 3.0
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = security.LOOPBACK
    health_token: str | None = None
    max_spectators: int = 50
    """Spectators a table takes (in each server process)."""
    connections_per_address: int = 20
    """WebSockets one client address may hold open (in each server process)."""
    messages_per_address: float = 20.0
    """Messages a second one client address may send across all its connections."""
    tables_per_minute: float = 3.0
    """New tables one client address may make a minute (bursts of five)."""
    accounts_per_hour: int = 10
    """New accounts one client address may make an hour (in each server process)."""
    account_requests_per_minute: int = 20
    """Account requests (names, sessions, signing out) a minute from one address, and half as many
    from one account (in each server process)."""
    unjoined_after: float = 600.0
    """Seconds after which the lobby stops listing a waiting table that no person has sat at."""
    chat_chars: int = CHAT_CHARS
    """Characters a chat line may hold (after trimming)."""
    chat_per_second: float = CHAT_PER_SECOND
    """Chat lines and reactions a connection may send a second on average..."""
    chat_burst: int = CHAT_BURST
    """...and in a burst."""
    turn_timers: tuple[int, ...] = TURN_TIMERS
    """The turn timers a table may have (seconds)."""
    rated_clock: int = 60
    """The move clock of every rated and quick-match table: seconds a person has for each move
    before the expert makes it for him (the turn timer such a table always has; its host may make
    it shorter, never longer nor none).  A seat's first move has the same time: its first-move
    deadline (:mod:`conquian.web.table`)."""
    lobby_per_address: int = 5
    """Waiting tables the lobby lists from one client address (that made them in this process)."""
    max_sockets: int = 1800
    """WebSockets this process holds open at once (``--max-connections`` less the room kept for
    HTTP requests); when full, a player's connection closes the longest idle spectator's."""
    replays_per_minute: float = 30.0
    """Records, replays and reviews made for one client address a minute (bursts of six)."""
    learn_per_minute: float = LEARN_PER_MINUTE
    """Learn requests (lessons, puzzles) one client address may make a minute (bursts of
    :func:`~conquian.web.limits.learn_burst`)."""
    quick_bot_after: float = 30.0
    """Seconds a quick match's player waits before bots may fill the empty seats (conquian.web.platform.quickmatch)."""
    quick_gone_after: float = 90.0
    """Seconds a waiting quick-match player may go without his page asking how things stand (it asks
    every second; a hidden tab is slowed to once a minute) before he is taken out of the queue: a
    closed page is never paired (conquian.web.platform.quickmatch)."""
    quick_deals: int | None = None
    """The deals of a quick match (None: the game's own)."""
    bot_answer_step: float = 0.25
    """A bot's answer at a table with people comes at a multiple of this many seconds from its
    turn (and never before the pace): how long it thought does not show (0: at once)."""


__all__ = ["Settings"]
