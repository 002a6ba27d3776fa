"""The research preset ``conquian-tiny`` (issue 42): its rules, its play, its OpenSpiel game and
the exact tools on a part of its tree (the whole tree's figures: benchmarks/tiny_exploitability.py)."""

from __future__ import annotations

import random
from math import comb

import pytest

from conquian.engine.cards import CardSet
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.deck import pack_order
from conquian.engine.errors import NotationError
from conquian.engine.match import new_deal
from conquian.engine.rules import MEXICANO, PRESETS, RESEARCH_PRESETS, get_rules

TINY = get_rules("conquian-tiny")


def test_preset_is_r8_for_two_without_the_exchange_on_eight_cards() -> None:
    # R8.3: with two players and no exchange (R8.2) this is R3; R8.5: out with hand + 1 = 4
    assert TINY.family == MEXICANO and TINY.research
    assert (TINY.players, TINY.hand_size, TINY.exchange, TINY.exhausted) == (2, 3, False, "tablas")
    assert str(CardSet(sum(1 << c for c in pack_order(TINY)))) == "Ac Ad Ah As 2c 2d 2h 2s"
    assert TINY.pack_size == 8
    # not a form of the game offered for play: the lobby, `play` and the records know PRESETS
    assert "conquian-tiny" not in PRESETS and RESEARCH_PRESETS["conquian-tiny"] is TINY
    # the game presets keep their validation: R8.1 refuses a hand of three to conquian-mexicano
    with pytest.raises(NotationError, match="R8.1"):
        get_rules("conquian-mexicano", hand=3)


def test_preset_options_are_checked() -> None:
    assert get_rules("conquian-tiny", exchange=True).options_diff() == {"exchange": True}
    assert get_rules("conquian-tiny", exhausted="fewest").exhausted == "fewest"
    with pytest.raises(NotationError, match="R8.1.*hand"):
        get_rules("conquian-tiny", hand=4)
    with pytest.raises(NotationError, match="R1.*2 to 2 players"):
        get_rules("conquian-tiny", players=3)
    with pytest.raises(NotationError, match="R8.1.*exhausted"):
        get_rules("conquian-tiny", exhausted="never")


def _every_card_once(deal: MexicanoDeal) -> None:
    parts = [*deal.hands, deal.buried, sum(1 << c for c in deal.deck[deal.pos:])]
    parts += [m for side in deal.sides for m in side]
    if deal.card >= 0:
        parts.append(1 << deal.card)
    total = 0
    for part in parts:
        assert total & part == 0, "a card in two places"
        total |= part
    assert total == sum(1 << c for c in pack_order(TINY)), "a card lost"


@pytest.mark.parametrize("rules", [TINY, get_rules("conquian-tiny", exchange=True),
                                   get_rules("conquian-tiny", exhausted="fewest")])
def test_random_play_conserves_the_cards(rules: object) -> None:
    rng = random.Random(42)
    pack = pack_order(TINY)
    ends = {"win": 0, "draw": 0}
    for i in range(300):
        deal = new_deal(rules, tuple(rng.sample(pack, len(pack))), dealer=1 + i % 2)  # type: ignore[arg-type]
        assert isinstance(deal, MexicanoDeal)
        while not deal.over:
            _every_card_once(deal)
            for p in range(2):  # R3.2 with hand in place of ten (R8.3): hand and table are three,
                # and four while the player who used a card has still to discard (R3.5)
                down = sum(m.bit_count() for m in deal.sides[p])
                paying = deal.phase == "discard" and deal.to_act == deal.seats[p]
                assert deal.hands[p].bit_count() + down == (4 if paying else 3)
            deal.play(rng.choice(deal.legal_actions()))
        _every_card_once(deal)
        scores = deal.scores()
        assert scores is not None and sum(scores) == 0
        if any(scores):
            winner = deal.winner_seat
            assert winner is not None and scores[winner - 1] == 1
            down = sum(len(m) for m in deal.side(winner))
            # R8.5: out with hand + 1; or R8.6's fewest cards in hand once the pack is empty
            assert down == 4 or (deal.rules.exhausted == "fewest" and deal.pack_count == 0)
            ends["win"] += 1
        else:
            ends["draw"] += 1
    assert ends["win"] > 50 and ends["draw"] > 50


pyspiel = pytest.importorskip("pyspiel")


def _game(**params: object) -> object:
    import conquian.envs.openspiel  # noqa: F401

    return pyspiel.load_game("python_conquian_tiny", params)


def test_openspiel_game_plays() -> None:
    game = _game()
    pyspiel.random_sim_test(game, num_sims=40, serialize=False, verbose=False)
    assert game.max_chance_outcomes() == comb(8, 3) and game.num_players() == 2


