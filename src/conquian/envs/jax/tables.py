"""The fixed tables of the accelerated environment, made once per preset with numpy from the
engine's own meld table (:class:`~conquian.engine.conquian.melds.MeldTable`) and encoding.

Cards are numbered densely, ``0 .. n_cards - 1`` as :class:`~conquian.envs.encoding.Encoding`
numbers them (suit by suit, ranks in the pack's order), so a set of cards is 40 bits, held as
two ``uint32`` words (cards 0-31, then 32-39: JAX computes in 32 bits unless told otherwise).
The order of two sets as numbers is the engine's order of their card masks, so the engine's
sorted lists (combinations by mask, by lowest card, by card) keep their order here.
Combinations are numbered as the action space numbers them (``A_USE + index``), the number
``n_melds`` standing for "none".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from conquian.engine.cards import sort_key
from conquian.engine.conquian.melds import meld_table
from conquian.engine.rules import CONQUIAN, MEXICANO, Rules, get_rules
from conquian.engine.scoring import conquian_pip_value
from conquian.envs.encoding import CONQUIAN_SLOTS, LATEST, Encoding, encoding

#: The deepest search: one level per card placed or left, at most the card in play, ten cards
#: down and ten in the hand.
DEPTH = 24
#: The most combinations one listed use lays new (a partition of 21 cards into threes: 7).
NEW = 8

IntArray = npt.NDArray[np.int32]
WordArray = npt.NDArray[np.uint32]


def words(dense_cards: list[int] | set[int]) -> tuple[int, int]:
    """A set of dense card numbers as its two 32-bit words."""
    m = 0
    for i in dense_cards:
        m |= 1 << i
    return m & 0xFFFFFFFF, m >> 32


@dataclass(frozen=True, eq=False)
class Tables:
    """Everything the pure functions look up, as numpy arrays (turned into constants when traced)."""

    rules: Rules
    enc: Encoding
    n_cards: int
    n_melds: int
    n_actions: int
    obs_size: int
    a_force: int
    a_discard: int
    a_use: int
    a_lay: int
    pack_size: int
    pips: bool
    #: the engine's card number of each dense card
    cards: IntArray
    #: each dense card's set ([n_cards + 1, 2]; the last row, "no card", empty)
    card_bit: WordArray
    #: each combination's cards ([n_melds + 1, 2]; the last row, "none", empty)
    meld: WordArray
    #: the lowest card of each combination, and the order the notation writes combinations in
    meld_low: IntArray
    meld_key: IntArray
    #: the cards that fit each combination as it lies (R3.6)
    fit: WordArray
    #: the combination a card makes with a combination it fits ([n_melds + 1, n_cards], none: n_melds)
    ext: IntArray
    #: the combinations by lowest card, by card, and the three-card ones by card (padded with n_melds)
    by_low: IntArray
    by_card: IntArray
    threes: IntArray
    #: the place of each combination among those holding a card (by_card's column; -1: it does not)
    place: IntArray
    #: pip value of each dense card (R2.4)
    pip: IntArray
    #: the conquian mexicano (R8): players at the table, cards dealt each, the exchange's first
    #: give (``A_GIVE``), whether the exchange is played and an exhausted pack's rule (``fewest``)
    players: int = 2
    hand_size: int = 10
    a_give: int = -1
    exchange: bool = False
    fewest: bool = False


def _padded(rows: list[list[int]], fill: int) -> IntArray:
    width = max(1, max(len(r) for r in rows))
    out = np.full((len(rows), width), fill, dtype=np.int32)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


@cache
def tables(variant: str = "conquian", scoring: str = "games") -> Tables:
    """The tables of a two-hand conquian preset (``conquian``, ``conquian-spanish``) and scoring."""
    rules = get_rules(variant, scoring=scoring)
    if rules.family != CONQUIAN or rules.players != 2:
        raise ValueError(f"the accelerated environment plays two-hand conquian, not {variant!r}")
    enc = encoding(rules, LATEST)
    assert enc.obs_size == enc.n_cards * (3 + 2 * CONQUIAN_SLOTS + 4) + 9
    return _build(rules, enc)


@cache
def mexicano_tables(players: int = 2, hand: int = 8, exchange: bool = True, exhausted: str = "tablas") -> Tables:
    """The tables of the conquian mexicano (R8) for ``players`` with its options (R8.1)."""
    if players not in (2, 3):
        raise ValueError(f"the accelerated conquian mexicano seats two or three players, not {players!r}")
    rules = get_rules("conquian-mexicano", players=players, hand=hand, exchange=exchange, exhausted=exhausted)
    if rules.family != MEXICANO:
        raise ValueError("not the conquian mexicano")
    enc = encoding(rules, LATEST)
    return _build(rules, enc)


def _build(rules: Rules, enc: Encoding) -> Tables:
    """Every table of a rules object of the conquian family and its encoding."""
    tbl = meld_table(rules)
    n = enc.n_cards
    dense = enc.dense

    def to_dense(mask: int) -> list[int]:
        return [dense[c] for c in range(64) if mask >> c & 1]

    melds = enc.melds  # sorted by the engine's mask: the action space's order
    k = len(melds)
    index = {m: i for i, m in enumerate(melds)}
    meld = np.zeros((k + 1, 2), dtype=np.uint32)
    fit = np.zeros((k + 1, 2), dtype=np.uint32)
    meld_low = np.full(k + 1, n, dtype=np.int32)
    meld_key = np.full(k + 1, 1 << 20, dtype=np.int32)
    ext = np.full((k + 1, n), k, dtype=np.int32)
    for i, m in enumerate(melds):
        d = to_dense(m)
        meld[i] = words(d)
        meld_low[i] = min(d)
        key = min(sort_key(c) for c in range(64) if m >> c & 1)
        meld_key[i] = key[0] * 4 + key[1]
        fits = []
        for j, c in enumerate(enc.cards):
            if not m >> c & 1 and m | 1 << c in tbl.valid:
                fits.append(j)
                ext[i, j] = index[m | 1 << c]
        fit[i] = words(fits)
    card_bit = np.zeros((n + 1, 2), dtype=np.uint32)
    for j in range(n):
        card_bit[j] = words([j])
    by_low = _padded([[index[m] for m in tbl.by_low.get(c, ())] for c in enc.cards], k)
    by_card = _padded([[index[m] for m in tbl.by_card.get(c, ())] for c in enc.cards], k)
    threes = _padded([[index[m] for m in tbl.threes_by_card.get(c, ())] for c in enc.cards], k)
    place = np.full((k + 1, n), -1, dtype=np.int32)
    for j in range(n):
        for col, m in enumerate(by_card[j]):
            if m < k:
                place[m, j] = col
    assert by_card.shape[1] <= 32  # a card's combinations are numbered in one 32-bit word
    pip = np.array([conquian_pip_value(c) for c in enc.cards], dtype=np.int32)
    mex = rules.family == MEXICANO
    return Tables(rules=rules, enc=enc, n_cards=n, n_melds=k, n_actions=enc.n_actions, obs_size=enc.obs_size,
                  a_force=enc.A_FORCE, a_discard=enc.A_DISCARD, a_use=enc.A_USE, a_lay=enc.A_LAY,
                  pack_size=rules.pack_size, pips=rules.scoring == "pips",
                  cards=np.array(enc.cards, dtype=np.int32), card_bit=card_bit, meld=meld, meld_low=meld_low,
                  meld_key=meld_key, fit=fit, ext=ext, by_low=by_low, by_card=by_card, threes=threes,
                  place=place, pip=pip, players=rules.players, hand_size=rules.hand_size,
                  a_give=enc.A_GIVE if mex else -1, exchange=mex and bool(rules.exchange),
                  fewest=mex and rules.exhausted == "fewest")


__all__ = ["DEPTH", "NEW", "Tables", "mexicano_tables", "tables", "words"]
