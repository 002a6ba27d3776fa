"""What the public paths share and keep between states gives what they gave when made afresh (issue 28).

The listing keeps its actions and each state's listing; a view's events are made once per line of play
and shared; re-deals fold the public history once per line of play; a seat's log is rendered once per
language.  Each is checked here against the way it was made before, on random deals of every preset.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from conquian import get_rules
from conquian.bots.determinize import _ChoicesSeen, _CooncanSeen, determinize
from conquian.engine.conquian.deal import ConquianDeal, conquian_events
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_events import mexicano_events
from conquian.engine.cooncan.deal import CooncanDeal, cooncan_events
from conquian.engine.deal import flatten
from conquian.engine.errors import ConquianError
from conquian.engine.history import Events, clear, folded
from conquian.engine.match import Deal, new_deal
from conquian.engine.rules import Rules
from conquian.session import GameSession

CONFIGS = [
    ("conquian", 2, {}), ("conquian", 3, {}), ("conquian-spanish", 2, {}), ("cooncan", 3, {}),
    ("cooncan", 3, {"stock": "open"}), ("cooncan", 3, {"discard_taken": False}), ("cooncan-double", 5, {}),
    ("conquian-mexicano", 2, {}), ("conquian-mexicano", 3, {}), ("conquian-mexicano", 4, {"exchange": False}),
]


def rules_of(config: tuple[str, int, dict[str, Any]]) -> Rules:
    variant, n, options = config
    return get_rules(variant, players=n, **options)


def eager_legal(deal: Deal) -> list[str]:
    """The listing as it was made before it was kept: every raw action made an action, sorted by notation."""
    seen: dict[str, Any] = {}
    for raw in deal.legal_raw():
        a = deal.to_action(raw)
        seen.setdefault(str(a), a)
    return [str(seen[k]) for k in sorted(seen)]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{'-'.join(map(str, c[2].values()))}")
def test_listed_actions_play_as_checked_actions_do(config: tuple[str, int, dict[str, Any]]) -> None:
    rules = rules_of(config)
    rng = random.Random(5)
    for seed in range(12):
        deal = new_deal(rules, seed=seed, dealer=1 + seed % rules.players)
        while not deal.over:
            listed = deal.legal_actions()
            assert [str(a) for a in listed] == eager_legal(deal)
            assert deal.legal_actions() == listed and deal.legal_actions() is not listed
            for a in listed:
                fast, checked, text = deal.copy(), deal.copy(), deal.copy()
                fast.legal_actions()
                assert fast.play(a) is a  # the listed object: played from the listing
                checked.apply_raw(*checked.verify(a))  # the way every action was played before
                text.legal_actions()
                assert str(text.play(str(a))) == str(a)
                assert fast == checked == text
                assert fast.history() == checked.history()
            chosen = rng.choice(listed)
            assert deal.is_legal(chosen)
            deal.play(chosen)
            if listed and not deal.over:
                # an action listed for an earlier state is checked again, never played unchecked
                again = deal.copy()
                try:
                    again.play(listed[0])
                except ConquianError:
                    assert again == deal
                else:
                    assert again != deal


def test_a_refusal_after_a_listing_leaves_the_state_and_the_listing_as_they_were() -> None:
    deal = ConquianDeal(get_rules("conquian"), seed=4, dealer=2)
    listed = deal.legal_actions()
    before = deal.copy()
    with pytest.raises(ConquianError) as refused:
        deal.play("p2 pass")
    assert refused.value.rule == "R3.3" and deal == before and deal.legal_actions() == listed


def eager_events(deal: Deal, seat: int) -> tuple[Any, ...]:
    if isinstance(deal, ConquianDeal):
        return conquian_events(deal.events, deal.seats)
    if isinstance(deal, MexicanoDeal):
        return mexicano_events(deal.events, deal.seats)
    return cooncan_events(deal.events, {seat - 1: deal.drawn[seat - 1]})


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c[0]}-{c[1]}-{'-'.join(map(str, c[2].values()))}")
def test_shared_events_equal_the_events_made_afresh(config: tuple[str, int, dict[str, Any]]) -> None:
    rules = rules_of(config)
    rng = random.Random(8)
    for seed in range(6):
        deal = new_deal(rules, seed=seed, dealer=1 + seed % rules.players)
        forks: list[Deal] = []
        while not deal.over:
            for seat in range(1, rules.players + 1):
                v = deal.view(seat)
                assert isinstance(v.events, Events)
                assert v.events == eager_events(deal, seat) and len(v.events) == v.n_events
            if rng.random() < 0.1:
                forks.append(deal.copy())
            deal.apply_raw(*deal.random_raw(rng.random))
        # lines of play that left this one go their own way, without changing what was made
        for fork in forks:
            while not fork.over:
                fork.apply_raw(*fork.random_raw(rng.random))
                seat = rng.randint(1, rules.players)
                assert fork.view(seat).events == eager_events(fork, seat)
        assert deal.view(1).events == eager_events(deal, 1)


def test_events_read_as_the_tuple_they_stand_for() -> None:
    deal = CooncanDeal(get_rules("cooncan"), seed=1, dealer=3)
    rnd = random.Random(1).random
    while deal.n_events < 30:
        deal.apply_raw(*deal.random_raw(rnd))
    ev = deal.view(2).events
    made = eager_events(deal, 2)
    assert tuple(ev) == made and list(reversed(ev)) == list(reversed(made))
    assert ev[3] == made[3] and ev[-1] == made[-1] and ev[2:9:3] == made[2:9:3] and ev[-4:] == made[-4:]
    assert hash(ev) == hash(made) and repr(ev) == repr(made) and ev != made[:-1]
    with pytest.raises(IndexError):
        ev[len(made)]
    clear()
    assert deal.view(2).events == ev  # made again from the start


def folded_before(v: Any) -> tuple[Any, ...]:
    """What re-dealing a Cooncan view read from its events before it was folded once per line of play."""
    from conquian.engine.cards import JOKER, parse_card

    n = len(v.hand_counts)
    known: dict[int, list[int]] = {s: [] for s in range(1, n + 1)}
    stock: list[int] = []
    turned: list[int] | None = None
    laid_before, turns = False, 0
    for e in v.events:
        q = e.seat
        if e.kind == "start":
            stock = [e.card or 0]
        elif e.kind == "take":
            c = e.card if e.card is not None else stock[-1]
            del stock[len(stock) - 1 - stock[::-1].index(c)]
            known[q].append(c)
            turns += 1
        elif e.kind == "draw":
            turns += 1
            if turned is not None:
                known[q].append(turned.pop(0))
        elif e.kind == "turnover":
            turned, stock = list(stock), []
        elif e.kind in ("meld", "add", "shift", "discard"):
            shown = [e.card or 0] if e.kind == "discard" else [
                JOKER if t.startswith("X") else parse_card(t) for t in e.cards]
            for c in shown:
                if c in known[q]:
                    known[q].remove(c)
            if e.kind == "discard":
                stock.append(e.card or 0)
            elif q == v.seat:
                laid_before = True
    return known, stock, turned, laid_before, turns


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0].startswith(("cooncan", "conquian-s"))] +
                         [("conquian", 2, {})], ids=lambda c: f"{c[0]}-{c[1]}-{'-'.join(map(str, c[2].values()))}")
def test_redeals_fold_the_history_as_they_read_it_before(config: tuple[str, int, dict[str, Any]]) -> None:
    rules = rules_of(config)
    rng = random.Random(2)
    for seed in range(5):
        deal = new_deal(rules, seed=seed, dealer=1 + seed % rules.players)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            v = deal.view(seat)
            if isinstance(deal, CooncanDeal):
                n = rules.players
                seen = folded(("determinize cooncan", n), v.event_node, lambda n=n: _CooncanSeen(n),
                              _CooncanSeen.step, _CooncanSeen.copy)
                assert (seen.known, seen.stock, seen.turned, seat - 1 in seen.laid, seen.turns) == folded_before(v)
            else:
                seen2 = folded("determinize conquian", v.event_node, _ChoicesSeen, _ChoicesSeen.step, _ChoicesSeen.copy)
                adv = v.seats.index(v.adversary)
                assert seen2.refused[adv] == [e.card for e in v.events if e.seat == v.adversary and e.kind == "pass"]
                assert seen2.discarded[adv] == [e.card for e in v.events
                                                if e.seat == v.adversary and e.kind == "discard"]
            # the same seed re-deals the same cards, at any point of the line of play
            a, b = determinize(v, random.Random(seed)), determinize(v, random.Random(seed))
            assert flatten(a.events) == flatten(b.events) and a.legal_raw() == b.legal_raw()
            deal.apply_raw(*deal.random_raw(rng.random))


def test_a_seats_log_rendered_as_it_grows_equals_the_log_rendered_whole() -> None:
    from conquian.i18n import ENGLISH, Translator

    es = Translator("es")
    s = GameSession(get_rules("cooncan"), ["foster", "foster", "foster"], seed=3)
    for _ in range(120):
        if s.deal.over:
            if s.match_over:
                break
            s.new_deal()
        s.bot_step()
        for seat in (None, 1, 2):
            for tr in (ENGLISH, es):
                whole = [t for t in (line.render(seat, tr) for line in s.lines) if t]
                assert s.log_for(seat, tr) == whole and s.log_tail(seat, tr, 7) == whole[-7:]
    s.lines[:] = s.lines[:5]  # a log cut short is rendered again
    assert s.log_for(1) == [t for t in (line.render(1) for line in s.lines) if t]


@pytest.mark.parametrize("config", CONFIGS[::3], ids=lambda c: f"{c[0]}-{c[1]}")
def test_the_history_in_chunks_is_shared_by_copies_and_kept_by_pickles(config: tuple[str, int, dict[str, Any]]) -> None:
    import copy
    import pickle

    from conquian.engine.history import CHUNK, build, newest_first

    rules = rules_of(config)
    rng = random.Random(11)
    deal = new_deal(rules, seed=3, dealer=rules.players)
    copies: list[tuple[Deal, tuple[Any, ...]]] = []
    while not deal.over:
        if rng.random() < 0.3:
            copies.append((deal.copy(), flatten(deal.events)))
        deal.apply_raw(*deal.random_raw(rng.random))
    def chunks_of(node: Any) -> list[Any]:
        out = []
        while node is not None:
            node, chunk = node
            out.append(chunk)
        return out

    shared = {id(c) for c in chunks_of(deal._node)}
    for kept, events in copies:
        assert flatten(kept.events) == events  # the source went on: the copy's history is its own
        assert all(id(c) in shared for c in chunks_of(kept._node))  # its full chunks are the source's
        twin = kept.copy()
        if not kept.over:  # two copies of one state, each its own move: neither sees the other's
            kept.apply_raw(*kept.legal_raw()[0])
            twin.apply_raw(*twin.legal_raw()[-1])
            for x in (kept, twin):
                after = flatten(x.events)  # newest first: the events before the move end it
                assert len(after) > len(events) and after[len(after) - len(events):] == events
    chunks = [len(c) for c in chunks_of(deal.events)]
    assert all(n == CHUNK for n in chunks[1:]) and sum(chunks) == deal.n_events
    assert build(reversed(flatten(deal.events))) == deal.events
    assert list(newest_first(deal.events, 5)) == list(flatten(deal.events)[:5])
    for again in (pickle.loads(pickle.dumps(deal)), copy.deepcopy(deal)):
        assert again == deal and again.history() == deal.history() and again.deck == deal.deck
