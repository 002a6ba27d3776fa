"""Combinations on a Cooncan table (R2.2, R2.3, R4.4): sets and sequences with jokers.

In Cooncan a combination is never rearranged: every card keeps its place, and
the only thing that ever moves is a joker at the end of a sequence, once
(R2.3).  A :class:`Combo` is therefore an immutable record of *positions*: a
sequence knows its suit, the position of its lowest cell (2-13 for the ranks,
1 for an ace below the deuce, 14 for an ace above the king) and its cells, each
a natural card or the joker; a set knows its rank and its cards.

```pycon
>>> from conquian.engine.cards import parse_card
>>> run = build_combo([("X", None), ("5d", None), ("6d", None)], double=True, owner=2)
>>> str(run), run.low_position, run.high_position
('X 5d 6d', 4, 6)
>>> moved = run.shift(None).add(parse_card("8d")).add(parse_card("9d"))
>>> str(moved), moved.movable_jokers()
('5d 6d X 8d 9d', [])
>>> str(build_combo([("Qh", None), ("Kh", None), ("Ah", None)], double=False, owner=1))
'Qh Kh Ah'

```
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from conquian.engine.cards import JOKER, card_str, make_card, parse_card, the_card
from conquian.engine.errors import IllegalActionError, NotationError
from conquian.i18n import Msg

SET: Final = 0
RUN: Final = 1

Token = tuple[str, "str | None"]
"""A card as written in an action: its text, and for a joker the card it is named (``X=9h``)."""


def position_of(card: int, high_ace: bool) -> int:
    """The sequence position of a natural card: its rank, or 14 for an ace above the king."""
    r = card & 15
    return 14 if r == 1 and high_ace else r


def card_at(suit: int, pos: int) -> int:
    """The natural card at a sequence position (1 and 14 are both the ace)."""
    return make_card(1 if pos in (1, 14) else pos, suit)


class Combo:
    """One combination on a Cooncan table.  Immutable: changes return a new combo."""

    __slots__ = ("add_mask", "adds", "cells", "crossed", "joker_adds", "key", "kind", "limit", "lo", "owner", "shifts")

    kind: int
    key: int  # the rank of a set, the suit of a sequence
    lo: int  # sequences: the position of cells[0]
    cells: tuple[int, ...]  # natural cards or JOKER; a sequence's in position order
    crossed: int  # sequences: bit ``1 << position`` set for a joker already moved (R2.3)
    owner: int  # the seat that laid it
    limit: int  # the most cards a set may hold: 4 in a single pack, 0 for no limit (R2.2)

    def __init__(self, kind: int, key: int, lo: int, cells: tuple[int, ...], crossed: int, owner: int,
                 limit: int = 0) -> None:
        self.kind = kind
        self.limit = limit
        self.key = key
        self.lo = lo
        self.cells = cells
        self.crossed = crossed
        self.owner = owner
        # Precomputed for the action listing (a combo never changes once built):
        # ``adds``: (position, natural card, a natural may go there); ``shifts``: per movable
        # joker, (tag, its adds after the move).
        # ``add_mask``: the natural cards that fit (the double pack's set takes any of its rank;
        # the single pack's set at most four cards); ``joker_adds``: (position, named card).
        if kind == RUN:
            self.adds = _run_adds(key, lo, lo + len(cells) - 1)
            self.add_mask = sum(1 << c for _, c, ok in self.adds if ok)
            self.joker_adds = tuple((p, c) for p, c, _ in self.adds)
            movable = self.movable_jokers()
            self.shifts = tuple(
                (w if len(movable) > 1 else None,
                 _run_adds(key, lo + 1, lo + len(cells)) if w == "low" else _run_adds(key, lo - 1, lo + len(cells) - 2))
                for w in movable
            )
        else:
            self.adds = ()
            self.shifts = ()
            open_set = not limit or len(cells) < limit
            self.add_mask = sum(1 << (s * 16 + key) for s in range(4)) if open_set else 0
            self.joker_adds = ((0, 0),) if open_set else ()

    def __reduce__(self) -> tuple[Any, tuple[int, int, int, tuple[int, ...], int, int, int]]:
        # made again from its fields: compiled, the class's constructor runs ``__init__``, so the
        # default way (an empty object, then its slots) would call it without arguments
        return Combo, (self.kind, self.key, self.lo, self.cells, self.crossed, self.owner, self.limit)

    def _key(self) -> tuple[int, int, int, tuple[int, ...], int, int]:
        return (self.kind, self.key, self.lo, self.cells, self.crossed, self.owner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Combo) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<Combo {self} of p{self.owner}>"

    # --------------------------------------------------------------- reading
    @property
    def is_run(self) -> bool:
        """Whether this is a sequence."""
        return self.kind == RUN

    @property
    def low_position(self) -> int:
        """A sequence's lowest position (1 = ace low)."""
        return self.lo

    @property
    def high_position(self) -> int:
        """A sequence's highest position (14 = ace high)."""
        return self.lo + len(self.cells) - 1

    @property
    def naturals(self) -> list[int]:
        """The natural cards."""
        return [c for c in self.cells if c != JOKER]

    @property
    def jokers(self) -> int:
        """How many jokers the combination holds."""
        return self.cells.count(JOKER)

    def __len__(self) -> int:
        return len(self.cells)

    def __str__(self) -> str:
        """Canonical notation: a sequence low to high with ``X`` in place, a set by suit."""
        if self.kind == SET:
            nat = sorted(c >> 4 for c in self.cells if c != JOKER)
            return " ".join([card_str(make_card(self.key, s)) for s in nat] + ["X"] * self.jokers)
        single = len(self.naturals) == 1  # one natural: name the jokers, or it would read as a set
        out = []
        for i, c in enumerate(self.cells):
            if c == JOKER:
                out.append("X=" + card_str(card_at(self.key, self.lo + i)) if single else "X")
            else:
                out.append(card_str(c))
        return " ".join(out)

    def display(self) -> str:
        """For people: jokers shown as the card they stand for, ``*`` marking a crossed one."""
        if self.kind == SET:
            return str(self)
        out = []
        for i, c in enumerate(self.cells):
            if c == JOKER:
                mark = "*" if self.crossed >> (self.lo + i) & 1 else ""
                out.append(f"X({card_str(card_at(self.key, self.lo + i))}){mark}")
            else:
                out.append(card_str(c))
        return " ".join(out)

    # ---------------------------------------------------------------- fitting
    def end_positions(self) -> list[int]:
        """Open positions a card may be added at (sequences: below and above; R2.2 limits)."""
        out = []
        lo, hi = self.lo, self.high_position
        if lo > 1 and not (lo - 1 == 1 and hi == 14):
            out.append(lo - 1)
        if hi < 14 and not (hi + 1 == 14 and lo == 1):
            out.append(hi + 1)
        return out

    def fit_position(self, card: int) -> int | None:
        """Where a natural card would go (0 for a set), or None if it does not fit (R4.4).

        An ace that fits both ends of a sequence goes low (docs/records.md).
        """
        if self.kind == SET:
            if card & 15 != self.key:
                return None
            if self.limit and len(self.cells) >= self.limit:
                return None  # a single pack holds at most four of a rank (R2.2)
            return 0
        if card >> 4 != self.key:
            return None
        ends = self.end_positions()
        r = card & 15
        if r == 1:
            for p in (1, 14):
                if p in ends:
                    return p
            return None
        return r if r in ends else None

    def joker_fits(self, name: int | None) -> int | None:
        """Where a joker named ``name`` would go (0 for a set), or None."""
        if self.kind == SET:
            if name is not None and name & 15 != self.key:
                return None
            if self.limit and len(self.cells) >= self.limit:
                return None
            return 0
        ends = self.end_positions()
        if name is None:
            return ends[-1] if len(ends) == 1 else None
        if name >> 4 != self.key:
            return None
        r = name & 15
        for p in ((1, 14) if r == 1 else (r,)):
            if p in ends:
                return p
        return None

    def add_at(self, card: int, pos: int) -> Combo:
        """A copy with ``card`` (natural or joker) added at a position from :meth:`fit_position`."""
        if self.kind == SET:
            cells = tuple(sorted((*self.cells, card)))
            return Combo(SET, self.key, 0, cells, 0, self.owner, self.limit)
        if pos == self.lo - 1:
            return Combo(RUN, self.key, pos, (card, *self.cells), self.crossed, self.owner, self.limit)
        return Combo(RUN, self.key, self.lo, (*self.cells, card), self.crossed, self.owner, self.limit)

    def add(self, card: int) -> Combo:
        """A copy with a natural card added where it fits; IllegalActionError (R4.4) if it does not."""
        pos = self.fit_position(card)
        if pos is None:
            raise IllegalActionError("R4.4", Msg("{card} does not fit {combo}", card=the_card(card), combo=str(self)))
        return self.add_at(card, pos)

    # ---------------------------------------------------------------- jokers
    def movable_jokers(self) -> list[str]:
        """The jokers that may move (R2.3): ``low``/``high`` for an uncrossed joker at an end
        whose other end can be extended."""
        if self.kind == SET:
            return []
        out = []
        lo, hi = self.lo, self.high_position
        if self.cells[0] == JOKER and not self.crossed >> lo & 1 and hi < 14:
            out.append("low")
        if len(self.cells) > 1 and self.cells[-1] == JOKER and not self.crossed >> hi & 1 and lo > 1:
            out.append("high")
        return out

    def shift(self, which: str | None) -> Combo:
        """Move an end joker to the other end and cross it (R2.3); ``which`` is ``low``/``high``
        when both ends hold a movable joker."""
        movable = self.movable_jokers()
        if self.kind == SET:
            raise IllegalActionError("R2.3", Msg("a joker in a set never moves ({combo})", combo=str(self)))
        if not movable:
            if JOKER not in self.cells:
                raise IllegalActionError("R2.3", Msg("{combo} holds no joker", combo=str(self)))
            ends = [self.cells[0], self.cells[-1]]
            if JOKER not in ends:
                raise IllegalActionError("R2.3", Msg("a joker inside a sequence never moves ({combo})",
                                                     combo=str(self)))
            raise IllegalActionError("R2.3", Msg("no joker of {combo} can move: it was moved already, or the other "
                                                 "end cannot be extended", combo=str(self)))
        if which is None:
            if len(movable) > 1:
                raise IllegalActionError("R2.3", Msg("both ends of {combo} hold a movable joker: say low or high",
                                                     combo=str(self)))
            which = movable[0]
        if which not in movable:
            if which == "low":
                raise IllegalActionError("R2.3", Msg("the low joker of {combo} cannot move", combo=str(self)))
            if which == "high":
                raise IllegalActionError("R2.3", Msg("the high joker of {combo} cannot move", combo=str(self)))
            raise IllegalActionError("R2.3", Msg("the {which} joker of {combo} cannot move", which=str(which),
                                                 combo=str(self)))
        if which == "low":
            new_pos = self.high_position + 1
            return Combo(RUN, self.key, self.lo + 1, (*self.cells[1:], JOKER),
                         self.crossed | 1 << new_pos, self.owner, self.limit)
        new_pos = self.lo - 1
        return Combo(RUN, self.key, new_pos, (JOKER, *self.cells[:-1]), self.crossed | 1 << new_pos, self.owner,
                     self.limit)


