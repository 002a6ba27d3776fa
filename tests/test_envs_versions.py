"""The versions of the action space (issue 36, docs/encodings.md): version 1 gives every listed
action its own index, version 0 (the ``*_v0`` environments, deprecated) keeps its first space."""

from __future__ import annotations

import importlib
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np

from conquian import get_rules
from conquian.engine.actions import Use
from conquian.engine.cards import CardSet, parse_card
from conquian.engine.conquian.listing import use_forms
from conquian.engine.conquian.melds import meld_table
from conquian.engine.cooncan.deal import hand_threes
from conquian.engine.match import new_deal
from conquian.envs.encoding import LATEST, VERSIONS, encoding, hand_bits, hand_cards

CONQUIAN_PRESETS = [("conquian", {}), ("conquian-spanish", {}), ("conquian", {"players": 3}),
                    ("conquian-mexicano", {}), ("conquian-mexicano", {"players": 3}),
                    ("conquian-mexicano", {"players": 4}), ("conquian-mexicano", {"players": 3, "hand": 9}),
                    ("conquian-mexicano", {"exchange": False})]
MODULES = ["conquian", "conquian_spanish", "cooncan", "cooncan_double", "conquian_mexicano"]


def _holding(melds: tuple[int, ...], card: int) -> int:
    return next(m for m in melds if m >> card & 1)


def _random_deals(variant: str, options: dict[str, Any], deals: int, seed: int) -> Any:
    """Every decision of ``deals`` random deals: ``(deal, seat, view)``, the actions chosen at
    random among the listed ones, a further use (several laid at once) preferred one time in three."""
    rules = get_rules(variant, **options)
    rng = random.Random(seed)
    for k in range(deals):
        deal = new_deal(rules, seed=seed * 1000 + k, dealer=rng.randint(1, rules.players))
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            yield deal, seat, view
            legal = deal.legal_actions()
            big = [a for a in legal if isinstance(a, Use) and len(a.melds) > 1]
            deal.play(rng.choice(big) if big and rng.random() < 0.33 else rng.choice(legal))


@pytest.mark.parametrize(("variant", "options"), CONQUIAN_PRESETS)
def test_version_1_gives_every_listed_action_exactly_one_index(variant: str, options: dict[str, Any]) -> None:
    """Over random play of every preset: the mask marks exactly the listed actions, each listed
    action has one index and its index gives it back; the first use of each combination holding
    the card in play is numbered by that combination, every further one by the hand cards it
    lays (so going out, when not the first, is ``A_LAY + 2 ** len(hand) - 1``)."""
    rules = get_rules(variant, **options)
    enc = encoding(rules)
    assert enc.version == LATEST == 1
    further = outs = 0
    for deal, seat, view in _random_deals(variant, options, 40, 3):
        legal = deal.legal_actions()
        mask = enc.mask(view)
        idx = [int(i) for i in np.flatnonzero(mask)]
        assert len(idx) == len(legal) == len({str(a) for a in legal})
        back = {i: enc.action(i, view) for i in idx}
        assert sorted(map(str, back.values())) == sorted(map(str, legal))
        first: dict[int, int] = {}  # combination holding the card -> its index
        hand = view.hand_mask
        for raw in view.legal_raw():  # in the listing's order (legal_actions() sorts by notation)
            a = enc._to_action(raw, view)
            i = enc.index_of(a, view)
            assert i is not None and back[i] == a
            if not isinstance(a, Use):
                assert i < enc.A_USE or (enc.mexicano and i >= enc.A_GIVE)
                continue
            m = _holding(a.melds, view.card)
            if m not in first:
                first[m] = i
                assert i == enc.A_USE + enc.meld_index[m]
                continue
            laid = hand & sum(a.melds)
            assert i == enc.A_LAY + hand_bits(laid, hand) and hand_cards(i - enc.A_LAY, hand) == laid
            assert enc.action_text(i, seat, view) == str(a)
            further += 1
            outs += laid == hand
    assert further > 0 and (outs > 0 or variant == "conquian-mexicano")


@pytest.mark.parametrize(("variant", "options"), CONQUIAN_PRESETS[:5])
def test_version_0_marks_the_first_use_of_each_combination_only(variant: str, options: dict[str, Any]) -> None:
    """The first space, kept as it was: a use is its combination holding the card in play, the
    first listed use with that combination; the other listed actions as in version 1."""
    rules = get_rules(variant, **options)
    v0, v1 = encoding(rules, 0), encoding(rules, 1)
    assert v1.n_actions == v0.n_actions + (1 << v1.lay_bits) and v0.n_actions == v1.A_LAY
    dropped = 0
    for _deal, _seat, view in _random_deals(variant, options, 25, 5):
        listed0, listed1 = v0.listed(view), v1.listed(view)
        assert {i: r for i, r in listed1.items() if i < v1.A_LAY} == listed0
        expected: dict[int, str] = {}
        for raw in view.legal_raw():
            a = v0._to_action(raw, view)
            i = v0.A_USE + v0.meld_index[_holding(a.melds, view.card)] if isinstance(a, Use) else v1.index_of(a, view)
            assert i is not None
            expected.setdefault(i, str(a))
        assert {i: str(v0.action(i, view)) for i in listed0} == expected
        assert np.array_equal(v0.mask(view), np.isin(np.arange(v0.n_actions), list(expected)).astype(np.int8))
        dropped += len(listed1) - len(listed0)
    assert dropped > 0  # version 0 cannot express every listed use


