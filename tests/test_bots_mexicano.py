"""The bots play the conquián mexicano (R8): only legal actions, views only, foster's choices on
fixed positions (the exchange R8.2, discarding R8.3, whom to force R8.4), the search blind to
hidden cards, and duplicate-deal tournaments at two and three players."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import conquian.bots.foster_mexicano as fm
from conquian import get_rules
from conquian.bots import bot_names, make_bot
from conquian.bots.determinize import determinize
from conquian.bots.foster import mexicano_obs_from_state, mexicano_obs_from_view
from conquian.engine.actions import Discard, Force, Give, Pass
from conquian.engine.cards import CardSet, cards_of, parse_card
from conquian.engine.conquian.melds import meld_table
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_listing import DISCARD, SAY
from conquian.engine.conquian.mexicano_view import MexicanoView
from conquian.engine.redeal import redeal_unseen
from conquian.tournament import run_tournament

#: (players, hand): R8.1's tables, the nine-card form included
CONFIGS = [(2, 8), (3, 8), (4, 8), (2, 9), (3, 9)]
SMALL = {"expert": {"iterations": 6, "horizon": 30}, "master": {"iterations": 8, "horizon": 30}}


def mask(text: str) -> int:
    return CardSet.parse(text).mask


@pytest.mark.parametrize(("n", "hand"), CONFIGS)
@pytest.mark.parametrize("name", ["random", "foster", "expert", "master"])
def test_bots_only_choose_legal_actions_through_whole_deals(n: int, hand: int, name: str) -> None:
    """R8.2-R8.5: every action a bot returns is legal, gives and targeted forces included; the
    rule bots finish their deals (the search bots play the exchange and the first turns)."""
    search = name in SMALL
    for seed in range(1 if search else 5):
        deal = MexicanoDeal(get_rules("conquian-mexicano", players=n, hand=hand), seed=seed, dealer=n)
        players = [make_bot(name if s == 0 else "foster", seed=seed + s, **(SMALL.get(name, {}) if s == 0 else {}))
                   for s in range(n)]
        steps = 0
        while not deal.over and steps < (3 * n + 25 if search else 5000):
            seat = deal.to_act
            assert seat is not None
            action = players[seat - 1].choose(deal.view(seat))
            assert deal.is_legal(action), (name, str(action))
            deal.play(action)
            steps += 1
        assert deal.over or search


def test_random_plays_every_kind_of_action() -> None:
    """``random`` plays the mexicano's own actions too: gives (R8.2) and forces naming a target
    (R8.4), and its deals end in a win or a draw (R8.5, R8.6)."""
    kinds: set[str] = set()
    for seed in range(40):
        deal = MexicanoDeal(get_rules("conquian-mexicano", players=3), seed=seed, dealer=3)
        bots = [make_bot("random", seed=seed * 3 + s) for s in range(3)]
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            a = bots[seat - 1].choose(deal.view(seat))
            kinds.add(type(a).__name__)
            if isinstance(a, Force):
                assert a.target is not None and a.target != seat
            deal.play(a)
    assert {"Give", "Use", "Pass", "Discard", "Force"} <= kinds


def test_a_bot_is_handed_a_view_only() -> None:
    """A bot takes a MexicanoView and refuses the deal itself (it holds every hidden card)."""
    deal = MexicanoDeal(get_rules("conquian-mexicano", players=3), seed=1, dealer=3)
    for name in bot_names():
        bot = make_bot(name, **SMALL.get(name, {}))
        with pytest.raises(TypeError, match="never MexicanoDeal"):
            bot.choose(deal)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="not the seat to act"):
            bot.choose(deal.view(2))
        assert isinstance(bot.choose(deal.view(1)), Give)  # R8.2: p1 gives first


# ----------------------------------------------------------------- fixed positions
def position(n: int, hands: list[str], sides: list[list[str]], stage: int, actor: int, card: str = "",
             origin: int = 0, first: int = 0) -> MexicanoDeal:
    """A deal after the exchange, set by hand: players by index (0 the first after the dealer,
    seats p1..pN with the dealer last), each player's hand and combinations."""
    deal = MexicanoDeal(get_rules("conquian-mexicano", players=n), seed=0, dealer=n)
    deal.hands = [mask(h) for h in hands]
    deal.sides = [tuple(mask(m) for m in s) for s in sides]
    deal.downs = [sum((m for m in s), 0) for s in deal.sides]
    used = sum(deal.hands) | sum(deal.downs)
    c = parse_card(card) if card else -1
    rest = [x for x in deal.deck if not (used | (1 << c if c >= 0 else 0)) >> x & 1]
    deal.deck = tuple(rest)
    deal.pos = 4  # four cards turned and buried so far; the rest is the pack
    deal.buried = sum(1 << x for x in rest[:4])
    deal.gives = [cards_of(h)[0] if h else 0 for h in deal.hands]  # the exchange is over (R8.2)
    deal.card, deal.stage, deal.actor, deal.origin, deal.first = c, stage, actor, origin, first
    for p in range(n):
        assert (deal.hands[p] | deal.downs[p]).bit_count() == 8 + (stage == DISCARD and p == actor)
    return deal


