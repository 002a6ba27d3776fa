"""The terminal game, driven the way a person plays it: Textual's pilot (keys and clicks), and tmux."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("textual")

from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.record import read_record, replay
from conquian.tui import CardButton, ConquianApp, ReplayApp, make_session, table_text
from helpers import TmuxGame

SNAPSHOTS = Path(__file__).parent / "snapshots"


@pytest.fixture(autouse=True)
def _records_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game given no record path saves in the working folder, and the data folder is the user's:
    both are a temporary folder here, so that no test writes a record anywhere else."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def run(coro: object) -> None:
    asyncio.run(coro)  # type: ignore[arg-type]


async def type_action(pilot: object, text: str) -> None:
    """Type an action into the command box, key by key, and press Enter."""
    for ch in text:
        await pilot.press(ch if ch != " " else "space")  # type: ignore[attr-defined]
    await pilot.press("enter")  # type: ignore[attr-defined]


async def play_deal(app: ConquianApp, pilot: object, budget: int = 3000) -> None:
    """Play the person's turns through the interface until the deal ends.

    Each turn: when cards are listed as discards, click a hand card and press the verb
    key (the mouse path); otherwise take the highlighted action with Enter (the keyboard).
    """
    s = app.session
    for _ in range(budget):
        if s.deal.over:
            return
        if s.human_to_act and app.options:
            discards = [a for a in app.options if a.verb == "discard"]
            buttons = list(app.query(CardButton))
            if discards and buttons and len(app.options) == len(discards):
                await pilot.click(buttons[-1])  # type: ignore[attr-defined]
                await pilot.pause()  # type: ignore[attr-defined]
                await pilot.press(app.keys["discard"][0])  # type: ignore[attr-defined]  # d; Spanish g, pagar
            else:
                await pilot.press("enter")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
    raise AssertionError("the deal did not end")


def test_a_conquian_deal_through_the_interface_with_a_refusal_and_a_hint(tmp_path: Path) -> None:
    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert [str(a) for a in app.options] == ["p1 pass", "p1 use 7c 8c 9c"]
            # a refused action: typed, refused with its rule, nothing changed
            before = s.deal.copy()
            await pilot.press("colon")
            await type_action(pilot, "discard 9h")
            await pilot.pause()
            assert s.deal == before
            assert any(m.startswith("refused: R3.5") for m in app.messages)
            # a hint: the review's best move and the live outs (worked out in a thread)
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            hints = [m for m in app.messages if m.startswith("hint: The review would play: ")]
            assert hints and "p1" not in hints[0]  # words for people: no seat labels
            assert any(m.startswith("hint: Live outs:") for m in app.messages)
            # the rules screen opens at the rule just refused under, with the whole rule book
            assert any("(? shows rule R3.5)" in m for m in app.messages)
            await pilot.press("question_mark")
            await pilot.pause()
            from textual.widgets import Static

            refused = app.screen.query_one("#refused-rule", Static)
            assert "R3.5 Discarding" in str(refused.content)
            assert "R6.3" in str(app.screen.query_one("#rulebook", Static).content)
            await pilot.press("escape")
            await pilot.pause()
            await play_deal(app, pilot)
            assert s.deal.over and len(s.match.results) == 1
            assert any("wins the deal" in m or "tableau" in m for m in app.messages)
            await pilot.press("enter")  # close the end-of-deal screen: the next deal is dealt
            await pilot.pause()
            assert len(s.match.deals) == 2 and s.deal.dealer == 1
        assert (tmp_path / "m.toml").exists()
        replay(read_record((tmp_path / "m.toml").read_text()))

    run(go())


def test_a_cooncan_double_deal_through_the_interface() -> None:
    async def go() -> None:
        s = make_session("cooncan-double", 5, ["foster"], 5, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert isinstance(s.deal, CooncanDeal)
            # a refused action: laying out before drawing (R4.3)
            if s.human_to_act:
                before = s.deal.copy()
                await pilot.press("colon")
                await type_action(pilot, "meld 2c 3c 4c")
                await pilot.pause()
                assert s.deal == before and any("refused: R" in m for m in app.messages)
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            await play_deal(app, pilot)
            assert s.deal.over and sum(s.match.results[-1]) == 0

    run(go())


def test_snapshot_of_a_deal_in_progress() -> None:
    """The table of a fixed deal, as the screen shows it (a text snapshot), and an SVG screenshot."""
    s = make_session("conquian", None, ["foster"], 3, ["Ann"])
    s.play_human("use 7c 8c 9c")
    s.play_human("discard 3d")
    text = table_text(s, s.deal, ascii_only=True, show_seen=True).plain
    expected = (SNAPSHOTS / "conquian_table.txt").read_text()
    assert text == expected

    async def go() -> None:
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            svg = app.export_screenshot(title="conquian")
            assert "<svg" in svg and "Ann" in svg
            if os.environ.get("UPDATE_SCREENSHOTS"):
                (Path(__file__).parent.parent / "docs" / "screenshot-conquian.svg").write_text(svg)

    run(go())


def test_several_people_share_one_terminal() -> None:
    """Hot seat (issue 9): a hand-over before every hand is shown, the first one of a deal too, and
    each person's log holds his own draws from the pack and hints, nobody else's."""

    async def go() -> None:
        s = make_session("cooncan", 3, ["human", "human", "foster"], 2, ["Ann", "Bea"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(90, 28)) as pilot:
            await pilot.pause()
            assert s.deal.to_act == 1 and app.shown_seat is None and not list(app.query(CardButton))
            await pilot.press("enter")  # Ann takes the terminal
            await pilot.pause()
            assert app.shown_seat == 1 and list(app.query(CardButton))
            await pilot.press("r")  # Ann draws
            await pilot.pause()
            drawn = s.deal.hand(1)
            ann_draw = next(line for line in s.lines if line.seat == 1 and "drew the" in str(line.private))
            assert any(str(ann_draw.private) in m for m in app.messages)
            await pilot.press("h")  # Ann's hint
            await app.workers.wait_for_complete()
            await pilot.pause()
            discard = next(a for a in app.options if a.verb == "discard")
            app.play(discard)
            await pilot.pause()
            # Bea's turn: her hand stays hidden until she presses Enter
            assert s.deal.to_act == 2 and app.shown_seat is None
            assert not list(app.query(CardButton))
            app.messages.clear()
            await pilot.press("enter")
            await pilot.pause()
            assert app.shown_seat == 2 and list(app.query(CardButton))
            shown = "\n".join(app.messages)
            assert str(ann_draw.private) not in shown and "Ann drew from the pack" in shown
            assert "hint:" not in shown  # Ann's hint is Ann's
            assert drawn  # (Ann's hand, for the record of what was hidden)

    run(go())


def test_replay_steps_forwards_and_backwards() -> None:
    rec = read_record((Path(__file__).parent / "records" / "foster_spade7.toml").read_text())

    async def go() -> None:
        app = ReplayApp(rec)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(5):
                await pilot.press("right")
            assert app.step == 5
            await pilot.press("left")
            assert app.step == 4
            await pilot.press("end")
            assert app.step == 26
            deal = app._deal_at()
            assert isinstance(deal, ConquianDeal) and deal.winner_seat == 1

    run(go())


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_conquian_play_in_tmux(tmp_path: Path) -> None:
    record = tmp_path / "tmux.toml"
    game = TmuxGame(f"conquian-test-{os.getpid()}", record)
    try:
        screen = game.wait_for("your move", tries=60)
        assert "your move" in screen and "Ann" in screen and "In play" in screen
        game.keys("u")
        time.sleep(1)
        assert "discard" in game.screen()
        game.keys("q")
        for _ in range(40):
            time.sleep(0.25)
            if record.exists():
                break
        assert record.exists()
        assert "p1 use 7c 8c 9c" in record.read_text()
    finally:
        ended = game.kill()
    assert ended, "the game went on after its terminal closed"
