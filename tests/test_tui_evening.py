"""A new player's evening at the terminal game: resuming a match, a record never overwritten, the
keyboard in the hand, the rules at once, every score at 80x24, moves in a player's order with 10.

Driven as a person plays: Textual's pilot for keys, the real command for its exit codes.
"""

from __future__ import annotations

import asyncio
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

from conquian.present import unsymbols
from conquian.tui import ConquianApp, RulesScreen, make_session


def run(coro: Any) -> None:
    asyncio.run(coro)


@pytest.fixture(autouse=True)
def _records_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game given no record path saves in the working folder, and the data folder is the user's:
    both are a temporary folder here, so that no test writes a record anywhere else."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


async def type_text(pilot: Any, text: str) -> None:
    """Type an action into the command line, key by key, and press Enter."""
    await pilot.press("colon")
    for ch in text:
        await pilot.press(ch if ch != " " else "space")
    await pilot.press("enter")
    await pilot.pause()


# ----------------------------------------------------------------------- the rules screen
def test_the_rules_screen_is_drawn_text_and_opens_at_the_refused_rule() -> None:
    """The rule book was a Textual Markdown widget (a widget per block: seconds to open); it is now text
    drawn once for the box's width, the refused rule first."""
    from textual.widgets import Markdown

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await type_text(pilot, "discard 9h")
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert not list(app.screen.query(Markdown))
            statics = list(app.screen.query(Static))
            texts = [str(w.content) for w in statics]
            first = next(i for i, w in enumerate(statics) if w.id == "refused-rule")
            assert first < texts.index("In short") and "R3.5 Discarding" in texts[first]
            assert "####" not in texts[first]  # markdown drawn, not shown as its source
            book = app.screen.query_one("#rulebook", Static)
            assert "R6.3" in str(book.content)
            assert max(len(line) for line in str(book.content).splitlines()) <= book.content_size.width

    run(go())


# ----------------------------------------------------------------------- moves in a player's order, 10
def arranged(hand: str, other: str, pack: str) -> Any:
    """A conquian session (Ann, p1, the pone, against foster) whose first deal is arranged."""
    from conquian import parse_cards
    from conquian.engine.conquian.deal import ConquianDeal
    from conquian.engine.deck import arrange_deck

    s = make_session("conquian", None, ["foster"], 1, ["Ann"])
    deck = arrange_deck(s.rules, [parse_cards(hand), parse_cards(other)], parse_cards(pack))
    s.match.deals[-1] = ConquianDeal(s.rules, deck, dealer=2)
    return s


def test_moves_are_listed_in_a_players_order_with_ten_written_10() -> None:
    from textual.widgets import OptionList

    s = arranged("Tc 3c 4c 6c 8d Ac 9h 5s 5h 2d", "2c 7c 2h 3h 4h 6h 7h 8h 3s 4s", "5d")

    async def go() -> None:
        for ascii_only in (False, True):
            app = ConquianApp(s, delay=0, ascii_only=ascii_only)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                if s.deal.phase != "discard":
                    await pilot.press("u")  # the one use: 5d 5h 5s
                    await pilot.pause()
                ol = app.query_one("#actions", OptionList)
                shown = [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]
                listed = ["discard A♣", "discard 2♦", "discard 3♣", "discard 4♣", "discard 6♣",
                          "discard 8♦", "discard 9♥", "discard 10♣"]
                assert shown == ([unsymbols(w) for w in listed] if ascii_only else listed)
                hand = " ".join(str(b.label) for b in app.query(".card"))
                assert "10" in hand and "T" not in hand
                await pilot.press("h")  # the hint is read by a person too
                await app.workers.wait_for_complete()
                await pilot.pause()
                assert not [m for m in app.messages if re.search(r"\bT[cdhs]\b", m)]

    run(go())


