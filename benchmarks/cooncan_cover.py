"""Does Cooncan's listing reach every outcome of a turn?  Measured against a search of its own.

    python -m benchmarks.cooncan_cover                  # 150 deals a preset (a few minutes)
    python -m benchmarks.cooncan_cover --deals 20       # a quicker look
    python -m benchmarks.cooncan_cover --json

In a Cooncan turn a player lays out, adds and moves jokers as often as he likes before he
discards (R4.3).  The listing (``legal_actions``) holds building blocks only: three-card
lay-outs, one card added, one card played with a joker's move; longer forms are played by
chaining them.  The question is whether that chain reaches everything the rules allow: every
set of hand cards a player can get rid of this turn, and going out above all (R4.6).

Positions come from real play: random and foster bots (seats alternate) play deals of each
preset, and every position of the play stage (after the draw, or later in the turn) is
measured.  For each, two searches over the rest of the turn, each memoised by state (the hand
and the table):

- :func:`everything`: every legal lay-out, add and joker move of *any* size, enumerated here
  from the rules (R2.2 combinations, R2.3 jokers, R4.4 adding) without the listing, each
  checked and played by the engine's ``verify`` (which accepts every legal form);
- :func:`listed`: the listed actions only (``legal_raw`` less the discards).

A *layable set* is a multiset of hand cards that some sequence of legal actions lays this
turn; it is *not reachable* when no sequence of listed actions lays exactly those cards.  A
*chance to go out* is a position from which the hand can be emptied this turn, or all but one
card laid and that card discarded (R4.6).  The same comparison is also made on the outcome as a
whole, the hand *and* the table: every table a legal turn can leave must be one the listed
actions can leave.

Nothing is asserted here (``tests/test_cooncan_cover.py`` asserts it on fewer positions).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import combinations, product
from typing import Any

from conquian import get_rules
from conquian.bots import make_bot
from conquian.engine.cards import JOKER, card_str, make_card
from conquian.engine.cooncan.deal import K_DISCARD, PLAY, CooncanDeal
from conquian.engine.errors import ConquianError

#: (preset, players) measured
CONFIGS = [("cooncan", 3), ("cooncan-double", 4), ("cooncan-double", 5)]

State = tuple[Any, ...]
Hand = tuple[int, int, int]


def _key(d: CooncanDeal) -> State:
    p = d.turn
    return (d.h1[p], d.h2[p], d.hj[p], d.combos)


def _hand(d: CooncanDeal) -> Hand:
    p = d.turn
    return (d.h1[p], d.h2[p], d.hj[p])


def _count(d: CooncanDeal, c: int) -> int:
    p = d.turn
    return (d.h1[p] >> c & 1) + (d.h2[p] >> c & 1)


def _pos_card(suit: int, pos: int) -> int:
    """The natural card at a sequence position: 1 and 14 are both the ace (R2.2)."""
    return make_card(1 if pos in (1, 14) else pos, suit)


def _joker(suit: int, pos: int) -> str:
    return "X=" + card_str(_pos_card(suit, pos))


def _fillings(suit: int, places: list[int], held: dict[int, int], jokers: int) -> Iterator[list[str]]:
    """Every way to fill ``places`` of a sequence of ``suit`` from the hand: each place its natural
    (if held) or a joker named for it (R2.3: a joker may be called any card, held or not), using
    at most ``jokers`` jokers.  A natural is used once (a place holds one card)."""
    need = [p for p in places if not held.get(_pos_card(suit, p))]
    if len(need) > jokers:
        return
    free = [p for p in places if p not in need]
    for extra in range(jokers - len(need) + 1):
        for more in combinations(free, extra):
            as_joker = set(need) | set(more)
            if len({_pos_card(suit, p) for p in places if p not in as_joker}) < len(places) - len(as_joker):
                continue  # the ace low and the ace high: one card, never both (R2.2)
            yield [_joker(suit, p) if p in as_joker else card_str(_pos_card(suit, p)) for p in places]


def _spans(lo: int, hi: int) -> Iterator[tuple[int, int]]:
    """The spans a sequence of ``lo..hi`` may grow to: never past an ace, never both aces (R2.2)."""
    for new_lo in range(lo, 0, -1):
        for new_hi in range(hi, 15):
            if (new_lo, new_hi) != (lo, hi) and not (new_lo == 1 and new_hi == 14):
                yield new_lo, new_hi


def candidates(d: CooncanDeal) -> Iterator[str]:
    """Every lay-out, add and joker move of the seat to act that the rules may allow (R2.2, R2.3,
    R4.3, R4.4), in notation, from its hand and the table; the engine's check has the last word."""
    seat = d.turn + 1
    p = d.turn
    jokers = d.hj[p]
    held = {c: _count(d, c) for c in range(64) if c != JOKER and _count(d, c)}
    # lay-outs: sets (any cards of a rank, duplicates of the double pack included, jokers)
    for rank in range(1, 14):
        cards = [make_card(rank, s) for s in range(4)]
        counts = [held.get(c, 0) for c in cards]
        if sum(counts) == 0:
            continue
        for pick in product(*(range(k + 1) for k in counts)):
            naturals = [card_str(c) for c, k in zip(cards, pick, strict=True) for _ in range(k)]
            if not naturals:
                continue
            for j in range(jokers + 1):
                if len(naturals) + j >= 3:
                    yield f"p{seat} meld " + " ".join(naturals + ["X"] * j)
    # lay-outs: sequences, each joker named for its place
    for suit in range(4):
        for lo in range(1, 13):
            for hi in range(lo + 2, 15):
                if lo == 1 and hi == 14:
                    continue
                for cells in _fillings(suit, list(range(lo, hi + 1)), held, jokers):
                    if any(not t.startswith("X") for t in cells):  # at least one natural (R2.3)
                        yield f"p{seat} meld " + " ".join(cells)
    # adds and joker moves
    for k, cb in enumerate(d.combos, 1):
        if not cb.is_run:
            cards = [make_card(cb.key, s) for s in range(4)]
            counts = [held.get(c, 0) for c in cards]
            for pick in product(*(range(n + 1) for n in counts)):
                naturals = [card_str(c) for c, n in zip(cards, pick, strict=True) for _ in range(n)]
                for j in range(jokers + 1):
                    if naturals or j:
                        yield f"p{seat} add {k} " + " ".join(naturals + ["X"] * j)
            continue
        suit, lo, hi = cb.key, cb.low_position, cb.high_position
        for new_lo, new_hi in _spans(lo, hi):
            places = [*range(new_lo, lo), *range(hi + 1, new_hi + 1)]
            for cells in _fillings(suit, places, held, jokers):
                yield f"p{seat} add {k} " + " ".join(cells)
        # R2.3: an uncrossed joker at an end moves to the other end, if that end can grow
        ends = []
        if cb.cells[0] == JOKER and not cb.crossed >> lo & 1:
            ends.append(("low", lo + 1, hi + 1))
        if cb.cells[-1] == JOKER and not cb.crossed >> hi & 1:
            ends.append(("high", lo - 1, hi - 1))
        ends = [e for e in ends if e[1] >= 1 and e[2] <= 14 and not (e[1] == 1 and e[2] == 14)]
        for which, mlo, mhi in ends:
            word = f" {which}" if len(ends) > 1 else ""
            for new_lo, new_hi in _spans(mlo, mhi):
                places = [*range(new_lo, mlo), *range(mhi + 1, new_hi + 1)]
                for cells in _fillings(suit, places, held, jokers):
                    yield f"p{seat} shift {k}{word} " + " ".join(cells)