def _run_adds(suit: int, lo: int, hi: int) -> tuple[tuple[int, int, bool], ...]:
    """The open places of a sequence spanning ``lo..hi``: (position, card, a natural may go there).

    R2.2: never both aces; an ace that fits both ends goes low (so the natural ace
    is listed only for the low end, a joker at either)."""
    ends = []
    if lo > 1 and not (lo == 2 and hi == 14):
        ends.append(lo - 1)
    if hi < 14 and not (hi == 13 and lo == 1):
        ends.append(hi + 1)
    return tuple((p, card_at(suit, p), not (p == 14 and 1 in ends)) for p in ends)


def parse_token(text: str) -> Token:
    """Split ``X=9h`` into ``("X", "9h")``; other cards into ``(text, None)``."""
    if "=" in text:
        left, _, right = text.partition("=")
        return (left, right)
    return (text, None)


def build_combo(tokens: Sequence[Token], double: bool, owner: int) -> Combo:
    """A new combination from cards as written (R2.2, R2.3), or IllegalActionError.

    A sequence is written low to high with each joker in its place; a set with
    its jokers anywhere.  Naturals of one rank make a set.  A single natural with
    jokers is read as a set unless a joker is named for a sequence (``7d X=8d X``).

    A sequence written in another order is read in any order wherever that leaves only one
    sequence (``2c 3c Ac``, ``7d X 5d``; a named joker goes where its name says); where it
    leaves several (``6d X 5d``: ``X 5d 6d`` or ``5d 6d X``) it is a
    :class:`~conquian.engine.errors.NotationError` asking for the order.  The combination is
    written back in canonical order (:meth:`Combo.__str__`).

    ```pycon
    >>> str(build_combo([("2c", None), ("3c", None), ("Ac", None)], double=False, owner=1))
    'Ac 2c 3c'
    >>> str(build_combo([("7d", None), ("X", None), ("5d", None)], double=False, owner=1))
    '5d X 7d'
    >>> try:
    ...     build_combo([("6d", None), ("X", None), ("5d", None)], double=False, owner=1)
    ... except NotationError as e:
    ...     print(str(e).split(": write")[0])
    6d X 5d: the cards make more than one sequence (5d 6d X=7d or X=4d 5d 6d)

    ```
    """
    cards: list[int] = []
    names: list[int | None] = []
    for text, name in tokens:
        c = parse_card(text)
        if name is not None and c != JOKER:
            raise IllegalActionError("R2.3", Msg("only a joker is named: {value}", value=f"{text}={name}"))
        cards.append(c)
        names.append(parse_card(name) if name is not None else None)
        if names[-1] == JOKER:
            raise IllegalActionError("R2.3", Msg("a joker cannot be named the joker"))
    text = " ".join(t if n is None else f"{t}={n}" for t, n in tokens)
    if len(cards) < 3:
        raise IllegalActionError("R2.2", Msg("{cards}: a combination is at least three cards", cards=text))
    naturals = [c for c in cards if c != JOKER]
    if not naturals:
        raise IllegalActionError("R2.3", Msg("{cards}: a combination must hold at least one natural card", cards=text))
    ranks = {c & 15 for c in naturals}
    named_seq = any(n is not None and (n & 15) not in ranks for n in names)
    if len(ranks) == 1 and not (len(naturals) == 1 and named_seq):
        rank = naturals[0] & 15
        if any(n is not None and n & 15 != rank for n in names):
            raise IllegalActionError("R2.3", Msg("{cards}: a joker in a set stands for the set's rank", cards=text))
        if not double and len(cards) > 4:
            raise IllegalActionError("R2.2", Msg("{cards}: a set of a single pack holds at most four cards",
                                                 cards=text))
        if len(set(naturals)) < len(naturals) and not double:
            raise IllegalActionError("R2.2", Msg("{cards}: a card is written twice", cards=text))
        return Combo(SET, rank, 0, tuple(sorted(cards)), 0, owner, 0 if double else 4)
    suits = {c >> 4 for c in naturals}
    if len(suits) != 1:
        raise IllegalActionError("R2.2", Msg("{cards} is neither a set (one rank) nor a sequence (one suit)",
                                             cards=text))
    suit = suits.pop()
    misnamed: Msg | None = None
    for high_ace in (False, True):
        first = next(i for i, c in enumerate(cards) if c != JOKER)
        lo = position_of(cards[first], high_ace) - first
        hi = lo + len(cards) - 1
        if lo < 1 or hi > 14 or (lo == 1 and hi == 14):
            continue
        ok = True
        for i, c in enumerate(cards):
            p = lo + i
            if c != JOKER:
                if card_at(suit, p) != c:
                    ok = False
                    break
            elif names[i] is not None and card_at(suit, p) != names[i]:
                misnamed = Msg("{cards}: the joker in that place stands for {card}", cards=text,
                               card=the_card(card_at(suit, p)))
                ok = False
                break
        if ok:
            return Combo(RUN, suit, lo, tuple(cards), 0, owner, 0 if double else 4)
    # Not in order as written: the cards in any order, wherever that leaves one sequence only.
    found = _arrangements(suit, cards, names)
    if len(found) == 1:
        lo, cells = found.pop()
        return Combo(RUN, suit, lo, cells, 0, owner, 0 if double else 4)
    if found:
        raise NotationError(Msg(
            "{cards}: the cards make more than one sequence ({choices}): write it low to high, "
            "each joker in its place, or name the jokers (X=9h)",
            cards=text, choices=_either(sorted(_cells_text(suit, lo, cells) for lo, cells in found)),
        ))
    if misnamed is not None:
        raise IllegalActionError("R2.3", misnamed)
    raise IllegalActionError("R2.2", Msg("{cards} is not a sequence: cards of one suit that follow each other, "
                                         "an ace low or high but never round the corner", cards=text))


