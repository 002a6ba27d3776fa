"""Quick match ("Play now"): a signed-in player with a name chooses a game and a number of
players and waits; the server pairs the players waiting for the same game and size whose ratings
are close, makes them a table with their seats taken, and tells each the seat to go to.  A quick
match is rated unless the player asks for a casual one (``"rated": false``: paired only with
others who asked for one, and neither rated nor listed when over).

- The queue is kept in the database (``quick_queue``), so any server process pairs players who
  joined on any other.  Every process tries to pair each :data:`PAIR_EVERY` seconds (and when a
  waiting player asks how things stand); a pairing claims its players' rows in one transaction
  (``SELECT ... FOR UPDATE SKIP LOCKED`` on PostgreSQL, and each row claimed only if still
  unclaimed), in which the table, its rated mark and the seats' accounts are written too: a
  player is never paired twice, and a table is made with its players or not at all.
- The rating window: a player who has waited ``w`` seconds accepts anyone whose rating (the
  game's, as the leaderboard shows it) is within ``window(w) = 100 + 50 * floor(w / 5)`` of his
  own: 100 at first, widening by 50 every 5 seconds.  A group is made when the spread of its
  ratings is within the window of every one of its members (each accepts all the others); the
  player who has waited longest is paired first, with the closest ratings.
- After :attr:`~conquian.web.settings.Settings.quick_bot_after` seconds, and once his window
  reaches the fitted level nearest his rating (:func:`bot_distance`; the window widens without
  end, so it always does), a player may have the empty seats filled with bots (or have asked for
  it when joining): a group is then made with him and the waiting players within the window who
  also accept bots, and a bot of their level in every other seat: the level whose fitted rating
  (:func:`conquian.bots.levels.level_for`) is the closest to the group's mean rating.  A new
  player (1,500, :mod:`~conquian.web.platform.ratings`) is at ``foster``'s rating in every game.
- Two players of whom one blocked the other (:func:`conquian.web.platform.friends.storage.blocked_between`) are
  never put in one group.
- People, not an address with itself: two accounts that joined from one address
  (:func:`address_key`: an IPv4 address, or an IPv6 address's /64 network, which one device
  holds) are never put in one group of a rated match; each waits on for others, or for bots.
  The server knows no device apart from its address: a browser holds one account's session at a
  time, and a passkey names its account only.  The address is kept in the queue as a hash (no
  address as it is), and only while the player's row is there (none when the server cannot
  tell it).  What a waiting player is told of the others (``waiting``) counts only those he
  could be paired with.
- A rated quick match's table is rated (:mod:`~conquian.web.platform.ratings`) and public once over (a
  rated match's replay is open to all); a casual one's is its players' only.  At either a bot
  plays for a person away past :data:`~conquian.web.platform.ratings.service.RATED_AWAY`, and each move has the
  move clock (:data:`QUICK_CLOCK`, the server's ``rated_clock``): when it runs out the expert
  moves for the seat, a seat whose player never opens the table too (the fair-play rules,
  :mod:`conquian.web.table`).
  Its name is its players' names (the same in every language).

- A waiting player's page asks how things stand every second; a player whose page has not asked
  for :attr:`~conquian.web.settings.Settings.quick_gone_after` seconds (a closed tab, a phone put
  away) is taken out of the queue and never paired, so nobody is seated, and rated, in his absence.
  Signing out, or signing in to another account, takes the account that was left out of the queue.

What a waiting player is told holds no card and nothing of any table but his own seat's link and
token (the token is kept in the queue until he leaves it, or for :data:`KEPT_AFTER` seconds).

```pycon
>>> [window(w) for w in (0, 4.9, 5, 12, 60)]
[100, 100, 150, 200, 700]
>>> [reach_after(d) for d in (0, 100, 101, 150, 151)]
[0.0, 0.0, 5.0, 5.0, 10.0]

```
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import random
import secrets
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from conquian.bots.levels import ANCHOR_MU, fixed_rating, level_for
from conquian.engine.errors import ConquianError
from conquian.engine.rules import PRESETS, get_rules
from conquian.i18n import Msg
from conquian.web.platform.ratings.service import RATED_AWAY, rating
from conquian.web.table import OPEN, Table, hash_token, new_token

log = logging.getLogger("conquian.web")

#: The first window (rating points either side), and how it widens: by :data:`WINDOW_STEP` every
#: :data:`WINDOW_EVERY` seconds of waiting.
WINDOW_START, WINDOW_STEP, WINDOW_EVERY = 100, 50, 5.0
#: Seconds between two pairing rounds of each server process.
PAIR_EVERY = 1.0
#: Seconds a paired player's seat is kept in the queue for him to read (then the row is let go of;
#: the seat stays his, tied to his account).
KEPT_AFTER = 600.0
#: Seconds a player may wait at most; then he leaves the queue (he was not asking any more).
WAIT_AT_MOST = 1800.0
#: The move clock of a quick match's table (seconds a move; :attr:`~conquian.web.settings.Settings.rated_clock`).
QUICK_CLOCK = 60
#: The bot that fills a seat where no level was fitted for the game (else the level of the players).
FILL_BOT = "expert"
#: A new player's rating as shown (:func:`~conquian.web.platform.ratings.service.rating`: 1,500, ``foster``'s).
NEW_RATING = rating(ANCHOR_MU)


def window(waited: float) -> int:
    """The rating window of a player who has waited ``waited`` seconds (points either side)."""
    return WINDOW_START + WINDOW_STEP * int(max(0.0, waited) // WINDOW_EVERY)


def reach_after(distance: float) -> float:
    """The seconds of waiting after which the window reaches ``distance`` points."""
    if distance <= WINDOW_START:
        return 0.0
    return WINDOW_EVERY * math.ceil((distance - WINDOW_START) / WINDOW_STEP)


def bot_distance(game: str, rating: float) -> int:
    """Points from ``rating`` to the fitted level of ``game`` nearest it (0 where no level is fitted
    there: :data:`FILL_BOT` fills the seats, and the match is not rated).

    >>> bot_distance("conquian", NEW_RATING)  # foster is 1,500 in every game
    0
    """
    bot = level_for(game, rating)
    fit = fixed_rating(game, bot) if bot is not None else None
    return 0 if fit is None else int(abs(int(fit["rating"]) - rating) + 0.5)


def address_key(address: str) -> str:
    """What stands for a client address in the queue: the SHA-256 of the address, or of its /64
    network for IPv6 (one device, or one home, holds a /64), so that the queue holds no address
    as it is.

    >>> address_key("2001:db8::1") == address_key("2001:db8::ffff:2") != address_key("2001:db8:0:1::1")
    True
    >>> address_key("192.0.2.1") != address_key("192.0.2.2")
    True
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        text = address  # not an address (a test client's name): itself
    else:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        text = str(ipaddress.ip_network(f"{ip}/64", strict=False)) if ip.version == 6 else str(ip)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Waiting:
    """A player in the queue, as the pairing sees him."""

    account: str
    rating: int
    joined_at: float
    bots: bool = False
    #: how far (points) the nearest fitted level is: bots fill his seats once his window reaches it
    bot_distance: int = 0


