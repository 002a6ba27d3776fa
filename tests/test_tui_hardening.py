"""Issue 9, the terminal game: nothing lost, no crash, every legal form reachable, words for people.

Driven as a person plays: Textual's pilot for keys and clicks, tmux for the real command and signals.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import OptionList, RichLog

from conquian import get_rules, parse_cards
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.deck import arrange_deck
from conquian.engine.record import read_record, replay
from conquian.session import GameSession, live_outs
from conquian.tui import CardButton, Choice, ConquianApp, Message, make_session, turn_words
from helpers import TmuxGame


def run(coro: Any) -> None:
    asyncio.run(coro)


@pytest.fixture(autouse=True)
def _records_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game given no record path saves in the working folder, and the data folder is the user's:
    both are a temporary folder here, so that no test writes a record anywhere else."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


async def type_text(pilot: Any, text: str) -> None:
    """Type ``text`` into the command line and press Enter (a long text is pasted: thousands of
    single key presses would take minutes and test nothing more)."""
    if len(text) > 40:
        from textual.widgets import Input

        pilot.app.query_one("#command", Input).insert_text_at_cursor(text)
    else:
        for ch in text:
            await pilot.press(ch if ch != " " else "space")
    await pilot.press("enter")
    await pilot.pause()


def conquian_session(hand: str, other: str, pack: str, name: str = "Ann") -> GameSession:
    """A session whose first deal is arranged: the person (p1, the pone) holds ``hand``."""
    s = make_session("conquian", None, ["foster"], 1, [name])
    rules = s.rules
    deck = arrange_deck(rules, [parse_cards(hand), parse_cards(other)], parse_cards(pack))
    s.match.deals[-1] = ConquianDeal(rules, deck, dealer=2)
    return s


# ----------------------------------------------------------------------- nothing lost
def test_a_save_that_fails_is_shown_and_the_game_goes_on(tmp_path: Path) -> None:
    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path="/nonexistent/folder/x.toml")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert any(m.startswith("not saved: cannot write /nonexistent") for m in app.messages)
            assert app.is_running and app.save_error
            await pilot.press("enter")  # the game goes on
            await pilot.pause()
            assert s.deal.n_actions >= 1
            app.record_path = str(tmp_path / "x.toml")  # (a path that works, for the rest)
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.save_error is None and (tmp_path / "x.toml").exists()

    run(go())


def test_q_asks_before_leaving_a_match_and_says_where_it_went(tmp_path: Path) -> None:
    record = tmp_path / "m.toml"

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, Choice) and str(record) in app.screen.body
            await pilot.press("n")  # stay
            await pilot.pause()
            assert app.is_running and not isinstance(app.screen, Choice)
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        assert app.saved_to == str(record)

    run(go())
    rec = read_record(record.read_text())
    assert rec.deals[0].actions and replay(rec)


def test_ctrl_q_saves_before_leaving(tmp_path: Path) -> None:
    record = tmp_path / "m.toml"

    async def go() -> None:
        app = ConquianApp(make_session("conquian", None, ["foster"], 3, ["Ann"]), delay=0, record_path=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("ctrl+q")
            await pilot.pause()

    run(go())
    assert read_record(record.read_text()).deals[0].actions


def test_the_record_is_saved_after_every_deal(tmp_path: Path) -> None:
    from test_tui import play_deal

    record = tmp_path / "m.toml"

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await play_deal(app, pilot)
            await pilot.pause()
            assert isinstance(app.screen, Message)
            rec = read_record(record.read_text())
            assert len(rec.deals) == 1 and rec.deals[0].result is not None

    run(go())


def test_the_command_checks_the_record_path_at_start() -> None:
    p = subprocess.run([sys.executable, "-m", "conquian", "play", "--record", "/nonexistent/x.toml"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert p.returncode == 2 and "cannot save the match" in p.stderr and "Traceback" not in p.stderr


# ----------------------------------------------------------------------- no crash
def test_hint_while_sitting_out_and_markup_in_names() -> None:
    async def go() -> None:
        s = make_session("conquian", 3, ["foster", "foster", "human"], 4, ["[/]", "[b]x", "[red]Ann[/"])
        assert isinstance(s.deal, ConquianDeal) and s.deal.dealer == 3  # the person sits out (R6.3)
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            assert any("sits out this deal" in m for m in app.messages)
            await pilot.press("w")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()

    run(go())


def test_hand_over_screen_with_markup_in_a_name() -> None:
    async def go() -> None:
        s = make_session("cooncan", 3, ["human", "human", "foster"], 2, ["[/]", "[b]Bea"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(90, 28)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, Message)
            await pilot.press("enter")
            await pilot.pause()
            assert app.shown_seat == 1

    run(go())


def test_typed_actions_bad_seats_and_pass_without_a_seat() -> None:
    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for text in ("p² pass", "p" + "9" * 5000 + " pass"):
                before = s.deal.copy()
                await pilot.press("colon")
                await type_text(pilot, text)
                assert s.deal == before and app.is_running
            assert sum(m.startswith("refused:") for m in app.messages) == 2
            assert all(len(m) < 300 for m in app.messages)
            await pilot.press("colon")
            await type_text(pilot, "pass")
            assert str(s.deal.actions()[0]) == "p1 pass"  # (the bot may have played on since)

    run(go())


# ----------------------------------------------------------------------- every legal form reachable
def test_selecting_three_aces_offers_the_four_ace_use() -> None:
    """A♣ A♦ A♥ with A♠ in play: the listing shows the threes and the four (every set of hand cards a
    use can lay, docs/records.md); selecting the three aces offers the four."""
    s = conquian_session("Ac Ad Ah 5c 7d 9h 2s 4s 6c 8d", "2c 3c 4c 5d 6d 7c 8h 9c 3h 4h", "As")

    async def go() -> None:
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(100, 28)) as pilot:
            await pilot.pause()
            assert "p1 use Ac Ad Ah As" in [str(a) for a in s.legal()]
            for card in parse_cards("Ac Ad Ah"):  # the hand is drawn again after each click
                await pilot.click(next(b for b in app.query(CardButton) if b.card == card))
                await pilot.pause()
            assert [str(a) for a in app.options] == ["p1 use Ac Ad Ah As"]
            assert isinstance(app.focused, OptionList)
            await pilot.press("enter")
            await pilot.pause()
            assert s.deal.phase == "discard" and s.deal.downs[0].bit_count() == 4

    run(go())


def test_a_verb_key_after_selecting_keeps_the_keyboard() -> None:
    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("u")  # one use listed: it is played
            await pilot.pause()
            assert s.deal.phase == "discard"
            button = next(iter(app.query(CardButton)))
            await pilot.click(button)
            await pilot.pause()
            selected = [b for b in app.query(CardButton) if b.has_class("selected")]
            assert selected and str(selected[0].label).startswith("[")  # not by colour alone
            await pilot.press("f")  # narrows to nothing, or to the force: the keys still work
            await pilot.pause()
            assert isinstance(app.focused, OptionList)
            await pilot.press("escape")
            await pilot.press("d")
            await pilot.pause()
            assert isinstance(app.focused, OptionList)
            await pilot.press("down")
            await pilot.press("enter")
            await pilot.pause()
            assert s.deal.phase != "discard" or s.deal.to_act != 1

    run(go())


def test_a_four_card_meld_from_the_selection() -> None:
    s = make_session("cooncan", 3, ["foster"], 1, ["Ann"])
    deal = s.deal
    assert isinstance(deal, CooncanDeal)
    deal.play("p1 draw")
    # give the person a four-card run by arranging nothing: find one in some seed instead
    for seed in range(200):
        s = make_session("cooncan", 3, ["foster"], seed, ["Ann"])
        deal = s.deal
        assert isinstance(deal, CooncanDeal)
        deal.play("p1 draw")
        built = [a for k in range(len(deal.hand(1))) for a in s.actions_from_selection(deal.hand(1)[k:k + 4])
                 if a.verb == "meld"]
        fours = [a for a in built if len(a.cards) == 4]  # type: ignore[attr-defined]
        if fours:
            assert deal.is_legal(fours[0]) and str(fours[0]) not in [str(a) for a in deal.legal_actions()]
            return
    raise AssertionError("no four-card meld in 200 seeds")


# ----------------------------------------------------------------------- words
def test_words_for_people() -> None:
    assert turn_words("You", "forced") == "You must use the card forced on you"
    assert turn_words("Ann", "say") == "Ann to say"
    s = make_session("conquian", None, ["foster"], 3, None)
    assert s.name(1) == "You"
    assert s.humanize("R3.3: it is p1's say, not p2's") == "R3.3: it is your say, not Foster's"
    assert s._verb(1, "wins", "win") == "You win" and s._verb(2, "deals", "deal") == "Foster deals"
    assert "You deals" not in " ".join(s.log) and "You wins" not in " ".join(s.log)


def test_live_outs_skip_pairs_already_complete() -> None:
    s = conquian_session("2h 3h 4h 9c 9d 5s 7s Jc Kd 6c".replace("Jc", "Tc").replace("Kd", "Td"),
                         "Ac 2c 3c 4c 5c 7c 8c Ad 2d 3d", "8h")
    outs = live_outs(s.deal, 1)
    assert not any(o.startswith("2h 3h") or o.startswith("3h 4h") for o in outs), outs
    assert any(o.startswith("9c 9d") for o in outs)


def test_the_hint_gives_the_chance_a_pair_fills_in_time() -> None:
    """Issue 13: each partial combination's live outs come with Foster's chance, from the
    durations measured by conquian stats (conquian.bots.fill)."""
    from conquian.bots.fill import chance
    from conquian.session import current_round

    s = conquian_session("2h 3h 4h 9c 9d 5s 7s Tc Td 6c", "Ac 2c 3c 4c 5c 7c 8c Ad 2d 3d", "8h")
    outs = live_outs(s.deal, 1)
    pair = next(o for o in outs if o.startswith("9c 9d"))
    live = int(pair.split(": ")[1].split(" live")[0])
    expected = chance(s.deal.rules, 1, live, current_round(s.deal))
    assert expected is not None and f", {100 * expected:.0f}% to fill in time" in pair, pair
    # more live cards, better chances; a chance is a probability
    assert chance(s.deal.rules, 1, 1, 1) < chance(s.deal.rules, 1, 3, 1)  # type: ignore[operator]
    assert all(0 <= (chance(s.deal.rules, k, 4, r) or 0) <= 1 for k in range(1, 5) for r in range(1, 12))


def test_the_scores_screen_shows_the_tableau_pool() -> None:
    s = make_session("conquian", None, ["foster"], 3, ["Ann"])
    deal = s.deal
    while not deal.over:
        deal.play(f"p{deal.to_act} pass")
    s.match.settle()
    s.new_deal()
    assert "Tableau pool: 2 counters" in s.pool_text()

    async def go() -> None:
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("w")
            await pilot.pause()
            assert isinstance(app.screen, Message)

    run(go())


def test_hurry_plays_the_bots_at_once() -> None:
    async def go() -> None:
        s = make_session("cooncan-double", 5, ["foster"], 5, ["Ann"])
        app = ConquianApp(s, delay=30)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("r")
            await pilot.pause()
            await pilot.press("d")
            await pilot.pause()
            if s.deal.to_act != 1 and not s.deal.over:
                await pilot.press("z")
                for _ in range(50):
                    await pilot.pause()
                    if s.deal.to_act == 1 or s.deal.over:
                        break
            assert s.deal.to_act == 1 or s.deal.over

    run(go())


def test_play_again_at_the_end_of_a_match(tmp_path: Path) -> None:
    from test_tui import play_deal

    async def go() -> None:
        s = GameSession(get_rules("conquian"), ["human", "foster"], ["Ann", "Foster"], seed=5, deals_in_match=1)
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "first.toml"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await play_deal(app, pilot)
            await pilot.pause()
            await pilot.press("enter")  # the end-of-deal screen
            await pilot.pause()
            assert isinstance(app.screen, Choice) and "play again" in str(app.screen.answers)
            await pilot.press("n")
            await pilot.pause()
            assert app.session is not s and len(app.session.match.deals) == 1 and app.is_running
            assert app.record_path != str(tmp_path / "first.toml")

    run(go())
    assert (tmp_path / "first.toml").exists()


def test_an_unseeded_game_takes_its_seed_from_the_system(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import secrets

    from conquian import cli, tui

    seen: list[int] = []
    monkeypatch.setattr(secrets, "randbits", lambda k: 123456789)
    monkeypatch.setattr(tui.ConquianApp, "run", lambda self: seen.append(self.session.seed))
    assert cli.main(["play", "--record", str(tmp_path / "seed.toml")]) == 0
    assert seen == [123456789]


def test_the_log_wraps_long_lines_at_80_columns() -> None:
    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            long = "hint: " + " ".join(f"word{i}" for i in range(40))
            app.write(long)
            await pilot.pause()
            log = app.query_one("#log", RichLog)
            text = " ".join(strip.text.strip() for strip in log.lines)
            assert all(f"word{i}" in text for i in range(40))
            assert max(len(strip.text.rstrip()) for strip in log.lines) <= log.size.width

    run(go())


# ----------------------------------------------------------------------- the real command in tmux
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
@pytest.mark.parametrize("way_out", ["SIGTERM", "SIGHUP", "ctrl+q", "q y"])
def test_every_way_out_saves_the_match(tmp_path: Path, way_out: str) -> None:
    record = tmp_path / "out.toml"
    game = TmuxGame(f"conquian-out-{os.getpid()}-{way_out.replace(' ', '').replace('+', '')}", record,
                    "; echo EXIT=$?; sleep 5")
    try:
        screen = game.wait_for("your move", "quit")
        assert "your move" in screen
        footer = [ln for ln in screen.splitlines() if ln.strip()][-1]
        assert "save" in footer and "quit" in footer, footer  # the footer at 80 columns
        game.keys("u")
        time.sleep(1)
        pids = subprocess.run(["pgrep", "-f", "--", f"--record {record}"], capture_output=True,
                              text=True).stdout.split()
        pids = [p for p in pids if Path(f"/proc/{p}/comm").read_text().startswith("python")]
        if way_out.startswith("SIG"):
            for p in pids:
                os.kill(int(p), getattr(signal, way_out))
        else:
            for key in way_out.split():
                game.keys(key.replace("ctrl+q", "C-q"))
                time.sleep(0.5)
        for _ in range(40):
            time.sleep(0.25)
            if record.exists() and "p1 use 7c 8c 9c" in record.read_text():
                break
        assert "p1 use 7c 8c 9c" in record.read_text()
        replay(read_record(record.read_text()))
    finally:
        game.kill()
