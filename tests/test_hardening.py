"""Issue 9: the engine refuses, never corrupts; the rule book's audited changes, rule by rule.

Each test here failed before the fix it guards (the fuzzer's cases among them).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian import ConquianDeal, ConquianError, IllegalActionError, Match, NotationError, get_rules
from conquian.engine.actions import Action, Add, Discard, Draw, Force, Give, Meld, Pass, Shift, Take, Use
from conquian.engine.cards import CardSet, cards_of, mask_str, parse_card
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.deck import arrange_deck
from conquian.engine.errors import SetupError
from conquian.engine.match import new_deal
from conquian.engine.record import read_record, record_from_match, replay, write_record
from conquian.engine.rules import PRESETS
from helpers import make_deal, play_all
from test_rules_conquian import FOSTER_WIN, A, B
from test_rules_conquian import PACK as FOSTER_PACK

ALL_CONFIGS = [
    ("conquian", 2, {}), ("conquian", 3, {}), ("conquian-spanish", 2, {"scoring": "pips"}),
    ("cooncan", 2, {}), ("cooncan", 3, {"stock": "open"}), ("cooncan", 3, {"discard_taken": False}),
    ("cooncan-double", 5, {}), ("cooncan-double", 7, {"discard_taken": False}),
    ("conquian-mexicano", 2, {}), ("conquian-mexicano", 3, {"hand": 9, "exhausted": "fewest"}),
    ("conquian-mexicano", 4, {"exchange": False}),
]


def crafted(cls: type[Action], **fields: Any) -> Action:
    """An action built around its constructor, as a careless or hostile caller might."""
    obj = object.__new__(cls)
    for k, v in fields.items():
        object.__setattr__(obj, k, v)
    return obj


def refuse_unchanged(deal: ConquianDeal | CooncanDeal, action: object) -> ConquianError:
    """``action`` is refused with a ConquianError and the deal is left exactly as it was (R7)."""
    before = deal.copy()
    with pytest.raises(ConquianError) as info:
        deal.play(action)  # type: ignore[arg-type]
    assert deal == before
    assert deal.is_legal(action) is False  # type: ignore[arg-type]
    assert deal == before
    return info.value


# --------------------------------------------------------------- the fuzzer's cases
def cooncan_in_play(seed: int = 4) -> CooncanDeal:
    deal = CooncanDeal(get_rules("cooncan-double"), seed=seed, dealer=5)
    deal.play("p1 draw")
    return deal


def test_add_and_shift_with_no_cards_are_refused() -> None:
    deal = cooncan_in_play()
    while not deal.combos or deal.phase != "play":  # play on until a combination is on the table
        legal = deal.legal_actions()
        melds = [a for a in legal if a.verb == "meld"]
        deal.play(melds[0] if melds else legal[-1])
    assert not deal.over
    seat = deal.to_act
    assert seat is not None
    refuse_unchanged(deal, Add(seat, 1, ()))
    refuse_unchanged(deal, Shift(seat, 1, None, ()))
    refuse_unchanged(deal, crafted(Add, seat=seat, combo=1, cards=()))
    # the match's own record still replays
    m = Match(deal.rules)
    m.deals.append(deal)
    replay(read_record(write_record(record_from_match(m))))


@pytest.mark.parametrize("bad", [7.0, 28.0, "7h", None, True, -1, 0, 64, 2**70, float("nan")])
def test_cards_that_are_not_card_numbers_are_refused(bad: object) -> None:
    c = ConquianDeal(get_rules("conquian"), seed=3, dealer=2)
    refuse_unchanged(c, Force(1, bad))  # type: ignore[arg-type]
    k = CooncanDeal(get_rules("cooncan"), seed=3, dealer=3)
    if bad is not None:  # Take(1, None) is the top of the stock
        refuse_unchanged(k, Take(1, bad))  # type: ignore[arg-type]
    k.play("p1 take")
    refuse_unchanged(k, Discard(1, bad))  # type: ignore[arg-type]


def test_a_float_take_leaves_the_stock_and_hands_whole() -> None:
    deal = CooncanDeal(get_rules("cooncan"), seed=5, dealer=3)
    top = deal.stock_top
    assert top is not None
    refuse_unchanged(deal, Take(1, float(top)))  # type: ignore[arg-type]
    assert deal.stock_top == top and deal.hand_size(1) == 7


def test_negative_masks_end_with_an_error() -> None:
    with pytest.raises(NotationError):
        Use(1, [-1])
    with pytest.raises(NotationError):
        CardSet(-1)
    with pytest.raises(NotationError):
        mask_str(-1)
    with pytest.raises(NotationError):
        cards_of(-5)
    deal = ConquianDeal(get_rules("conquian"), seed=3, dealer=2)
    refuse_unchanged(deal, crafted(Use, seat=1, melds=(-1,)))


def test_is_legal_answers_false_and_every_refusal_is_a_conquian_error() -> None:
    c = ConquianDeal(get_rules("conquian"), seed=3, dealer=2)
    assert c.is_legal(Force(1, 0)) is False  # card 0 is no card
    k = CooncanDeal(get_rules("cooncan-double"), seed=3, dealer=5)
    refuse_unchanged(k, Pass(None))  # type: ignore[arg-type]
    for junk in (None, 42, 3.5, b"p1 draw", ["p1", "draw"], object(), Draw(True)):
        refuse_unchanged(k, junk)
        refuse_unchanged(c, junk)


@pytest.mark.parametrize("make", [
    lambda: ConquianDeal(get_rules("conquian"), [1] * 40),
    lambda: ConquianDeal(get_rules("conquian"), ["Ah"] * 40),  # type: ignore[list-item]
    lambda: ConquianDeal(get_rules("conquian"), seed=1, dealer=3),
    lambda: ConquianDeal(get_rules("conquian"), seed=1, dealer=True),
    lambda: ConquianDeal(get_rules("conquian"), seed="1"),  # type: ignore[arg-type]
    lambda: ConquianDeal(get_rules("cooncan"), seed=1),
    lambda: CooncanDeal(get_rules("cooncan"), seed=1, dealer=0),
    lambda: CooncanDeal(get_rules("cooncan"), "Ah 2h"),  # type: ignore[arg-type]
    lambda: get_rules("cooncan-double", players=8),
    lambda: get_rules(["conquian"]),  # type: ignore[arg-type]
    lambda: Match(get_rules("conquian"), ["A", "B", "C"]),
    lambda: Match(get_rules("conquian"), ["A", "B\x1b[31m"]),
])
def test_bad_set_ups_raise_conquian_errors(make: Any) -> None:
    with pytest.raises(ConquianError):
        make()


# --------------------------------------------------------------- typed options (R1)
@pytest.mark.parametrize(("variant", "options"), [
    ("cooncan", {"jokers": True}), ("cooncan", {"max_turns": True}), ("cooncan", {"splash_bonus": 25.0}),
    ("cooncan", {"jokers": 1.0}), ("cooncan", {"discard_taken": 1}), ("conquian", {"scoring": 1}),
    ("cooncan-double", {"players": 5.0}), ("cooncan", {"max_turns": 10**9}), ("conquian", {"discard_taken": False}),
])
def test_r1_option_values_are_typed(variant: str, options: dict[str, Any]) -> None:
    with pytest.raises(NotationError, match="R1"):
        get_rules(variant, **options)


def test_r1_defaults_of_the_audit() -> None:
    assert get_rules("cooncan").stock == "closed"
    assert get_rules("cooncan-double", players=7).players == 7
    assert get_rules("cooncan").discard_taken is True and get_rules("cooncan").max_turns == 2000


def test_r1_discard_taken_false_forbids_discarding_the_card_taken() -> None:
    rules = get_rules("cooncan", discard_taken=False)
    deal = CooncanDeal(rules, seed=11, dealer=3)
    top = deal.stock_top
    assert top is not None
    deal.play("p1 take")
    from conquian.engine.cards import card_str

    e = refuse_unchanged(deal, f"p1 discard {card_str(top)}")
    assert isinstance(e, IllegalActionError) and e.rule == "R1"
    assert f"p1 discard {card_str(top)}" not in [str(a) for a in deal.legal_actions()]
    assert deal.view(1).legal_actions() == deal.legal_actions()
    # the default allows it
    free = CooncanDeal(get_rules("cooncan"), seed=11, dealer=3)
    free.play("p1 take")
    assert free.is_legal(f"p1 discard {card_str(top)}")


def test_r1_discard_taken_false_never_leaves_a_turn_without_an_end() -> None:
    """With only the taken card (or its copies) left, it may be discarded: every turn can end."""
    rules = get_rules("cooncan", discard_taken=False)
    for seed in range(40):
        deal = CooncanDeal(rules, seed=seed, dealer=3)
        rng = random.Random(seed)
        while not deal.over:
            legal = deal.legal_actions()
            assert legal
            takes = [a for a in legal if a.verb == "take"]
            melds = [a for a in legal if a.verb in ("meld", "add")]
            deal.play(takes[0] if takes else melds[0] if melds else rng.choice(legal))


# --------------------------------------------------------------- pips and the pool (R2.4, R5.1)
def test_r2_4_conquian_pips_count_the_ace_as_one() -> None:
    from conquian.engine.scoring import conquian_pip_value, pip_value

    assert [conquian_pip_value(parse_card(c)) for c in ("Ac", "2c", "9c", "Tc")] == [1, 2, 9, 10]
    assert conquian_pip_value(parse_card("Kd")) == 10  # the Spanish courts: a Decision
    assert pip_value(parse_card("Ac")) == 11  # Cooncan keeps its schedule


A_HAND, B_HAND, PACK = A, B, FOSTER_PACK  # Foster's spade-7 hand (tests/test_rules_conquian.py)


def test_r5_1_three_at_the_table_the_sitter_out_still_pays_his_counter() -> None:
    """R5.1: p2 and p3 tie, then p3 beats p1: p1 -1, p2 -1, p3 +2."""
    rules = get_rules("conquian", players=3)
    m = Match(rules, ["P1", "P2", "P3"], first_dealer=1)
    d1 = m.new_deal(seed=1)
    assert d1.seats == (2, 3)  # type: ignore[union-attr]
    while not d1.over:
        d1.play(f"p{d1.to_act} pass")
    assert d1.tableau
    from conquian.engine.deck import arrange_deck as arrange

    deck = arrange(rules, [parse_cards(A_HAND), parse_cards(B_HAND)], parse_cards(PACK))
    d2 = m.new_deal(deck)
    assert d2.dealer == 2 and d2.seats == (3, 1)  # type: ignore[union-attr]
    # Foster's hand, which the pone (here p3) wins; the seat labels of the worked example moved round
    for line in FOSTER_WIN.strip().splitlines():
        d2.play(line.strip().replace("p1", "pX").replace("p2", "p1").replace("pX", "p3"))
    assert d2.winner_seat == 3
    m.settle()
    assert m.results[-1] == [-1, -1, 2]
    assert m.pool == 0 and sum(m.totals) == 0


def parse_cards(text: str) -> list[int]:
    from conquian.engine.cards import parse_cards as pc

    return pc(text)


def test_r5_1_two_players_two_tableaux_then_a_win_is_three() -> None:
    m = Match(get_rules("conquian"), ["A", "B"])
    for s in (1, 2):
        d = m.new_deal(seed=s)
        while not d.over:
            d.play(f"p{d.to_act} pass")
    assert m.pool == 2 and m.owed == [1, 1]  # the first tableau is settled; the second not yet
    d = m.new_deal(make_deal(A_HAND, B_HAND, PACK).deck)
    assert m.pool == 4 and m.owed == [2, 2]  # two tableaux, a counter each from both
    play_all(d, FOSTER_WIN)
    m.settle()
    assert m.results[-1] == [3, -3] and m.pool == 0


# --------------------------------------------------------------- the rotation (R3.8)
def test_r3_8_a_deal_out_of_turn_is_refused() -> None:
    m = Match(get_rules("conquian"))
    d = m.new_deal(seed=1, dealer=1)  # the first deal: any dealer
    while not d.over:
        d.play(f"p{d.to_act} pass")
    with pytest.raises(SetupError, match="R3.8"):
        m.new_deal(seed=2, dealer=1)
    assert m.new_deal(seed=2, dealer=2).dealer == 2


def test_r3_8_a_record_breaking_the_rotation_is_refused() -> None:
    from conquian.engine.record import ReplayError

    m = Match(get_rules("cooncan", players=3))
    for _ in range(2):
        d = m.new_deal(seed=7)
        while not d.over:
            d.play(d.legal_actions()[0])
    rec = record_from_match(m)
    rec.deals[1].dealer = rec.deals[0].dealer  # the same dealer twice
    with pytest.raises(ReplayError) as info:
        replay(read_record(write_record(rec)))
    assert info.value.rule == "R3.8" and info.value.deal == 2


# --------------------------------------------------------------- views are cheap and share nothing hidden
def test_a_view_costs_the_same_late_in_a_long_deal() -> None:
    """A two-hand double-pack deal of bots that runs long: views share the history (issue 9)."""
    rules = get_rules("cooncan-double", players=2, max_turns=600)
    deal = CooncanDeal(rules, seed=1, dealer=2)
    rng = random.Random(1)
    while not deal.over:
        legal = deal.legal_raw()
        draws = [r for r in legal if r[0] in (10, 11)]
        deal.apply_raw(*(draws[-1] if draws else rng.choice(legal)))
        if deal.over:
            break
        v = deal.view(deal.to_act or 1)
        assert v.n_events == deal.n_events
    v = deal.view(1)
    assert v.event_node is deal.events  # shared, not copied
    assert len(v.events) == deal.n_events
    other = deal.view(2)
    assert [e.card for e in v.events if e.kind == "draw" and e.seat == 2] == \
        [None] * sum(1 for e in v.events if e.kind == "draw" and e.seat == 2)
    assert other.events != v.events or not any(e.kind == "draw" for e in v.events)


# --------------------------------------------------------------- property tests: fuzzing every preset
WEIRD: list[Any] = [None, -1, 0, 1, 7.0, "7h", "", True, 10**30, 2**64, 63, 28, [], (), [-1], ("X",), ("",),
                    ("7h" * 20,), ["7h"], "low", float("nan"), object(), (1 << 63) | 2, b"7h"]


def malformed(rng: random.Random, seat: int) -> Action:
    """An action of a wrong shape or type, built around its constructor."""
    cls = rng.choice([Use, Pass, Force, Discard, Draw, Take, Meld, Add, Shift, Give])
    seat_value = seat if rng.random() < 0.5 else rng.choice(WEIRD)
    fields: dict[str, Any] = {"seat": seat_value}
    if cls is Use:
        fields["melds"] = rng.choice(WEIRD)
    elif cls in (Force, Discard, Take, Give):
        fields["card"] = rng.choice(WEIRD)
        if cls is Force:
            fields["target"] = rng.choice([*WEIRD, None, seat, seat + 1])
    elif cls is Meld:
        fields["cards"] = rng.choice(WEIRD)
    elif cls in (Add, Shift):
        fields["combo"] = rng.choice([*WEIRD, 1, 2])
        fields["cards"] = rng.choice(WEIRD)
        if cls is Shift:
            fields["which"] = rng.choice(WEIRD)
    return crafted(cls, **fields)


def random_string(rng: random.Random, seat: int) -> str:
    verbs = ["use", "pass", "force", "discard", "draw", "take", "meld", "add", "shift", "give", "fold", ""]
    parts = [rng.choice([f"p{seat}", f"p{seat + 1}", "p0", "p²", "p" + "9" * 50, "P1", "x", ""]),
             rng.choice(verbs)]
    for _ in range(rng.randint(0, 4)):
        parts.append(rng.choice(["7h", "10♠", "X", "X=9h", "X=X", "|", "1", "-1", "²", "low", "Zz", "7h7h",
                                 "ace", "\x1b[31m", "1" * 60, "=", "X=", "A", "p1", "p3", "Jc", "Qh"]))
    return " ".join(parts)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ALL_CONFIGS), st.integers(0, 2**32))
def test_fuzzing_never_corrupts_and_every_state_replays(config: tuple[str, int, dict[str, Any]], seed: int) -> None:
    variant, n, options = config
    rules = get_rules(variant, players=n, **options)
    rng = random.Random(seed)
    match = Match(rules)
    deal = match.new_deal(seed=seed)
    steps = 0
    while not deal.over and steps < 400:
        seat = deal.to_act or 1
        for _ in range(3):
            for attempt in (random_string(rng, seat), malformed(rng, seat)):
                before = deal.copy()
                try:
                    deal.play(attempt)
                except ConquianError:
                    assert deal == before, attempt
                    assert deal.is_legal(attempt) is False
                else:  # a random string may be a legal action: then it was played
                    assert deal != before
        if not deal.over:
            deal.play(rng.choice(deal.legal_actions()))
        steps += 1
        if steps % 25 == 0 or deal.over:
            # every state reached can be written as a record that replays to the same state
            again = replay(read_record(write_record(record_from_match(match))))
            assert again.deals[-1].deal == deal


def test_every_preset_is_fuzzed() -> None:
    assert {c[0] for c in ALL_CONFIGS} == set(PRESETS)


def test_new_deal_dispatches_and_refuses_bad_input() -> None:
    rules = get_rules("conquian")
    deck = arrange_deck(rules, [parse_cards(A_HAND), parse_cards(B_HAND)], parse_cards(PACK))
    assert new_deal(rules, deck, dealer=2).hand(1) == CardSet(parse_cards(A_HAND))
    with pytest.raises(SetupError):
        new_deal(rules, deck[:-1], dealer=2)


def test_a_record_saved_without_a_path_goes_to_the_data_folder_not_the_current_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the terminal game and a session saved without a path write to the data folder (as
    # ``conquian play`` does), never into whatever directory the program was started from
    from conquian.tui import ConquianApp, make_session

    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    session = make_session("conquian", None, ["foster"], 3, ["Ann"])
    app = ConquianApp(session, delay=0)
    assert Path(app.record_path).parent == tmp_path / "data" / "conquian" / "records"
    saved = Path(session.save())
    assert saved.parent == tmp_path / "data" / "conquian" / "records" and saved.is_file()
    assert list((tmp_path / "cwd").iterdir()) == []