def accepts(group: list[Waiting], now: float) -> bool:
    """Whether every member of ``group`` accepts every other: the spread of their ratings is
    within the window of each.

    >>> accepts([Waiting("a", 1000, 0.0), Waiting("b", 1100, 0.0)], 0.0)
    True
    >>> accepts([Waiting("a", 1000, 0.0), Waiting("b", 1101, 0.0)], 0.0)
    False
    >>> accepts([Waiting("a", 1000, 0.0), Waiting("b", 1140, 0.0)], 5.0)
    True
    """
    spread = max(w.rating for w in group) - min(w.rating for w in group)
    return all(spread <= window(now - w.joined_at) for w in group)


def _closest(pool: list[Waiting], at: int, reach: int) -> Iterator[Waiting]:
    """The players of ``pool`` (in the ratings' order) around ``pool[at]``, the closest in rating
    first, as far as ``reach`` points from it (not ``pool[at]`` itself)."""
    center = pool[at].rating
    lo, hi = at - 1, at + 1
    while True:
        down = center - pool[lo].rating if lo >= 0 else None
        up = pool[hi].rating - center if hi < len(pool) else None
        if down is not None and down <= reach and (up is None or down <= up):
            yield pool[lo]
            lo -= 1
        elif up is not None and up <= reach:
            yield pool[hi]
            hi += 1
        else:
            return


