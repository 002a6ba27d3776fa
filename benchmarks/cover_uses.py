"""Does the listing offer every way to lay cards?  ``python -m benchmarks.cover_uses``.

    python -m benchmarks.cover_uses                # 150 deals a preset, foster against foster
    python -m benchmarks.cover_uses --deals 20

For every say and every forced use of conquian, the Spanish pack and the conquián mexicano (two,
three and four players), the checker finds, by a search of its own (the combinations of R2.2
written again here, not the engine's meld table; every subset of the hand tried), every set of
hand cards that some legal use lays (R3.4: the side may be rearranged into any partition that
keeps every card down), and compares them with the sets the listed uses lay.  It prints, per
preset: the layable sets, how many no listed use lays, the chances to go out (R3.7, R8.5: every
hand card laid) and how many of those are not listed.  The listing's contract (docs/records.md)
is that both "not listed" columns are zero; ``tests/test_listing_cover.py`` holds it.
"""

from __future__ import annotations

import argparse
import sys
from functools import cache
from itertools import combinations

from conquian import get_rules
from conquian.bots import make_bot
from conquian.engine.actions import Use
from conquian.engine.cards import card_str, cards_of
from conquian.engine.match import Deal, new_deal

FRENCH = "A 2 3 4 5 6 7 8 9 T".split()  # conquian: A low only, nothing wraps (R2.2)
SPANISH = "A 2 3 4 5 6 7 J Q K".split()  # the Spanish pack: 7 and J consecutive (R2.2)
PRESETS = [("conquian", 2), ("conquian-spanish", 2), ("conquian-mexicano", 2), ("conquian-mexicano", 3),
           ("conquian-mexicano", 4)]


def _rank_suit(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


@cache
def is_combination(cards: frozenset[str], spanish: bool) -> bool:
    """R2.2: three or four of one rank, or three or more of one suit in consecutive order."""
    if len(cards) < 3:
        return False
    ranks = {_rank_suit(c)[0] for c in cards}
    suits = {_rank_suit(c)[1] for c in cards}
    if len(ranks) == 1:
        return len(cards) <= 4
    if len(suits) != 1:
        return False
    order = SPANISH if spanish else FRENCH
    pos = sorted(order.index(_rank_suit(c)[0]) for c in cards)
    return pos == list(range(pos[0], pos[0] + len(pos)))


def _groups_with(first: str, cards: frozenset[str], spanish: bool) -> list[frozenset[str]]:
    """Every candidate combination of ``cards`` that holds ``first``: same rank, or a run in its suit."""
    rank, suit = _rank_suit(first)
    out = []
    same_rank = sorted(c for c in cards if _rank_suit(c)[0] == rank and c != first)
    for size in (2, 3):
        out += [frozenset((first, *others)) for others in combinations(same_rank, size)]
    order = SPANISH if spanish else FRENCH
    held = {order.index(_rank_suit(c)[0]) for c in cards if _rank_suit(c)[1] == suit}
    at = order.index(rank)
    for lo in range(at, -1, -1):
        if lo not in held:
            break
        for hi in range(at, len(order)):
            if hi not in held:
                break
            if hi - lo >= 2:
                out.append(frozenset(order[i] + suit for i in range(lo, hi + 1)))
    return out


@cache
def splits(cards: frozenset[str], spanish: bool) -> bool:
    """Whether ``cards`` split into combinations (the first card's combination tried every way)."""
    if not cards:
        return True
    first = min(cards)
    return any(is_combination(g, spanish) and splits(cards - g, spanish)
               for g in _groups_with(first, cards, spanish))


def layable(card: str, hand: list[str], down: list[str], spanish: bool) -> set[frozenset[str]]:
    """Every set of hand cards a legal use of ``card`` lays (R3.4), by trying every subset of the hand."""
    out = set()
    for k in range(len(hand) + 1):
        for h in combinations(hand, k):
            if splits(frozenset((card, *h, *down)), spanish):
                out.add(frozenset(h))
    return out


def compare(deal: Deal) -> tuple[int, int, int, int]:
    """At a say or forced decision: (layable sets, not listed, chances to go out, not listed).

    Raises :class:`AssertionError` if a listed use is illegal or lays a set no use can lay.
    """
    seat = deal.to_act
    assert seat is not None and deal.card_in_play is not None
    card = card_str(deal.card_in_play)
    hand = [card_str(c) for c in deal.hand(seat)]  # type: ignore[attr-defined]
    down = [card_str(c) for m in deal.side(seat) for c in m]  # type: ignore[attr-defined]
    want = layable(card, hand, down, deal.rules.name != "conquian")
    got = set()
    for action in deal.legal_actions():
        if isinstance(action, Use):
            assert deal.is_legal(action), action
            got.add(frozenset(card_str(c) for m in action.melds for c in cards_of(m)) - {card} - set(down))
    assert got <= want, f"listed, but no legal use lays it: {got - want}"
    missing = want - got
    full = frozenset(hand)
    return len(want), len(missing), int(full in want), int(full in missing)


def measure(preset: str, players: int, deals: int) -> tuple[int, int, int, int, int]:
    """(decisions, layable sets, not listed, chances to go out, not listed) over foster's deals."""
    rules = get_rules(preset, players=players)
    bots = [make_bot("foster", seed=s) for s in range(players)]
    totals = [0, 0, 0, 0, 0]
    for seed in range(1, deals + 1):
        deal = new_deal(rules, seed=seed, dealer=rules.players)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            if deal.phase in ("say", "forced"):
                row = compare(deal)
                totals[0] += 1
                for i, x in enumerate(row):
                    totals[i + 1] += x
            deal.play(bots[seat - 1].choose(deal.view(seat)))
    return (totals[0], totals[1], totals[2], totals[3], totals[4])


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=150, help="deals a preset (default 150)")
    args = ap.parse_args(argv)
    print(f"foster against foster, {args.deals} deals a preset")
    print(f"{'preset':<22}{'decisions':>10}{'layable sets':>14}{'not listed':>12}{'chances to go out':>19}"
          f"{'not listed':>12}")
    for preset, players in PRESETS:
        d, sets, missing, outs, outs_missing = measure(preset, players, args.deals)
        name = f"{preset}, {players}" if preset == "conquian-mexicano" else preset
        print(f"{name:<22}{d:>10,}{sets:>14,}{missing:>12,}{outs:>19,}{outs_missing:>12,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
