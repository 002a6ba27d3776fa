"""A new player's evening at the terminal game: resuming a match, a record never overwritten, the
keyboard in the hand, the rules at once, every score at 80x24, moves in a player's order with 10.

Driven as a person plays: Textual's pilot for keys, the real command for its exit codes.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import Static

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
    from conquian.deck import arrange_deck
    from conquian.twohand import ConquianDeal

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
                assert shown == ["discard Ac", "discard 2d", "discard 3c", "discard 4c", "discard 6c",
                                 "discard 8d", "discard 9h", "discard 10c"]
                hand = " ".join(str(b.label) for b in app.query(".card"))
                assert "10" in hand and "T" not in hand
                await pilot.press("h")  # the hint is read by a person too
                await pilot.pause()
                assert not [m for m in app.messages if re.search(r"\bT[cdhs]\b", m)]

    run(go())


def test_the_order_of_a_players_moves_in_each_game() -> None:
    """The say before the combinations before the discards; by size, then rank with the ace low (the
    Spanish pack's 7 then J); ten as 10 for people while the notation keeps T."""
    from conquian.actions import parse_action
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
            assert f"{totals[0]:+d}" in shown and "cooncan-double" in shown

    run(go())