def test_the_order_of_a_players_moves_in_each_game() -> None:
    """The say before the combinations before the discards; by size, then rank with the ace low (the
    Spanish pack's 7 then J); ten as 10 for people while the notation keeps T."""
    from conquian.engine.actions import parse_action
    from conquian.present import card_for_people, move_words, order_moves

    def order(texts: list[str], phase: str | None = None) -> list[str]:
        return [move_words(a) for a in order_moves([parse_action(t) for t in texts], phase)]

    assert order(["p1 use 5c 5d 5h", "p1 force 5c", "p1 use 3c 4c 5c 6c", "p1 pass", "p1 use 4c 5c 6c"]) == [
        "pass", "force 5c", "use 4c 5c 6c", "use 5c 5d 5h", "use 3c 4c 5c 6c"]
    assert order(["p1 force Kd", "p1 discard Kd", "p1 discard Jd", "p1 discard 7d"], "discard") == [
        "discard 7d", "discard Jd", "discard Kd", "force Kd"]
    assert order(["p2 discard Ts", "p2 add 1 9s", "p2 meld X 5d 6d", "p2 meld 2c 2d 2s", "p2 take", "p2 draw"]) == [
        "draw", "take", "meld 2c 2d 2s", "meld X 5d 6d", "add 1 9s", "discard 10s"]
    assert card_for_people(parse_action("p1 discard Th").card) == "10h"  # type: ignore[attr-defined]
    assert str(parse_action("p1 discard 10h")) == "p1 discard Th"  # the notation still writes T


# ----------------------------------------------------------------------- the keyboard in the hand
async def walk_to(pilot: Any, app: ConquianApp, card: str) -> None:
    """Press the right arrow until the focus is on ``card`` of the hand (at most once round it)."""
    from conquian import parse_card
    from conquian.tui import CardButton

    for _ in range(len(app.hand_cards)):
        assert isinstance(app.focused, CardButton), app.focused
        if app.focused.card == parse_card(card):
            return
        await pilot.press("right")
    raise AssertionError(f"the arrows never reached {card}")


def test_enter_on_a_card_keeps_the_focus_in_the_hand_and_plays_nothing() -> None:
    """Enter selected a card and moved the focus to the moves, so a second Enter played the first move.
    Now Enter (or space) toggles the card and the focus stays; the arrows move along the hand."""
    from conquian import parse_card
    from conquian.tui import CardButton

    s = arranged("Tc 3c 4c 6c 8d Ac 9h 5s 5h 2d", "2c 7c 2h 3h 4h 6h 7h 8h 3s 4s", "5d")

    async def go() -> None:
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(20):  # Tab into the hand
                if isinstance(app.focused, CardButton):
                    break
                await pilot.press("tab")
            assert isinstance(app.focused, CardButton) and app.focused.index == 0
            await walk_to(pilot, app, "5h")
            await pilot.press("enter")
            await pilot.pause()
            assert app.selected_cards() == ["5h"] and [str(a) for a in app.options] == ["p1 use 5d 5h 5s"]
            assert isinstance(app.focused, CardButton) and app.focused.card == parse_card("5h")
            await pilot.press("enter")  # the same card again: unselected, and no move played
            await pilot.pause()
            assert s.deal.n_actions == 0 and app.selected_cards() == []
            await pilot.press("enter")  # two cards: Enter, the arrows, space
            await walk_to(pilot, app, "5s")
            await pilot.press("space")
            await pilot.pause()
            assert app.selected_cards() == ["5h", "5s"] and s.deal.n_actions == 0
            assert isinstance(app.focused, CardButton) and app.focused.card == parse_card("5s")
            await pilot.press("u")  # the verb plays the one move the selection makes
            await pilot.pause()
            assert s.deal.n_actions == 1 and s.deal.phase == "discard"

    run(go())


# ----------------------------------------------------------------------- every score at 80x24
@pytest.mark.parametrize("players", [5, 7])
def test_every_players_score_is_on_the_screen_at_80x24(players: int) -> None:
    """Five hands and more cut the last players' scores off the one-line status at 80 columns."""
    from textual.geometry import Region

    async def go() -> None:
        s = make_session("cooncan-double", players, ["foster"], 5, ["Ann"])
        scores = [-7 * (i + 1) for i in range(players - 1)]
        s.match.washbook.add([-sum(scores), *scores])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            status = app.query_one("#status", Static)
            assert status.region.right <= 80 and status.region.bottom <= 24
            shown = "\n".join(strip.text for strip in status.render_lines(Region(0, 0, *status.size)))
            totals = s.match.totals
            for seat in range(2, players + 1):  # each bot's own score, after its seat number
                assert re.search(rf"\b{seat} {totals[seat - 1]:+d}\b", shown), (seat, shown)
            # the game's name, not its id
            assert f"{totals[0]:+d}" in shown and "Cooncan with two packs and jokers" in shown

    run(go())


# ----------------------------------------------------------------------- a saved match continued
PRESETS = [("conquian", None), ("conquian-spanish", None), ("conquian", 3), ("cooncan", None),
           *[("cooncan-double", n) for n in range(2, 8)]]


