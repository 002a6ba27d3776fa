"""A game at one table: people and bots, a match, a log in words, records (no user interface).

The terminal application (:mod:`conquian.tui`) is a thin layer over this.  A
session knows which seats are people, lets bots play their turns one at a time
(so an interface can pace them), writes every action in words, and saves the
match as a record.

>>> from conquian import get_rules
>>> s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ann", "Bob"], seed=3)
>>> s.human_to_act, s.deal.to_act
(True, 1)
>>> line = s.play_human(s.legal()[0])
>>> line.startswith("Ann ")
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from conquian.actions import Action, Discard, Draw, Force, Meld, Shift, Take, Use, meld_text, parse_action
from conquian.bots import Bot, make_bot
from conquian.cards import JOKER, card_str, cards_of
from conquian.cooncan import CooncanDeal
from conquian.deck import SplitMix64
from conquian.errors import ConquianError, IllegalActionError
from conquian.match import Deal, Match
from conquian.record import record_from_match, write_record
from conquian.rules import CONQUIAN, Rules
from conquian.twohand import ConquianDeal

HUMAN = "human"


@dataclass
class GameSession:
    """A match at one table.  ``seats`` holds ``"human"`` or a bot name for each seat."""

    rules: Rules
    seats: list[str]
    names: list[str] | None = None
    seed: int = 0
    deals_in_match: int | None = None
    """Conquian: deals to play (default 6); Cooncan: one round (R5.4)."""
    log: list[str] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = self.rules.players
        if len(self.seats) != n:
            raise ValueError(f"{self.rules.name} with {n} players needs {n} seats, not {len(self.seats)}")
        self.names = list(self.names) if self.names else default_names(self.seats)
        for i, kind in enumerate(self.seats):
            if kind != HUMAN:
                self.bots[i + 1] = make_bot(kind, seed=self.seed * 7 + i)
        self.match = Match(self.rules, self.names, rounds=None if self.rules.family == CONQUIAN else 1)
        if self.deals_in_match is None:
            self.deals_in_match = 6 if self.rules.family == CONQUIAN else n
        self._seeds = SplitMix64(self.seed)
        self.new_deal()

    # ------------------------------------------------------------------ state
    @property
    def deal(self) -> Deal:
        """The current deal."""
        return self.match.deals[-1]

    @property
    def human_seats(self) -> list[int]:
        """The seats played by people."""
        return [i + 1 for i, kind in enumerate(self.seats) if kind == HUMAN]

    @property
    def human_to_act(self) -> bool:
        """Whether a person is to act now."""
        seat = self.deal.to_act
        return seat is not None and self.seats[seat - 1] == HUMAN

    def name(self, seat: int) -> str:
        """A seat's player name."""
        assert self.names is not None
        return self.names[seat - 1]

    @property
    def match_over(self) -> bool:
        """Whether every deal of the match has been played."""
        return self.deal.over and len(self.match.deals) >= (self.deals_in_match or 1)

    def new_deal(self) -> Deal:
        """Deal the next hand (the deal passes to the left, R3.8, R5.4)."""
        d = self.match.new_deal(seed=self._seeds.next64())
        self.log.append(f"--- deal {len(self.match.deals)}: {self.name(d.dealer)} deals ---")
        if isinstance(d, ConquianDeal):
            self.log.append(f"{self.name(d.seats[0])} turned {_card_words(d.card)}")
        else:
            self.log.append(f"the stock starts with {_card_words(d.stock[0])}")
        return d

    def legal(self) -> list[Action]:
        """The listed legal actions of the seat to act."""
        return self.deal.legal_actions()

    # ------------------------------------------------------------------ playing
    def play_human(self, action: Action | str) -> str:
        """Play a person's action (text may leave out the seat); returns the log line.

        Raises :class:`~conquian.errors.ConquianError` (the state unchanged) if it is refused.
        """
        seat = self.deal.to_act
        if seat is None:
            raise IllegalActionError("R7", "the deal is over")
        if isinstance(action, str):
            text = action.strip()
            if not text.lower().startswith("p"):
                text = f"p{seat} {text}"
            action = parse_action(text)
        return self._play(action)

    def bot_step(self) -> str | None:
        """Let the bot to act play one action; None if a person is to act or the deal is over."""
        seat = self.deal.to_act
        if seat is None or self.seats[seat - 1] == HUMAN:
            return None
        view = self.deal.view(seat)
        action = self.bots[seat].choose(view)
        return self._play(action)

    def _play(self, action: Action) -> str:
        deal = self.deal
        before_events = deal.n_events
        deal.play(action)
        lines = [self.describe(e) for e in deal.recent_events(deal.n_events - before_events)]
        lines = [ln for ln in lines if ln]
        self.log.extend(lines)
        if deal.over:
            self.match.settle()
            self.log.append(self.result_line())
        return "; ".join(lines)

    def describe(self, event: object) -> str:
        """An event in words, with names ("Bob passed the 7 of hearts")."""
        text = str(event)
        kind = getattr(event, "kind", "")
        seat = getattr(event, "seat", None)
        if kind == "draw" and isinstance(self.deal, CooncanDeal) and seat is not None and seat not in self.human_seats:
            text = f"p{seat} drew from the pack"  # another player's draw is not shown
        if kind in ("bury",):
            return ""
        for s in range(self.rules.players, 0, -1):
            text = text.replace(f"p{s}", self.name(s))
        return text

    def result_line(self) -> str:
        """The deal's result in words."""
        deal = self.deal
        scores = self.match.results[-1]
        shown = ", ".join(f"{self.name(i + 1)} {s:+d}" for i, s in enumerate(scores))
        if deal.winner_seat is not None:
            extra = " (a splash)" if getattr(deal, "splash", False) else ""
            return f"{self.name(deal.winner_seat)} wins the deal{extra}: {shown}"
        if getattr(deal, "void", False):
            return "the deal is void: nobody scores"
        return "tableau: nobody wins; the next winner takes the pool"

    # ------------------------------------------------------------------ records
    def record_text(self) -> str:
        """The match so far as a record (RECORDS.md)."""
        return write_record(record_from_match(self.match))

    def save(self, path: str | None = None) -> str:
        """Write the record; returns the path."""
        path = path or f"conquian-{self.rules.name}-{time.strftime('%Y%m%d-%H%M%S')}.toml"
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.record_text())
        return path