#: Whether two accounts may not sit at one table (one blocked the other).
Blocked = Callable[[str, str], bool]


def _grow(anchor: Waiting, candidates: Iterator[Waiting], size: int, now: float,
          blocked: Blocked | None = None) -> list[Waiting]:
    """The anchor and up to ``size - 1`` of ``candidates`` (the closest first), each taken only if
    the group still accepts itself and nobody in it blocked him or was blocked by him."""
    group = [anchor]
    for w in candidates:
        if len(group) == size:
            break
        if accepts([*group, w], now) and not (blocked and any(blocked(g.account, w.account) for g in group)):
            group.append(w)
    return group


def groups(waiting: list[Waiting], size: int, now: float, bot_after: float | None = None,
           blocked: Blocked | None = None) -> list[tuple[list[Waiting], int]]:
    """The groups to seat from ``waiting`` (players of one game and size), each with the number of
    bots to fill it: whoever has waited longest first, with the closest ratings that accept each
    other; a group short of players is filled with bots when its first player has waited
    ``bot_after`` seconds and accepts bots (as do the others in it).  Only the players within the
    first one's window are looked at, outwards from his rating.  No group holds two players of
    whom ``blocked`` says one blocked the other.

    >>> a, b, c = Waiting("a", 1000, 0.0), Waiting("b", 1300, 0.0), Waiting("c", 1080, 1.0)
    >>> [([w.account for w in g], bots) for g, bots in groups([a, b, c], 2, 2.0)]
    [(['a', 'c'], 0)]
    >>> groups([a, b], 2, 2.0)
    []
    >>> [([w.account for w in g], bots) for g, bots in groups([a, b], 2, 20.0)]
    [(['a', 'b'], 0)]
    >>> groups([a, c], 2, 2.0, blocked=lambda x, y: {x, y} == {"a", "c"})
    []
    """
    def key(w: Waiting) -> tuple[int, str]:
        return w.rating, w.account

    pool = sorted(waiting, key=key)  # the players not yet in a group, in the ratings' order
    keys = [key(w) for w in pool]
    out: list[tuple[list[Waiting], int]] = []
    for anchor in sorted(waiting, key=lambda w: (w.joined_at, w.account)):
        at = bisect_left(keys, key(anchor))
        if at == len(keys) or keys[at] != key(anchor):
            continue  # in a group already
        reach = window(now - anchor.joined_at)  # no group holds a rating farther than the anchor's window
        group = _grow(anchor, _closest(pool, at, reach), size, now, blocked)
        if (len(group) < size and anchor.bots and bot_after is not None and now - anchor.joined_at >= bot_after
                and reach >= anchor.bot_distance):
            group = _grow(anchor, (w for w in _closest(pool, at, reach) if w.bots), size, now, blocked)
        elif len(group) < size:
            continue  # he waits on (and may still be taken into a later one's group)
        out.append((group, size - len(group)))
        for w in group:
            i = bisect_left(keys, key(w))
            del pool[i], keys[i]
    return out


class QuickError(ConquianError):
    """A refused quick-match request (its ``code``, status and a sentence)."""

    def __init__(self, code: str, message: Msg, status: int = 400) -> None:
        super().__init__(message)
        self.code, self.status = code, status