async def take_turns(app: ConquianApp, pilot: Any, turns: int) -> None:
    """The person plays the highlighted move ``turns`` times (the bots answer at once)."""
    for _ in range(turns * 40):
        if turns == 0 or app.session.deal.over:
            return
        if app.session.human_to_act and app.options:
            await pilot.press("enter")
            turns -= 1
        await pilot.pause()


@pytest.mark.parametrize(("variant", "players"), PRESETS)
def test_a_match_left_with_q_resumes_where_it_stopped(tmp_path: Path, variant: str, players: int | None) -> None:
    """The quit dialog says the match is saved and gives the command that continues it; the record
    then continues at the same deal, the same actions, the same players and bots, the same scores."""
    from conquian.session import resume
    from conquian.tui import Choice, resume_command

    record = tmp_path / "m.toml"
    left: dict[str, Any] = {}

    async def leave() -> None:
        s = make_session(variant, players, ["foster"], 7, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await take_turns(app, pilot, 3)
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, Choice) and resume_command(str(record)) in app.screen.body
            await pilot.press("y")
            await pilot.pause()
        left.update(actions=[str(a) for a in s.deal.actions()], deck=s.deal.deck, names=s.names, seats=s.seats,
                    totals=s.match.totals, deals=len(s.match.deals))

    async def come_back() -> None:
        s = resume(record.read_text(), seed=1)
        assert [str(a) for a in s.deal.actions()] == left["actions"] and s.deal.deck == left["deck"]
        assert (s.names, s.seats, s.match.totals, len(s.match.deals)) == (
            left["names"], left["seats"], left["totals"], left["deals"])
        assert all(kind == "foster" for kind in s.seats[1:]) and s.seats[0] == "human"
        app = ConquianApp(s, delay=0, record_path=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "Ann" in str(app.query_one("#status", Static).content)
            await take_turns(app, pilot, 1)  # the game goes on
            assert len(s.deal.actions()) > len(left["actions"]) or s.deal.over

    run(leave())
    run(come_back())


def test_the_scores_so_far_come_back(tmp_path: Path) -> None:
    """A finished deal's scores (the match totals) and the deal in progress, resumed from the record."""
    from conquian.session import resume
    from test_tui import play_deal

    record = tmp_path / "m.toml"

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(record))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await play_deal(app, pilot)
            await pilot.press("enter")  # the next deal
            await pilot.pause()
            await take_turns(app, pilot, 1)
            await pilot.press("ctrl+q")
            await pilot.pause()
        again = resume(record.read_text())
        assert again.match.results == s.match.results and again.match.totals == s.match.totals
        assert len(again.match.deals) == 2 and again.match.owed == s.match.owed
        assert [str(a) for a in again.deal.actions()] == [str(a) for a in s.deal.actions()]

    run(go())


def saved_match(path: Path, variant: str = "conquian", finish: bool = False, players: int | None = None) -> str:
    """A match as ``conquian play`` saves it: a few moves, or (``finish``) every deal played by bots."""
    from conquian.session import GameSession, seats_from_bots

    s = make_session(variant, players, ["foster"], 4, ["Ann"])
    if finish:
        s = GameSession(s.rules, seats_from_bots(s.rules, ["foster"]), names=["Ann", "Bob"], seed=4,
                        deals_in_match=1)
        s.seats[0] = "foster"  # (a bot in the person's seat plays the deal to its end)
        s.bots[1] = s.bots[2]
    for _ in range(5 if not finish else 100_000):
        if s.deal.over:
            break
        if not s.human_to_act:
            s.bot_step()
        else:
            s.play_human(s.legal()[0])
    if finish:
        s.seats[0] = "human"
        assert s.match_over
    s.save(str(path))
    return path.read_text()


def play_command(monkeypatch: pytest.MonkeyPatch, *argv: str) -> tuple[int, list[Any]]:
    """``conquian play ...`` as typed, the game itself not run (no terminal here): the exit status and
    the sessions it would have played."""
    from conquian import cli, tui

    started: list[Any] = []
    monkeypatch.setattr(tui.ConquianApp, "run", lambda self: started.append(self))
    return cli.main(["play", *argv]), started