def _card_words(card: int | None) -> str:
    from conquian.cards import card_name

    return card_name(card) if card is not None and card >= 0 else "nothing"


def action_cards(action: Action) -> list[str]:
    """The cards an action names, in notation (for matching a selection of cards)."""
    if isinstance(action, Use):
        return [t for m in action.melds for t in meld_text(m).split()]
    if isinstance(action, Force | Discard):
        return [card_str(action.card)]
    if isinstance(action, Take):
        return [card_str(action.card)] if action.card is not None else []
    if isinstance(action, Meld | Shift):
        return [t.split("=")[0] for t in action.cards]
    if hasattr(action, "cards"):
        return [t.split("=")[0] for t in getattr(action, "cards", ())]
    return []


def live_outs(deal: Deal, seat: int) -> list[str]:
    """For a seat's partial combinations, the cards still to come that would fill them (the hint).

    Conquian: pairs in hand that need one card, and the cards that could still come (not
    buried, not on the table, not in the seat's hand).  Cooncan: the same, counting copies
    and jokers still unseen.
    """
    view = deal.view(seat)
    out: list[str] = []
    if isinstance(deal, ConquianDeal):
        from conquian.view import ConquianView

        assert isinstance(view, ConquianView)
        tbl = view.table
        live = view.unseen_mask()
        hand = view.hand_mask
        seen_pairs: dict[int, int] = {}
        for c in cards_of(hand):
            for t in tbl.threes_by_card.get(c, ()):
                held = t & hand
                if held.bit_count() == 2:
                    missing = t & ~hand
                    if missing & live:
                        seen_pairs[held] = seen_pairs.get(held, 0) | missing
        for held, missing in sorted(seen_pairs.items()):
            cards = " ".join(card_str(c) for c in cards_of(missing))
            out.append(f"{meld_text(held)}: {missing.bit_count()} live ({cards})")
        return out
    from conquian.cooncan_view import CooncanView

    assert isinstance(view, CooncanView)
    copies = deal.rules.copies
    seen: dict[int, int] = {}
    for cb in view.combos:
        for c in cb.cells:
            seen[c] = seen.get(c, 0) + 1
    for c in view.stock:
        seen[c] = seen.get(c, 0) + 1
    for c in view.hand:
        seen[c] = seen.get(c, 0) + 1
    jokers_unseen = deal.rules.jokers - seen.get(JOKER, 0)
    naturals = sorted({c for c in view.hand if c != JOKER})
    done: set[tuple[int, int]] = set()
    for i, a in enumerate(naturals):
        for b in naturals[i + 1:]:
            fills: list[int] = []
            if a & 15 == b & 15:
                fills = [(s << 4) | (a & 15) for s in range(4)]
            elif a >> 4 == b >> 4 and abs((a & 15) - (b & 15)) in (1, 2):
                lo, hi = sorted((a & 15, b & 15))
                fills = [(a >> 4 << 4) | r for r in ((lo + 1,) if hi - lo == 2 else (lo - 1, hi + 1)) if 1 <= r <= 13]
            if not fills or (a, b) in done:
                continue
            done.add((a, b))
            n = sum(max(0, copies - seen.get(f, 0)) for f in fills) + jokers_unseen
            if n:
                out.append(f"{card_str(a)} {card_str(b)}: {n} live (with jokers)")
    return out


def default_names(seats: Sequence[str]) -> list[str]:
    """Names for seats: "You" for a lone person, "Player 2" for several, "Foster", "Expert 3" for bots."""
    out = []
    for i, kind in enumerate(seats):
        if kind == HUMAN:
            out.append("You" if seats.count(HUMAN) == 1 else f"Player {i + 1}")
        else:
            out.append(kind.capitalize() if seats.count(kind) == 1 else f"{kind.capitalize()} {i + 1}")
    return out


def seats_from_bots(rules: Rules, bots: Sequence[str] | None) -> list[str]:
    """Seat kinds from ``--bots``: ``human`` first, then the bots, or as listed if it names humans."""
    n = rules.players
    names = [b.strip() for b in (bots or []) if b.strip()]
    if HUMAN in names:
        if len(names) != n:
            raise ConquianError(f"--bots lists {len(names)} seats; {rules.name} seats {n}")
        return names
    if not names:
        names = ["expert"]
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise ConquianError(f"--bots: give {n - 1} bots for the other seats (or one for all), not {len(names)}")
    return [HUMAN, *names]


__all__ = ["HUMAN", "Draw", "GameSession", "action_cards", "live_outs", "seats_from_bots"]
