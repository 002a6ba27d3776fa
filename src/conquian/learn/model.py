"""A lesson as data: a prepared deal (fixed deck, scripted moves of the other seats), the move or
moves the lesson's idea calls for, and the words that explain it (translated where they are read)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conquian.engine.cards import parse_cards
from conquian.engine.deck import arrange_cooncan_deck, arrange_deck
from conquian.engine.match import Deal, new_deal
from conquian.engine.rules import Rules, get_rules
from conquian.i18n import Msg

#: A step's ``expect`` that accepts any legal move.
ANY: tuple[str, ...] = ("*",)


@dataclass(frozen=True)
class Step:
    """One thing the learner is asked to do.

    ``expect``: the accepted moves in canonical notation (any of them); ``prompt``: what to do;
    ``why``: the explanation given when another legal move is tried, under rule ``rule``;
    ``then``: the other seats' scripted moves that follow; ``after``: the comment shown once the
    move is made."""

    expect: tuple[str, ...]
    prompt: Msg
    why: Msg
    rule: str
    then: tuple[str, ...] = ()
    after: Msg | None = None
    sample: str = ""
    """For a step that accepts any legal move (:data:`ANY`): the move the lesson's record plays."""


@dataclass(frozen=True)
class Source:
    """Where a lesson's hand comes from: the book and the passage (its opening words)."""

    book: str
    passage: str


@dataclass(frozen=True)
class Lesson:
    """One short lesson on a prepared deal.

    ``hands``: each seat's cards in seat order (``p1`` first), as notation; ``pack``: the top of
    the pack (for conquian the first card is the one turned up; for Cooncan ``stock`` starts the
    stock); ``seat``: the learner's seat; ``before``: scripted moves before the first step."""

    key: str
    concept: str
    title: Msg
    intro: Msg
    summary: Msg
    variant: str
    hands: tuple[str, ...]
    steps: tuple[Step, ...]
    seat: int = 1
    dealer: int = 2
    pack: str = ""
    stock: str = ""
    before: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    source: Source | None = None

    def rules(self) -> Rules:
        """The lesson's rules object."""
        return get_rules(self.variant, **self.options)

    def deck(self) -> tuple[int, ...]:
        """The whole deck, top card first, that deals the lesson's hands (RULES R3.1, R4.1, R8.2)."""
        rules = self.rules()
        hands = [parse_cards(h) for h in self.hands]
        if rules.family == "conquian":
            pone = self.dealer % 2 + 1
            ordered = [hands[pone - 1], hands[self.dealer - 1]]
            return arrange_deck(rules, ordered, parse_cards(self.pack))
        if rules.family == "cooncan":
            return arrange_cooncan_deck(rules, self.dealer, hands, parse_cards(self.stock)[0],
                                        parse_cards(self.pack))
        return _mexicano_deck(rules, self.dealer, hands, parse_cards(self.pack))

    def new_deal(self) -> Deal:
        """The lesson's deal as dealt, before any move."""
        return new_deal(self.rules(), self.deck(), dealer=self.dealer)

    def record(self, moves: tuple[str, ...] | None = None) -> str:
        """The lesson as a conquian-record/1 file (RECORDS.md): the deck, and the scripted and
        expected moves (the first expected move of each step) unless ``moves`` are given."""
        from conquian.engine.cards import card_str

        if moves is None:
            moves = self.script()
        rules = self.rules()
        players = ", ".join(f'"p{i}"' for i in range(1, rules.players + 1))
        opts = ", ".join(f"{k} = {_toml(v)}" for k, v in self.options.items())
        acts = ", ".join(f'"{m}"' for m in moves)
        return (f'format = "conquian-record/1"\nvariant = "{self.variant}"\nplayers = [{players}]\n'
                + (f"options = {{ {opts} }}\n" if opts else "")
                + f'\n[[deals]]\ndealer = {self.dealer}\ndeck = "{" ".join(card_str(c) for c in self.deck())}"\n'
                + f"actions = [{acts}]\n")

    def script(self) -> tuple[str, ...]:
        """Every move of the lesson in order: the scripted ones and the first expected move of each step."""
        out = list(self.before)
        for s in self.steps:
            out.append(s.sample or s.expect[0])
            out += s.then
        return tuple(out)


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


def _mexicano_deck(rules: Rules, dealer: int, hands: list[list[int]], pack: list[int]) -> tuple[int, ...]:
    """A mexicano deck (R8.2: one card at a time from the player after the dealer) dealing ``hands``."""
    from conquian.engine.deck import pack_order

    n = rules.players
    used = [c for h in hands for c in h] + pack
    if len(set(used)) != len(used) or any(len(h) != rules.hand_size for h in hands):
        raise ValueError("the lesson's hands are not a deal")
    deck = [hands[(dealer + k) % n][k // n] for k in range(n * rules.hand_size)]
    rest = [c for c in pack_order(rules) if c not in set(used)]
    return (*deck, *pack, *rest)
