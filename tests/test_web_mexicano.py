"""The conquián mexicano (R8) at the web table, without a server: the exchange as each seat
knows it, forcing a named seat, the say going round, how a deal ends and its scores (R8.7)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("msgspec")

from conquian import get_rules
from conquian.engine.cards import card_name, card_str
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.redeal import redeal_unseen
from conquian.session import GameSession
from conquian.web.bots import bot_job, choose
from conquian.web.replay import replay_frames
from conquian.web.snapshot import table_snapshot
from conquian.web.table import Table
from test_web_table import _twin, full_table


def mexicano_table(players: int, seed: int, **options: Any) -> Table:
    t = Table("t", "test", get_rules("conquian-mexicano", players=players, **options), seed=seed)
    for s in range(1, players + 1):
        t.sit(s, f"P{s}")
    return t


def deal_of(t: Table) -> MexicanoDeal:
    assert t.session is not None
    deal = t.session.deal
    assert isinstance(deal, MexicanoDeal)
    return deal


def play_out(t: Table, rng: random.Random) -> None:
    while not deal_of(t).over:
        seat = deal_of(t).to_act
        assert seat is not None
        t.act(seat, rng.choice(table_snapshot(t, seat)["legal"]), t.state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_seat_learns_another_seats_card_before_the_exchange_is_over(players: int) -> None:
    """R8.2: every player chooses before any card moves.  At every step of the exchange, each seat's
    snapshot is unchanged when every card it has not seen is dealt again, the cards the others gave
    included (and those do move in the re-deals)."""
    for seed in range(4):
        t = mexicano_table(players, seed)
        for given in range(players + 1):
            deal = deal_of(t)
            for seat in deal.seats:
                mine = json.dumps(table_snapshot(t, seat))
                moved = False
                for k in range(6):
                    other = redeal_unseen(deal, seat, random.Random(seed * 100 + seat * 10 + k))
                    twin = _twin(t, tuple(other.deck), [f"act {a}" for a in other.actions()])
                    assert json.dumps(table_snapshot(twin, seat)) == mine
                    moved |= any(other.given(s) != deal.given(s) for s in deal.seats if s != seat)
                snap = table_snapshot(t, seat)["deal"]["exchange"]
                gave = deal.given(seat)
                assert snap["gave"] == (card_str(gave) if gave is not None else None)
                assert (snap["got"] is None) == (given < players)
                if 0 < given < players and any(deal.given(s) is not None for s in deal.seats if s != seat):
                    assert moved, "the re-deals never moved another seat's given card"
            if given < players:
                seat = deal.to_act
                assert seat is not None and deal.phase == "exchange"
                legal = table_snapshot(t, seat)["legal"]
                assert legal and all(w.startswith("give ") for w in legal)
                t.act(seat, random.Random(seed).choice(legal), t.state)
        assert deal_of(t).phase != "exchange"


def test_the_seat_is_told_what_it_gave_and_got_and_the_others_only_that_it_gave() -> None:
    t = mexicano_table(3, seed=11)
    for _ in range(3):
        seat = deal_of(t).to_act
        assert seat is not None
        t.act(seat, table_snapshot(t, seat)["legal"][0], t.state)
    deal = deal_of(t)
    for seat in deal.seats:
        snap = table_snapshot(t, seat)
        ex = snap["deal"]["exchange"]
        nxt, prev = seat % 3 + 1, (seat - 2) % 3 + 1  # dealer p3: the order of play is p1 p2 p3
        assert (ex["to"], ex["from"], ex["given"]) == (nxt, prev, [1, 2, 3])
        assert ex["gave"] == card_str(deal.given(seat) or 0) and ex["got"] == card_str(deal.given(prev) or 0)
        line = f"P{seat} gave the "
        mine = [x for x in snap["log"] if x.startswith(line) and " and got " in x]
        assert len(mine) == 1 and f"to P{nxt} and got" in mine[0] and mine[0].endswith(f"from P{prev}")
        others = [x for x in snap["log"] if " gave the " in x and not x.startswith(line)]
        assert others == []
    spectator = table_snapshot(t, None)
    assert spectator["deal"]["exchange"]["gave"] is None and spectator["deal"]["hand"] is None
    assert not any(" gave the " in x for x in spectator["log"])


def test_a_force_names_its_target_and_the_say_goes_round() -> None:
    """R8.3, R8.4: with three, each force is offered once per seat it fits, and who passed is shown."""
    seen_force = seen_passed = False
    for seed in range(60):
        t = mexicano_table(3, seed)
        rng = random.Random(seed)
        while not deal_of(t).over and not (seen_force and seen_passed):
            seat = deal_of(t).to_act
            assert seat is not None
            snap = table_snapshot(t, seat)
            d = snap["deal"]
            if d["passed"]:
                seen_passed = True
                assert seat not in d["passed"] and d["phase"] == "say" and len(d["passed"]) < 3
                # a turned card: its turner passed it first; a discard: the discarder has no say (R8.3)
                assert (d["origin"] in d["passed"]) == (d["passed"][0] == d["origin"])
            forces = [w for w in snap["legal"] if w.startswith("force ")]
            for w in forces:
                target = w.split()[-1]
                assert target in {f"p{s}" for s in d["seats"] if s != seat}
                seen_force = True
            t.act(seat, rng.choice(forces or snap["legal"]), t.state)
        if seen_force and seen_passed:
            break
    assert seen_force and seen_passed


def test_a_selected_card_offers_the_give_in_the_exchange() -> None:
    s = GameSession(get_rules("conquian-mexicano", players=3), seats=["human"] * 3, names=["Ann", "Bea", "Cy"], seed=2)
    deal = s.deal
    assert isinstance(deal, MexicanoDeal)
    card = next(iter(deal.hand(1)))
    assert [str(a) for a in s.actions_from_selection([card])] == [f"p1 give {card_str(card)}"]


@pytest.mark.parametrize("exhausted", ["tablas", "fewest"])
def test_how_a_deal_ends_is_said_in_words_and_scored_per_R8_7(exhausted: str) -> None:
    ends: set[str] = set()
    for seed in range(40):
        t = mexicano_table(3, seed, exhausted=exhausted)
        play_out(t, random.Random(seed))
        snap = table_snapshot(t, 1)
        d, scores = snap["deal"], snap["scores"]
        assert sum(scores["totals"]) == 0 and scores["pool"] == 0
        ends.add(d["ended"])
        if d["ended"] == "tablas":
            assert d["winner"] is None and scores["deals"][-1] == [0, 0, 0]
            assert scores["result"].startswith("tablas:") and "R8.6" in scores["result"]
        else:
            w = d["winner"]
            assert scores["deals"][-1] == [2 if s == w else -1 for s in (1, 2, 3)]  # R8.7: +2 with three
            assert scores["result"].startswith(f"P{w} wins the deal")
            if d["ended"] == "fewest":
                assert any("holds the fewest cards" in x for x in snap["log"])
            else:
                assert any(x.startswith(f"P{w} is out, 9 down, and wins") for x in snap["log"])
        assert len(d["hands"]) == 3
        if {"tablas", "fewest" if exhausted == "fewest" else "out"} <= ends:
            break
    assert "tablas" in ends if exhausted == "tablas" else "fewest" in ends


def test_a_match_is_one_deal_per_player_and_replays() -> None:
    t = mexicano_table(2, seed=3)
    for _ in range(2):
        play_out(t, random.Random(3))
        if t.status == "playing":
            t.next_deal(t.state)
    assert t.status == "over" and t.session is not None and len(t.session.match.deals) == 2
    frames = replay_frames(t.session.match)
    assert frames[0]["deal"]["family"] == "mexicano" and frames[0]["deal"]["phase"] == "exchange"
    assert sum(len(h) for h in frames[0]["hands"].values()) == 16 and frames[-1]["deal"]["over"]


def test_a_bot_job_plays_a_legal_move_whatever_the_bot() -> None:
    for bot in ("random", "foster"):
        t = Table("t", "x", get_rules("conquian-mexicano", players=3), seed=4)
        t.sit(1, "Ann")
        t.set_bot(2, bot, host=True)
        t.set_bot(3, bot, host=True)
        t.act(1, table_snapshot(t, 1)["legal"][0], t.state)
        for seat in (2, 3):
            action = choose(bot_job(t, seat, bot))
            assert action.startswith(f"p{seat} give ")
            t.act(seat, action, t.state)
        assert deal_of(t).phase == "say"


def test_the_classic_tables_are_unchanged() -> None:
    snap = table_snapshot(full_table(), 1)
    assert snap["deal"]["family"] == "conquian" and "exchange" not in snap["deal"]


def test_without_the_exchange_the_first_card_is_turned_at_once() -> None:
    t = mexicano_table(3, seed=6, exchange=False)
    snap = table_snapshot(t, 1)
    d = snap["deal"]
    assert d["phase"] == "say" and d["to_act"] == 1 and d["card_in_play"] is not None
    assert d["exchange"] == {"on": False, "given": [], "to": 2, "from": 3, "gave": None, "got": None}
    assert not any(w.startswith("give") for w in snap["legal"])
    assert snap["log"][-1] == f"P1 turned {card_name(deal_of(t).card)}"