def test_openspiel_deals_each_hand_as_one_outcome() -> None:
    state = _game().new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1]  # R6.1: the cut for the deal
    state.apply_action(1)  # p2 deals: p1 is dealt first (R8.2)
    state.apply_action(0)
    assert str(state) == "p2 dealing: 3 of 8 cards"
    state = _game(dealer=2).new_initial_state()
    sizes = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        sizes.append(len(outcomes))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[-1][0])
    assert sizes == [comb(8, 3), comb(5, 3), 2, 1]  # p1's hand, p2's hand, the pack's two cards
    deal = state.deal
    # the last hand of the pack's cards in order (c d h s, A 2), the last of those left, ...
    assert str(deal.hand(1)) == "As 2h 2s" and str(deal.hand(2)) == "Ad Ah 2d"
    # R8.2: card k of the deck goes to the k % 2-th player after the dealer, then the pack
    assert [str(CardSet(1 << c)) for c in deal.deck] == ["2h", "Ad", "As", "2d", "2s", "Ah", "2c", "Ac"]
    assert "dealt As 2h 2s" in state.information_state_string(0)
    assert "As 2h 2s" not in state.information_state_string(1)  # hidden information stays hidden
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) != ""


def _engine_count(deal: MexicanoDeal) -> int:
    """Decision and terminal states below a deal, counted by the engine alone."""
    if deal.over:
        return 1
    total = 1
    for action in deal.legal_actions():
        child = deal.copy()
        child.play(action)
        total += _engine_count(child)
    return total


def test_tree_walk_agrees_with_the_engine() -> None:
    from conquian.envs.exact import walk

    state = _game(dealer=1).new_initial_state()
    state.apply_action(0)  # p2's hand (p2 plays first: p1 deals): Ac 2c Ad
    tree = walk(state.get_game(), state)
    # chance: this node, p1's 10 hands, 2 cards for the pack's top each, then 1
    assert tree.chance == 1 + comb(5, 3) + comb(5, 3) * 2
    expected = 0
    for hand in range(comb(5, 3)):
        for top in range(2):
            s = state.child(state.chance_outcomes()[hand][0])
            s.apply_action(s.chance_outcomes()[top][0])
            s.apply_action(s.chance_outcomes()[0][0])
            expected += _engine_count(s.deal)
    assert tree.decisions + tree.terminals == expected
    assert tree.histories == tree.chance + expected


def test_exact_tools_on_a_subgame() -> None:
    from conquian.envs.exact import bot_policy, efg_infosets, from_efg, tabular, uniform, walk

    state = _game(dealer=1).new_initial_state()
    state.apply_action(0)  # a subgame: the first hand known, the rest dealt by chance
    tree = walk(state.get_game(), state)
    efg = tree.efg()
    sets = efg_infosets(efg)
    assert len(sets) == sum(len(s) for s in tree.infosets)
    random_x = pyspiel.exploitability(efg, tabular(efg, sets, uniform(tree)))
    foster_x = pyspiel.exploitability(efg, tabular(efg, sets, bot_policy(tree, "foster")))
    solver = pyspiel.CFRPlusSolver(efg)
    for _ in range(30):
        solver.evaluate_and_update_policy()
    cfr_x = pyspiel.exploitability(efg, solver.average_policy())
    assert 0 <= cfr_x < 0.02 < random_x <= 1 and 0 <= foster_x <= 1
    assert cfr_x < random_x / 10
    # the solver's policy read back per information-state string of the Python game
    back = from_efg(sets, solver.average_policy())
    assert all(sum(p for _, p in pairs) == pytest.approx(1.0) for pairs in back.values())
    assert pyspiel.exploitability(efg, tabular(efg, sets, back)) == pytest.approx(cfr_x)


def test_openspiel_state_pickles_and_resamples() -> None:
    import pickle

    game = _game()
    rng = random.Random(5)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions = [a for a, _ in state.chance_outcomes()]
            else:
                player = state.current_player()
                # a re-deal of the unseen cards keeps the player's information set (hidden cards only)
                other = state.resample_from_infostate(player, rng.random)
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.history()[:1] == state.history()[:1]  # the same cut for the deal
                actions = state.legal_actions()
            state.apply_action(rng.choice(actions))
        again = pickle.loads(pickle.dumps(state))
        assert again.history() == state.history() and again.returns() == state.returns()


def test_the_whole_tree_has_the_size_docs_research_gives() -> None:
    # every deal with p1 dealing, counted by the engine alone: the figure of docs/research.md
    # (41,833 histories: these 40,096 decisions and ends, and the chance nodes below)
    from itertools import combinations, permutations

    pack = sorted(pack_order(TINY))
    states = deals = 0
    for first in combinations(pack, 3):  # p2's hand: p2 plays first (R8.2)
        rest = [c for c in pack if c not in first]
        for second in combinations(rest, 3):
            left = [c for c in rest if c not in second]
            for order in permutations(left):
                deck = [c for pair in zip(first, second, strict=True) for c in pair] + list(order)
                deal = new_deal(TINY, tuple(deck), dealer=1)
                assert isinstance(deal, MexicanoDeal) and str(deal.hand(2)) == str(CardSet(sum(1 << c for c in first)))
                states += _engine_count(deal)
                deals += 1
    assert deals == comb(8, 3) * comb(5, 3) * 2 == 1120
    # chance: p2's hand (one node), p1's (56), the pack's top card (560), its last card (one a deal)
    chance = 1 + comb(8, 3) + comb(8, 3) * comb(5, 3) + deals
    assert (states, chance, states + chance) == (40_096, 1_737, 41_833)