@dataclass
class Reach:
    """What a search found from one position: the hands it can leave, and the outcomes (hand and
    table); ``cut`` when it stopped at its budget of states."""

    hands: set[Hand] = field(default_factory=set)
    outcomes: set[State] = field(default_factory=set)
    states: int = 0
    cut: bool = False


def everything(deal: CooncanDeal, budget: int = 20_000) -> Reach:
    """Every outcome of the rest of the turn by any legal actions (the engine's ``verify`` judges
    each candidate of :func:`candidates`; the listing is not used)."""
    out = Reach()
    seen: set[State] = set()
    stack = [deal]
    while stack:
        d = stack.pop()
        key = _key(d)
        if key in seen:
            continue
        seen.add(key)
        out.hands.add(_hand(d))
        out.outcomes.add(key)
        if len(seen) > budget:
            out.cut = True
            break
        if d.over:
            continue
        for text in candidates(d):
            try:
                raw = d.verify(text)
            except ConquianError:
                continue
            nxt = d.copy()
            nxt.apply_raw(*raw)
            stack.append(nxt)
    out.states = len(seen)
    return out


def listed(deal: CooncanDeal, leave_out: frozenset[int] = frozenset()) -> Reach:
    """Every outcome of the rest of the turn by listed actions alone (discards left out, and the
    raw kinds of ``leave_out``: to see what a part of the listing is needed for)."""
    out = Reach()
    seen: set[State] = set()
    stack = [deal]
    while stack:
        d = stack.pop()
        key = _key(d)
        if key in seen:
            continue
        seen.add(key)
        out.hands.add(_hand(d))
        out.outcomes.add(key)
        if d.over:
            continue
        for kind, arg in d.legal_raw():
            if kind != K_DISCARD and kind not in leave_out:
                nxt = d.copy()
                nxt.apply_raw(kind, arg)
                stack.append(nxt)
    out.states = len(seen)
    return out