def test_play_resume_continues_the_latest_unfinished_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import os

    from conquian.engine.files import records_dir

    folder = records_dir()
    folder.mkdir(parents=True)
    older = folder / "a.toml"
    saved_match(older, "cooncan")
    os.utime(older, (1, 1))
    saved_match(folder / "b.toml", finish=True)  # newer, but over
    (folder / "c.toml").write_text("not a record")  # newest, not a record
    code, started = play_command(monkeypatch, "--resume")
    assert code == 0 and len(started) == 1
    app = started[0]
    assert app.record_path == str(older) and app.session.rules.name == "cooncan"
    assert app.session.names[0] == "Ann" and app.session.seats == ["human", "foster", "foster"]
    assert len(app.session.deal.actions()) == 5
    for f in (folder / "a.toml", folder / "b.toml"):
        f.unlink()
    code, started = play_command(monkeypatch, "--resume")
    err = capsys.readouterr().err
    assert code == 1 and not started and err.count("\n") == 1 and "no unfinished match" in err


def test_play_resume_refuses_a_finished_match_and_a_corrupt_record_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    finished = tmp_path / "done.toml"
    text = saved_match(finished, finish=True)
    corrupt = tmp_path / "bad.toml"
    corrupt.write_text(text.replace("p1 ", "p1 frobnicate ", 1) if "p1 " in text else "format = 3\n")
    for path, words in ((finished, "the match is over"), (corrupt, "cannot resume")):
        p = subprocess.run([sys.executable, "-m", "conquian", "play", "--resume", str(path)], capture_output=True,
                           text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert p.returncode == 1 and words in p.stderr and p.stderr.count("\n") == 1, p.stderr
        assert "Traceback" not in p.stderr and p.stdout == ""
    assert finished.read_text() == text


# ----------------------------------------------------------------------- --record never destroys a record
def test_record_refuses_an_existing_match_unless_it_can_go_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    finished = tmp_path / "done.toml"
    other = tmp_path / "other.toml"
    notes = tmp_path / "notes.toml"
    texts = {finished: saved_match(finished, finish=True), other: saved_match(other, "cooncan")}
    notes.write_text("my notes, not a record\n")
    texts[notes] = notes.read_text()
    for path, why in ((finished, "finished match"), (other, "other settings"), (notes, "not a record")):
        code, started = play_command(monkeypatch, "--record", str(path), "--seed", "1")
        err = capsys.readouterr().err
        assert code == 2 and not started and why in err and err.count("\n") == 1, err
        assert path.read_text() == texts[path]  # untouched
    assert "conquian play --resume" in (lambda: (play_command(monkeypatch, "--record", str(other)),
                                                 capsys.readouterr().err)[1])()
    # an unfinished match of the same settings: resumed, not dealt again
    code, started = play_command(monkeypatch, "--record", str(other), "--variant", "cooncan")
    assert code == 0 and len(started) == 1
    s = started[0].session
    assert started[0].record_path == str(other) and len(s.deal.actions()) == 5 and s.names[0] == "Ann"


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_quit_then_resume_in_a_real_terminal(tmp_path: Path) -> None:
    """In tmux: q shows the command that continues the match; that command brings the table back."""
    import os
    import subprocess
    import sys
    import time

    from helpers import TmuxGame

    record = tmp_path / "m.toml"
    game = TmuxGame(f"conquian-resume-{os.getpid()}", record, "; sleep 5")
    again = f"conquian-resumed-{os.getpid()}"
    try:
        assert "your move" in game.wait_for("your move", tries=60)
        game.keys("u")  # Ann uses 7c 8c 9c
        time.sleep(1)
        game.keys("q")
        screen = game.wait_for("--resume")
        # the dialog's words, its lines joined (the command wraps at the dialog's width)
        said = " ".join(line[line.index("█") + 1:line.rindex("█")] for line in screen.splitlines()
                        if line.count("█") >= 2)
        assert "To continue it later: conquian play --resume" in " ".join(said.split()), screen
        assert said.count(str(record)) <= 1, screen  # the saved file named once (issue 54)
        game.keys("y")
        for _ in range(40):
            time.sleep(0.25)
            if record.exists() and "p1 use 7c 8c 9c" in record.read_text():
                break
        subprocess.run(["tmux", "new-session", "-d", "-s", again, "-x", "80", "-y", "24",
                        f"{sys.executable} -m conquian play --resume {record} --delay 0"], check=True)
        shown = ""
        for _ in range(80):
            time.sleep(0.25)
            shown = subprocess.run(["tmux", "capture-pane", "-p", "-t", again], capture_output=True,
                                   text=True).stdout
            if "7♣ 8♣ 9♣" in shown:
                break
        assert "Ann: 7♣ 8♣ 9♣" in shown and "deal 1/6" in shown and "Foster" in shown
    finally:
        subprocess.run(["tmux", "kill-session", "-t", again], capture_output=True)
        game.kill()