def test_going_out_with_the_card_of_a_listed_three_is_the_whole_hand() -> None:
    """Issue 36's planted position: the pone holding 2c-6c, 7d 7h 7s, 9h 10h goes out with the 8h
    (``use 8h 9h 10h | 2c 3c 4c 5c 6c | 7d 7h 7s``); the three 8h 9h 10h is listed first, so the
    going out is the further use laying all ten hand cards."""
    rules = get_rules("conquian")
    enc = encoding(rules)
    tbl = meld_table(rules)
    hand = CardSet.parse("2c 3c 4c 5c 6c 7d 7h 7s 9h 10h").mask
    card = parse_card("8h")
    numbered = enc.number_uses(card, hand, use_forms(tbl, (), 0, hand, card))
    assert len({i for i, _ in numbered}) == len(numbered)
    out = [(i, f) for i, f in numbered if sum(f) == hand | 1 << card]
    assert len(out) == 1 and out[0][0] == enc.A_LAY + 2 ** 10 - 1
    assert sorted(out[0][1]) == sorted(CardSet.parse(m).mask for m in ("8h 9h 10h", "2c 3c 4c 5c 6c", "7d 7h 7s"))
    assert enc.A_USE + enc.meld_index[CardSet.parse("8h 9h 10h").mask] in {i for i, _ in numbered}
    assert enc.action_text(out[0][0], 2) == "p2 use laying hand cards 1 2 3 4 5 6 7 8 9 10"
    assert encoding(rules, 0).number_uses(card, hand, use_forms(tbl, (), 0, hand, card)) == \
        [(i, f) for i, f in numbered if i < enc.A_LAY]  # version 0 cannot offer it


@pytest.mark.parametrize("variant,options,size", [("cooncan", {}, 7569), ("cooncan-double", {}, 15389),
                                                  ("conquian", {}, 275), ("conquian-spanish", {}, 275),
                                                  ("conquian-mexicano", {"players": 4}, 395)])
def test_the_first_space_keeps_its_size(variant: str, options: dict[str, Any], size: int) -> None:
    assert encoding(get_rules(variant, **options), 0).n_actions == size


@pytest.mark.parametrize("variant", ["cooncan", "cooncan-double"])
def test_cooncan_meld_block_covers_every_three_a_hand_can_lay(variant: str) -> None:
    """Version 1's meld block is every three-card lay-out the listing gives a hand holding every
    card (and the jokers a hand can hold, two at most); version 0's is the first listing's (at
    most one joker, or a set of a natural card and two jokers), in the same order."""
    rules = get_rules(variant)
    v0, v1 = encoding(rules, 0), encoding(rules, 1)
    full = sum(1 << c for c in v1.cards)
    assert set(v1.threes) == set(hand_threes(full, full if rules.copies == 2 else 0, min(rules.jokers, 2)))
    assert [t for t in v1.threes if t in v0.three_index] == v0.threes
    assert v1.n_actions - v0.n_actions == len(v1.threes) - len(v0.threes) + len(getattr(v1, "runs3", ()))


@pytest.mark.parametrize("name", MODULES)
def test_v0_modules_are_deprecated_and_v1_modules_are_not(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v1 = importlib.import_module(f"conquian.envs.{name}_v1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v0 = importlib.import_module(f"conquian.envs.{name}_v0")
    with pytest.deprecated_call(match=f"{name}_v1"):
        importlib.reload(v0)
    e0, e1 = v0.raw_env(), v1.raw_env()
    assert (e0.metadata["name"], e1.metadata["name"]) == (f"{name}_v0", f"{name}_v1")
    assert (e0.enc.version, e1.enc.version) == (0, 1)
    n0, n1 = e0.action_space("player_1").n, e1.action_space("player_1").n
    assert n1 >= n0 and (n1 > n0) == (name != "cooncan")  # double-pack Cooncan: the two-joker sequences


def test_the_other_interfaces_take_a_version() -> None:
    from conquian.envs.gym import ConquianGymEnv
    from conquian.envs.league import PolicyBot
    from conquian.envs.vector import ConquianVectorEnv, first_legal

    rules = get_rules("conquian")
    for version in VERSIONS:
        n = encoding(rules, version).n_actions
        assert ConquianGymEnv("conquian", version=version).action_space.n == n
        assert ConquianVectorEnv("conquian", 2, version=version).single_action_space.n == n
        assert len(PolicyBot(first_legal, rules, version=version).observe(new_deal(rules, seed=1).view(1))[1]) == n
    with pytest.raises(ValueError, match="version"):
        encoding(rules, 2)