def _size(h: Hand) -> int:
    return h[0].bit_count() + h[1].bit_count() + h[2]


def hand_text(h: Hand) -> str:
    """A hand (h1, h2, jokers) in notation."""
    cards = [c for c in range(64) for _ in range((h[0] >> c & 1) + (h[1] >> c & 1))]
    return " ".join([card_str(c) for c in cards] + ["X"] * h[2])


def positions(variant: str, players: int, deals: int, seed: int = 0, every: int = 1) -> Iterator[CooncanDeal]:
    """Positions of the play stage from deals of random and foster bots (seats alternate), every
    ``every``-th one."""
    rules = get_rules(variant, players=players)
    k = 0
    for s in range(deals):
        bots = [make_bot("foster" if (i + s) % 2 else "random", seed=seed * 1000 + s * 10 + i) for i in range(players)]
        deal = CooncanDeal(rules, seed=seed * 100_000 + s, dealer=1 + s % players)
        while not deal.over:
            if deal.stage == PLAY:
                if k % every == 0:
                    yield deal.copy()
                k += 1
            seat = deal.to_act
            assert seat is not None
            deal.play(bots[seat - 1].choose(deal.view(seat)))


@dataclass
class Row:
    """One preset's figures."""

    variant: str
    players: int
    positions: int = 0
    layable: int = 0
    layable_missed: int = 0
    go_out: int = 0
    go_out_missed: int = 0
    outcomes: int = 0
    outcomes_missed: int = 0
    cut: int = 0
    largest_listing: int = 0
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)


def compare(deal: CooncanDeal, row: Row, budget: int = 20_000) -> None:
    """Add one position's comparison to ``row``."""
    full = everything(deal, budget)
    if full.cut:
        row.cut += 1
        return
    mine = listed(deal)
    row.largest_listing = max(row.largest_listing, len(deal.legal_raw()))
    start = _hand(deal)
    row.positions += 1
    laid = full.hands - {start}
    row.layable += len(laid)
    missed = laid - mine.hands
    row.layable_missed += len(missed)
    row.outcomes += len(full.outcomes)
    row.outcomes_missed += len(full.outcomes - mine.outcomes)
    if any(_size(h) <= 1 for h in full.hands):
        row.go_out += 1
        if not any(_size(h) <= 1 for h in mine.hands):
            row.go_out_missed += 1
    if missed and len(row.examples) < 5:
        table = "; ".join(str(c) for c in deal.combos) or "-"
        lays = min(missed, key=_size)
        row.examples.append(f"hand {hand_text(start)}, table {table}: cannot leave {hand_text(lays)}")


def measure(variant: str, players: int, deals: int, seed: int = 0, budget: int = 20_000) -> Row:
    """One preset's row over ``deals`` deals."""
    row = Row(variant, players)
    t0 = time.perf_counter()
    for deal in positions(variant, players, deals, seed):
        compare(deal, row, budget)
    row.seconds = time.perf_counter() - t0
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=150, help="deals a preset")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, default=20_000, help="states the full search may visit per position")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args(argv)
    rows = [measure(v, n, args.deals, args.seed, args.budget) for v, n in CONFIGS]
    if args.json:
        print(json.dumps([asdict(r) for r in rows]))
        return 0
    print(f"Random and foster bots, {args.deals} deals a preset; every position of the play stage")
    print("| preset | positions | layable sets | not reachable | chances to go out | not reachable "
          "| outcomes (hand and table) | not reachable |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r.variant}, {r.players} | {r.positions:,} | {r.layable:,} | {r.layable_missed:,} | {r.go_out:,} "
              f"| {r.go_out_missed:,} | {r.outcomes:,} | {r.outcomes_missed:,} |")
    for r in rows:
        extra = f"; {r.cut} positions past the search's budget left out" if r.cut else ""
        print(f"{r.variant}, {r.players}: largest listing {r.largest_listing}, {r.seconds:.0f} s{extra}")
        for e in r.examples:
            print("   ", e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