def _either(choices: list[str]) -> str | Msg:
    """Alternatives in a message: ``A or B or C``, each ``or`` a word of the reader's language."""
    out: str | Msg = choices[0]
    for choice in choices[1:]:
        out = Msg("{first} or {second}", first=out, second=choice)
    return out


def _arrangements(suit: int, cards: list[int], names: list[int | None]) -> set[tuple[int, tuple[int, ...]]]:
    """Every sequence of ``suit`` the cards make in some order: (lowest position, cells).

    The naturals and the named jokers have their places; the other jokers fill the gaps
    between them, and any left over go below or above (R2.2: an ace low or high, never both).
    """
    free = sum(1 for c, n in zip(cards, names, strict=True) if c == JOKER and n is None)
    out: set[tuple[int, tuple[int, ...]]] = set()
    for high_ace in (False, True):
        fixed: dict[int, int] = {}
        ok = True
        for c, n in zip(cards, names, strict=True):
            card = c if c != JOKER else n
            if card is None:
                continue
            if card >> 4 != suit:
                ok = False
                break
            pos = position_of(card, high_ace)
            if pos in fixed:
                ok = False  # one place, two cards
                break
            fixed[pos] = c
        if not ok:
            continue
        low, high = min(fixed), max(fixed)
        gaps = high - low + 1 - len(fixed)
        if gaps > free:
            continue
        spare = free - gaps
        for below in range(spare + 1):
            lo, hi = low - below, high + spare - below
            if lo < 1 or hi > 14 or (lo == 1 and hi == 14):
                continue
            out.add((lo, tuple(fixed.get(p, JOKER) for p in range(lo, hi + 1))))
    return out


def _cells_text(suit: int, lo: int, cells: tuple[int, ...]) -> str:
    """A sequence's cells as written, each joker named (``5d X=6d 7d``)."""
    return " ".join(card_str(c) if c != JOKER else "X=" + card_str(card_at(suit, lo + i))
                    for i, c in enumerate(cells))