def test_foster_gives_the_most_isolated_useless_card() -> None:
    """R8.2: the card given is one that connects with nothing in the hand; between two such, the
    one with the fewest combinations through it (K of hearts: one sequence; J of diamonds: three,
    as 7 and J are consecutive, R2.1)."""
    hand = "2c 3c 4c 5d 5h 5s Kh Jd"
    r = get_rules("conquian-mexicano")
    mine = cards_of(mask(hand))
    others = [c for c in cards_of(meld_table(r).pack_mask) if not mask(hand) >> c & 1]
    deck = [mine.pop(0) if i % 2 == 0 else others.pop(0) for i in range(16)] + others
    deal = MexicanoDeal(r, deck, dealer=2)  # R8.2: p1, first after the dealer, gets cards 1, 3, ...
    assert deal.hand(1) == CardSet.parse(hand)
    assert make_bot("foster").choose(deal.view(1)) == Give(1, parse_card("Kh"))


def test_foster_never_discards_into_an_adversarys_combination() -> None:
    """R8.3, R3.5, Foster's rule 4: with dead cards to spare, the card that fits p2's sequence
    (the jack of hearts on 5-6-7 of hearts: 7 and J are consecutive, R2.1) is kept back."""
    deal = position(2, ["6d 6s 6c Jh Kd As", "Ac Ad Ah 2s 3s"], [["2c 3c 4c"], ["5h 6h 7h"]], DISCARD, 0)
    a = make_bot("foster").choose(deal.view(1))
    assert isinstance(a, Discard) and a.card in (parse_card("Kd"), parse_card("As")), str(a)
    # at three players every adversary's combinations count
    deal = position(3, ["6d 6s 6c Jh Kd As", "Ac Ad Ah 2s 3s", "2d 3d 4d 5c 7c Qc Qs Qh"],
                    [["2c 3c 4c"], ["5h 6h 7h"], []], DISCARD, 0)
    a = make_bot("foster").choose(deal.view(1))
    assert isinstance(a, Discard) and a.card in (parse_card("Kd"), parse_card("As")), str(a)


def test_foster_forces_a_card_that_must_go_rather_than_offer_it() -> None:
    """Foster's rules 4-5 (R8.3, R8.4): when the only card left fits adversaries, the discard is
    a force, on the player it fits who holds the most cards (p3, five; not p2, two); when both
    are nearly out (fewer than three cards), it is discarded face up instead."""
    sides = [["2c 3c 4c 5c", "Kd Ks Kc Kh"], ["5h 6h 7h", "2s 3s 4s"], ["Jc Jd Js"]]
    deal = position(3, ["Jh", "Ac Ad", "4d 5d Qc Qd 7s"], sides, DISCARD, 0)
    assert make_bot("foster").choose(deal.view(1)) == Force(1, parse_card("Jh"), 3)
    sides[2] = ["Jc Jd Js", "4d 5d 6d"]
    deal = position(3, ["Jh", "Ac Ad", "Qc Qd"], sides, DISCARD, 0)
    assert make_bot("foster").choose(deal.view(1)) == Discard(1, parse_card("Jh"))


MINE = "2s Ah 5c 6c Ad Qs Kc 4s"  # nothing here combines with the jack of hearts


def test_foster_forces_a_refused_card_on_the_right_target() -> None:
    """R8.4 with three players: p2 discarded the jack of hearts and p3 passed it; it fits both
    their combinations and p1 cannot use it: p1 forces it on p3, who holds five cards, rather
    than on p2, two from going out.  With p3 out of cards (R8.5: a force would put him out),
    p2 is forced; a card nobody refused (p1 turned it) is passed."""
    sides = [[], ["5h 6h 7h", "2c 3c 4c"], ["Jc Jd Js"]]
    deal = position(3, [MINE, "As Kd", "4d 5d Qc Qd Kh"], sides, SAY, 0, "Jh", origin=1, first=2)
    assert make_bot("foster").choose(deal.view(1)) == Force(1, parse_card("Jh"), 3)
    deal = position(3, [MINE, "As Kd", ""], [[], sides[1], ["Jc Jd Js", "3d 4d 5d 6d 7d"]], SAY, 0, "Jh",
                    origin=1, first=2)
    assert make_bot("foster").choose(deal.view(1)) == Force(1, parse_card("Jh"), 2)
    deal = position(3, [MINE, "As Kd", "4d 5d Qc Qd Kh"], sides, SAY, 0, "Jh", origin=0, first=0)
    assert make_bot("foster").choose(deal.view(1)) == Pass(1)