def check_request(body: object) -> tuple[str, int, bool, bool]:
    """The game, number of players, bot choice and rated choice of a ``POST /api/quick`` body, or
    :class:`QuickError` ``bad_request``/``bad_variant``/``bad_players``.

    >>> check_request({"game": "conquian", "players": 2})
    ('conquian', 2, False, True)
    """
    if not isinstance(body, dict) or not set(body) <= {"game", "players", "bots", "rated"}:
        raise QuickError("bad_request", Msg("the body is an object with game, players, bots and rated"))
    game, players, bots = body.get("game", "conquian"), body.get("players"), body.get("bots", False)
    rated = body.get("rated", True)
    if not isinstance(game, str) or game not in PRESETS:
        raise QuickError("bad_variant", Msg("there is no game {variant} (games: {games})",
                                            variant=repr(str(game)[:30]), games=", ".join(PRESETS)))
    if players is None:
        players = PRESETS[game].players
    if type(players) is not int or type(bots) is not bool or type(rated) is not bool:
        raise QuickError("bad_request", Msg("players is a whole number, bots and rated true or false"))
    try:
        get_rules(game, players=players)
    except ConquianError as e:
        raise QuickError("bad_players", e.message) from None
    return game, players, bots, rated


class Raced(Exception):
    """A row this round meant to claim was claimed by another process first."""


def new_table(game: str, size: int, people: list[tuple[str, str]], bots: int, deals: int | None = None,
              rated: bool = True, bot: str = FILL_BOT, clock: int = QUICK_CLOCK,
              ) -> tuple[Table, dict[str, tuple[int, str]]]:
    """A table of ``game`` for ``size`` with ``people`` (account, name) seated in a random order
    and ``bots`` seats given to ``bot``; and each account's (seat, token).  A rated
    one is public (its match listed and open to all once over), a casual one its players' only.
    Either has the move clock ``clock`` (seconds a move, then the expert moves for the seat)."""
    rules = get_rules(game, players=size)
    order = list(range(1, size + 1))
    random.SystemRandom().shuffle(order)
    table = Table(id=secrets.token_urlsafe(6), name=" · ".join(n for _a, n in people)[:60], rules=rules,
                  host_hash=hash_token(new_token()), away_after=RATED_AWAY, deals_in_match=deals, public=rated,
                  turn_timer=clock, rated=rated)
    tokens: dict[str, tuple[int, str]] = {}
    for (account_id, name), seat in zip(people, order, strict=False):
        tokens[account_id] = (seat, table.sit(seat, name))
    for place in table.seats:
        if place.kind == OPEN:
            table.set_bot(place.number, bot, host=True)
    assert len(tokens) + bots == size
    return table, tokens


def status(entry: dict[str, Any] | None, now: float, bot_after: float, waiting: int = 0) -> dict[str, Any]:
    """What a player is told of his place in the queue (no card, nothing of another's table):
    not queued; waiting (how long, the window, when bots may fill the seats: after ``bot_after``
    seconds and once the window reaches the nearest fitted level, :func:`bot_distance`; how many
    wait whom he could be paired with, himself included); or paired (the seat's link and token).
    His rating is marked ``provisional`` while it is.

    >>> status(None, 0.0, 30.0)
    {'queued': False}
    """
    if entry is None:
        return {"queued": False}
    out: dict[str, Any] = {"queued": True, "game": entry["game"], "players": entry["players"],
                           "rated": bool(entry["rated"]), "rating": entry["rating"],
                           "provisional": bool(entry.get("provisional", False))}
    if entry["table_id"] is not None:
        return out | {"matched": True, "table": entry["table_id"], "seat": entry["seat"], "token": entry["token"],
                      "url": f"/t/{entry['table_id']}"}
    waited = max(0.0, now - entry["joined_at"])
    bots_at = max(bot_after, reach_after(bot_distance(entry["game"], entry["rating"])))
    return out | {"matched": False, "waited": int(waited), "window": window(waited), "bots": bool(entry["bots"]),
                  "bots_in": max(0, int(bots_at - waited + 0.999)), "waiting": waiting}