def test_foster_targets_only_players_it_fits() -> None:
    """``force_target`` names only a player one of whose combinations the card fits (R8.4)."""
    deal = position(3, [MINE, "As Kd", "4d 5d Qc Qd Kh"],
                    [[], ["5h 6h 7h", "2c 3c 4c"], ["Jc Jd Js"]], SAY, 0, "Qh", origin=1, first=2)
    o = mexicano_obs_from_view(deal.view(1))
    assert fm.force_target(o, parse_card("Qh"), 1, True) == -1
    assert fm.force_target(o, parse_card("Jh"), 1, True) == 2


def test_the_policy_reads_a_state_as_its_view() -> None:
    """The playouts' observation of a state is the view's (what the seat knows, nothing more)."""
    rng = random.Random(3)
    for seed in range(30):
        deal = MexicanoDeal(get_rules("conquian-mexicano", players=2 + seed % 3), seed=seed, dealer=1)
        for _ in range(rng.randint(0, 60)):
            if deal.over:
                break
            deal.apply_raw(*deal.random_raw(rng.random))
        if deal.over:
            continue
        seat = deal.to_act
        assert seat is not None
        assert mexicano_obs_from_state(deal) == mexicano_obs_from_view(deal.view(seat))


# ----------------------------------------------------------------- the search
def _positions(n: int, count: int) -> list[MexicanoDeal]:
    out = []
    rng = random.Random(n)
    for seed in range(count):
        deal = MexicanoDeal(get_rules("conquian-mexicano", players=n), seed=seed, dealer=n)
        for _ in range(rng.randint(0, 40)):
            if deal.over:
                break
            deal.apply_raw(*deal.random_raw(rng.random))
        if not deal.over:
            out.append(deal)
    return out


@pytest.mark.parametrize("n", [2, 3])
def test_the_search_never_sees_hidden_cards(n: int) -> None:
    """The expert's choice depends on its view only: with every card it has not seen dealt
    again (others' hands, the pack, others' gives, R8.2), it chooses the same, seed for seed."""
    for deal in _positions(n, 6):
        seat = deal.to_act
        assert seat is not None
        if len(deal.view(seat).legal_raw()) < 2:
            continue
        a = make_bot("expert", seed=5, iterations=16, horizon=40).choose(deal.view(seat))
        for k in range(2):
            other = redeal_unseen(deal, seat, random.Random(k))
            assert other.view(seat) == deal.view(seat)
            b = make_bot("expert", seed=5, iterations=16, horizon=40).choose(other.view(seat))
            assert a == b


def test_redeals_of_a_mexicano_view_agree_with_it() -> None:
    """``determinize`` keeps everything the view shows (R8.2: the card given stays with the
    player who got it), and its deals play on to the end with foster's playouts."""
    from conquian.bots.foster import state_policy

    for n in (2, 3, 4):
        for deal in _positions(n, 8):
            seat = deal.to_act
            assert seat is not None
            v = deal.view(seat)
            r = determinize(v, random.Random(1))
            w = r.view(seat)
            assert isinstance(w, MexicanoView)
            assert (w.hand_mask, w.side_masks, w.card, w.stage, w.hand_counts, w.pack_count, w.buried_mask) == (
                v.hand_mask, v.side_masks, v.card, v.stage, v.hand_counts, v.pack_count, v.buried_mask)
            rng = random.Random(2)
            while not r.over:
                raw = state_policy(r, rng)
                assert raw in r.legal_raw()
                r.apply_raw(*raw)


# ----------------------------------------------------------------- tournaments
@pytest.mark.parametrize("n", [2, 3])
def test_tournament_plays_the_mexicano_on_duplicate_deals(n: int) -> None:
    """Every deck once per rotation of the bots over the seats; draws (R8.6) count as ties; the
    scores balance (R8.7); the same seed gives the same figures."""
    r = get_rules("conquian-mexicano", players=n)
    bots = ["foster"] + ["random"] * (n - 1)
    a = run_tournament(r, bots, deals=6, seed=3, workers=1)
    b = run_tournament(r, bots, deals=6, seed=3, workers=1)
    assert a.games == 6 * n and a.results[0].deals == 6 * n
    assert sum(sum(x.scores) for x in a.results) == 0
    foster = a.results[0]
    assert foster.wins + foster.losses + foster.tableaux == foster.deals and foster.voids == 0
    assert [x.scores for x in a.results] == [x.scores for x in b.results]


def test_tournament_cli_mexicano() -> None:
    """``conquian tournament --variant conquian-mexicano --players 3``."""
    p = subprocess.run([sys.executable, "-m", "conquian", "tournament", "--variant", "conquian-mexicano",
                        "--players", "3", "--bots", "foster,random,random", "--deals", "3", "--seed", "2",
                        "--workers", "1", "--json"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["variant"] == "conquian-mexicano" and out["players"] == 3 and out["games"] == 9
    assert [r["bot"] for r in out["results"]] == ["foster", "random"]
    # the players default to the bots listed, as in Cooncan
    p = subprocess.run([sys.executable, "-m", "conquian", "tournament", "--variant", "conquian-mexicano",
                        "--bots", "foster,random,random", "--deals", "2", "--workers", "1", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and json.loads(p.stdout)["players"] == 3, p.stderr
