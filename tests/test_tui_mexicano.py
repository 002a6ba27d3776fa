"""The conquián mexicano (R8) in the terminal game, played the way a person plays it: Textual's pilot
(keys and clicks) for whole deals at two and three, the exchange, forcing by name, the hidden cards,
the Spanish suits, the chooser of games, resuming; and one game in a real terminal (tmux)."""

from __future__ import annotations

import asyncio
import html
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.widgets import OptionList, Static

from conquian.engine.actions import Action, Force, Give
from conquian.engine.cards import card_name, card_str
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.present import spanish_card, spanish_card_words
from conquian.tui import CardButton, Choice, ConquianApp, make_session
from conquian.tui.screens import GameChooser, Message


def run(coro: Any) -> None:
    asyncio.run(coro)


@pytest.fixture(autouse=True)
def _records_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Records go to a temporary folder only."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def screen_text(app: ConquianApp) -> str:
    """What the terminal shows now, line by line (read from the screenshot Textual draws)."""
    svg = app.export_screenshot()
    lines: dict[str, list[str]] = {}
    for line, text in re.findall(r'<text [^>]*clip-path="url\(#[^)]*-line-(\d+)\)"[^>]*>([^<]*)</text>', svg):
        lines.setdefault(line, []).append(html.unescape(text).replace("\xa0", " "))
    return "\n".join("".join(parts) for _, parts in sorted(lines.items(), key=lambda kv: int(kv[0])))


def choice(options: list[Action]) -> int:
    """The pilot's pick among the moves listed: a force first, else the longest use, else the first."""
    forces = [i for i, a in enumerate(options) if a.verb == "force"]
    uses = [i for i, a in enumerate(options) if a.verb == "use"]
    return forces[0] if forces else uses[-1] if uses else 0


async def give_by_keys(app: ConquianApp, pilot: Any) -> None:
    """The exchange's step (R8.2): Enter on the first card of the hand selects it, the list then holds
    the one move giving it, and Enter plays it."""
    buttons = list(app.query(CardButton))
    buttons[0].focus()
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert [a.verb for a in app.options] == ["give"] and app.options[0].card == buttons[0].card  # type: ignore[attr-defined]
    await pilot.press("down")  # from the hand to the moves
    await pilot.press("enter")
    await pilot.pause()


async def play_mexicano_deal(app: ConquianApp, pilot: Any, seen: dict[str, Any]) -> None:
    """The person's turns until the deal ends: the exchange by keys, then the pilot's choice by the
    arrows and Enter; ``seen`` gathers the labels of every force offered and the statuses shown."""
    s = app.session
    for _ in range(3000):
        if s.deal.over:
            return
        if s.human_to_act and app.options:
            status = str(app.query_one("#status", Static).content)
            seen.setdefault("statuses", []).append(status)
            seen.setdefault("tables", []).append(str(app.query_one("#table", Static).content))
            if s.deal.phase == "exchange":
                seen["exchange_screen"] = screen_text(app)
                await give_by_keys(app, pilot)
                continue
            labels = [str(o.prompt) for o in app.query_one("#actions", OptionList).options]
            forces = [lab for lab, a in zip(labels, app.options, strict=True) if isinstance(a, Force)]
            if forces:
                seen.setdefault("forces", []).append((forces, [a for a in app.options if isinstance(a, Force)]))
            i = choice(app.options)
            app.query_one("#actions", OptionList).highlighted = i
            await pilot.press("enter")
        await pilot.pause()
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize(("players", "seed"), [(2, 2), (3, 3)])
def test_a_whole_mexicano_deal_through_the_interface(tmp_path: Path, players: int, seed: int) -> None:
    """R8: a person plays a whole deal against foster at two and at the tercerilla: the exchange is a
    step of its own ("Choose a card to give to ..."), afterwards "Ann gave ... to ... and got ... from
    ...", every force names its target (one move per target), the say is shown going round, and the
    end is told in words with the scores of R8.7."""

    async def go() -> None:
        s = make_session("conquian-mexicano", players, ["foster"], seed, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        seen: dict[str, Any] = {}
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert isinstance(s.deal, MexicanoDeal) and s.deal.phase == "exchange"
            nxt = s.name(2)
            assert f"Choose a card to give to {nxt}" in str(app.query_one("#status", Static).content)
            assert [str(b.label) for b in app.query(".verb")][:1] == ["e give"]  # its key and its word
            await play_mexicano_deal(app, pilot, seen)
            deal = s.deal
            assert deal.over and isinstance(deal, MexicanoDeal)
            # the line of the exchange, from Ann's own view, is in her log
            view_gave, _view_got = deal.given(1), None
            assert view_gave is not None
            exchange = next(m for m in app.messages if m.startswith("Ann gave ") and " and got " in m)
            assert f"Ann gave {card_name(view_gave)} to {nxt} and got " in exchange
            assert f"from {s.name(players)}" in exchange
            # forces named their targets, one move per target
            assert seen.get("forces"), "the seed was chosen for a force offered to the person"
            for labels, actions in seen["forces"]:
                assert all(re.fullmatch(r"force \S+ on .+", lab) for lab in labels), labels
                assert len(set(labels)) == len(labels)
                for lab, a in zip(labels, actions, strict=True):
                    target = a.target if a.target is not None else 3 - a.seat
                    assert lab.endswith(f" on {s.name(target)}")
            assert any("Ann has the say" in t for t in seen["tables"])  # R8.3: the say going round
            assert any(f"Choose a card to give to {nxt}" in t for t in seen["statuses"])
            # the end in words, the scores of R8.7
            assert isinstance(app.screen, Message)
            result = s.log[-1]
            if deal.winner_seat is not None:
                assert "wins the deal" in result or "win the deal" in result
                assert sorted(s.match.results[-1]) == sorted([players - 1] + [-1] * (players - 1))
            else:
                assert result.startswith("tablas: the deal is a draw") and s.match.results[-1] == [0] * players
            await pilot.press("enter")  # the next deal
            await pilot.pause()
            assert len(s.match.deals) == 2 and s.deal.dealer == 1  # R8.7: the deal passes in turn

    run(go())


def test_the_say_goes_round_on_the_screen() -> None:
    """R8.3: the table shows who has the say to the card in play and who follows."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 3, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await give_by_keys(app, pilot)
            await pilot.pause()
            assert s.deal.phase == "say" and s.deal.to_act == 1
            text = screen_text(app)
            assert "Ann has the say (then Foster 2, Foster 3)" in text
            assert "In play:" in text

    run(go())


def test_the_exchange_never_shows_another_seats_card_before_it_is_over() -> None:
    """R8.2: Ann sits second; Foster gives first, and until the exchange is over the screen says that
    a card went to Ann, never which; afterwards only Ann's own line says what she got."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 3, ["foster", "human", "foster"], 5, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            deal = s.deal
            assert isinstance(deal, MexicanoDeal) and deal.to_act == 2 and s.name(2) == "Ann"
            hidden = deal.given(1)
            assert hidden is not None
            text = screen_text(app)
            assert "Choose a card to give to Foster 3" in text and "Foster 1 gave a card to Ann" in text
            face = card_str(hidden)[0] + "♣♦♥♠"["cdhs".index(card_str(hidden)[1])]
            for form in (card_name(hidden), card_str(hidden), face):
                assert form not in text, form
            # Ann gives; Foster 3 gives at once; the cards move, and Ann reads what she gave and got
            await give_by_keys(app, pilot)
            await pilot.pause()
            assert deal.phase != "exchange"
            line = f"Ann gave {card_name(deal.given(2) or 0)} to Foster 3 and got {card_name(hidden)} from Foster 1"
            assert line in app.messages
            assert " and got " in screen_text(app)
            # what Foster 3 gave Foster 1 stays theirs
            other = deal.given(3)
            assert other is not None and card_name(other) not in "\n".join(app.messages).replace(line, "")

    run(go())


def test_waiting_for_the_others_while_a_bot_chooses() -> None:
    """R8.2: after the person's give, the status says the others are choosing (a slow bot)."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 3, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=30)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await give_by_keys(app, pilot)
            assert s.deal.phase == "exchange" and s.deal.to_act == 2
            assert "Waiting for the others" in str(app.query_one("#status", Static).content)
            assert "Ann gave " in "\n".join(app.messages) and " and got " not in "\n".join(app.messages)

    run(go())


def test_two_people_share_the_terminal_for_the_exchange() -> None:
    """Hot seat: a hand-over before each give; each person reads only his own card given and got."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 2, ["human", "human"], 4, ["Ann", "Bea"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, Message) and app.shown_seat is None
            await pilot.press("enter")
            await give_by_keys(app, pilot)
            ann_gave = s.deal.given(1)
            assert ann_gave is not None and app.shown_seat is None  # Bea's hand-over
            app.messages.clear()
            await pilot.press("enter")
            assert app.shown_seat == 2
            assert card_name(ann_gave) not in "\n".join(app.messages)
            await give_by_keys(app, pilot)
            await pilot.pause()
            assert app.shown_seat is None  # the next to act takes the terminal: a hand-over first
            app.messages.clear()
            if app.shown_seat is None:
                await pilot.press("enter")
                await pilot.pause()
            seat = app.shown_seat
            mine = [m for m in app.messages if " and got " in m]
            assert len(mine) == 1 and mine[0].startswith(f"{s.name(seat or 0)} gave ")

    run(go())


def test_the_spanish_suits_key_and_option() -> None:
    """R8.1: ``s`` shows the Spanish pack with oros, copas, espadas, bastos and sota, caballo, rey (the
    notation unchanged: the moves still play); again ``s``, the French suits."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 2, ["foster"], 2, ["Ann"])
        app = ConquianApp(s, delay=0)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            card = app.hand_cards[0]
            assert str(next(iter(app.query(CardButton))).label) != spanish_card(card)
            await pilot.press("s")
            await pilot.pause()
            assert str(next(iter(app.query(CardButton))).label) == spanish_card(card)
            text = screen_text(app)
            assert spanish_card(card) in text and re.search(r"give (As|[2-7]|Sota|Cab|Rey) (Or|Co|Es|Ba) to Foster",
                                                            text)
            await pilot.press("enter")  # a move still plays
            await pilot.pause()
            assert s.deal.given(1) is not None
            assert any(f"Ann gave {spanish_card_words(s.deal.given(1) or 0)} to Foster" in m for m in app.messages)
            app.messages.clear()
            await pilot.press("s")
            await pilot.pause()
            assert any(m.startswith("Ann gave the ") for m in app.messages)
            assert all(" de " not in m for m in app.messages if m.startswith("Ann gave"))

    async def french_pack() -> None:
        app = ConquianApp(make_session("conquian", None, ["foster"], 3, ["Ann"]), delay=0, spanish_suits=True)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert not app.spanish  # the French 40-card pack: its suits stay
            await pilot.press("s")
            assert not app.spanish

    async def spanish_conquian() -> None:
        app = ConquianApp(make_session("conquian-spanish", None, ["foster"], 3, ["Ann"]), delay=0,
                          spanish_suits=True)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert app.spanish and " de " in screen_text(app)  # "Ann turned 4 de oros"

    run(go())
    run(french_pack())
    run(spanish_conquian())


def test_the_chooser_offers_every_game_and_starts_the_tercerilla(tmp_path: Path) -> None:
    """``n`` opens the games (the conquián mexicano and the tercerilla among them); choosing one saves
    the match at the table and starts the new game with the same person and bots."""

    async def go() -> None:
        s = make_session("conquian", None, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "first.toml"))
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # a move in the conquian match
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            assert isinstance(app.screen, GameChooser)
            titles = [str(o.prompt) for o in app.screen.query_one("#games", OptionList).options]
            assert "Conquián mexicano (2 players)" in titles
            assert any(t.startswith("Tercerilla") and "(3 players)" in t for t in titles)
            app.screen.query_one("#games", OptionList).highlighted = next(
                i for i, t in enumerate(titles) if t.startswith("Tercerilla"))
            await pilot.press("enter")
            await pilot.pause()
            new = app.session
            assert new is not s and new.rules.name == "conquian-mexicano" and new.rules.players == 3
            assert new.names == ["Ann", "Foster 2", "Foster 3"] and new.seats == ["human", "foster", "foster"]
            assert (tmp_path / "first.toml").exists()  # the conquian match is kept, to resume
            await pilot.pause()
            assert [str(b.label) for b in app.query(".verb")] == ["e give", "u use", "p pass", "f force", "d discard"]
            assert "Choose a card to give to Foster 2" in str(app.query_one("#status", Static).content)

    run(go())


def test_the_end_of_a_match_offers_another_game(tmp_path: Path) -> None:
    """The match over: ``c`` opens the chooser (``n`` plays the same again, as before)."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 2, ["foster"], 2, ["Ann"])
        s.deals_in_match = 1
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await play_mexicano_deal(app, pilot, {})
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, Choice) and "c" in app.screen.answers
            await pilot.press("c")
            await pilot.pause()
            assert isinstance(app.screen, GameChooser)

    run(go())


def test_a_mexicano_match_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """R8 in a saved match: ``conquian play --resume`` gives the same seats, deal and actions (the
    exchange included), and the person's own exchange line comes back in his log."""
    from conquian import cli, tui
    from conquian.session import read_table_note

    record = tmp_path / "m.toml"

    async def leave() -> None:
        s = make_session("conquian-mexicano", 3, ["foster"], 3, ["Ann"])
        app = ConquianApp(s, delay=0, record_path=str(record))
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await give_by_keys(app, pilot)
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
        left.update(actions=[str(a) for a in s.deal.actions()], seats=s.seats)

    left: dict[str, Any] = {}
    run(leave())
    text = record.read_text()
    assert "p1 give " in text and read_table_note(text, 3) == (["human", "foster", "foster"], 3)
    started: list[Any] = []
    monkeypatch.setattr(tui.ConquianApp, "run", lambda self: started.append(self))
    assert cli.main(["play", "--resume", str(record)]) == 0
    again = started[0].session
    assert [str(a) for a in again.deal.actions()] == left["actions"] and again.seats == left["seats"]
    assert any(" and got " in line for line in again.log_for(1))

    async def come_back() -> None:
        app = ConquianApp(again, delay=0, record_path=str(record))
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert " and got " in screen_text(app)

    run(come_back())


def test_the_command_line_takes_the_mexicano_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """``conquian play --variant conquian-mexicano --players 3 --hand 9 --no-exchange --exhausted fewest
    --spanish-suits``: those rules, the default bots, the Spanish suits."""
    from conquian import cli, tui

    started: list[Any] = []
    monkeypatch.setattr(tui.ConquianApp, "run", lambda self: started.append(self))
    argv = ["play", "--variant", "conquian-mexicano", "--players", "3", "--hand", "9", "--no-exchange",
            "--exhausted", "fewest", "--spanish-suits", "--seed", "1", "--delay", "0"]
    assert cli.main(argv) == 0
    app = started[0]
    rules = app.session.rules
    assert (rules.players, rules.hand_size, rules.exchange, rules.exhausted) == (3, 9, False, "fewest")
    assert app.spanish_suits and app.session.seats[0] == "human" and len(app.session.seats) == 3
    assert isinstance(app.session.deal, MexicanoDeal) and app.session.deal.phase == "say"
    for players in (2, 4):
        started.clear()
        assert cli.main(["play", "--variant", "conquian-mexicano", "--players", str(players), "--seed", "1"]) == 0
        assert len(started[0].session.seats) == players


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_tercerilla_in_tmux(tmp_path: Path) -> None:
    """The tercerilla in a real terminal with the Spanish suits: the exchange, then a move, then q."""
    from helpers import TmuxGame

    record = tmp_path / "tmux.toml"
    game = TmuxGame(f"conquian-mex-{os.getpid()}", record,
                    tail=" --variant conquian-mexicano --players 3 --spanish-suits")
    try:
        screen = game.wait_for("Choose a card to give to Foster 2", tries=80)
        assert "Choose a card to give to Foster 2" in screen and re.search(r"give \S+ (Or|Co|Es|Ba) to Foster 2",
                                                                            screen)
        game.keys("Enter")
        screen = game.wait_for(" and got ", tries=80)
        assert "Ann gave " in screen and " and got " in screen and " de " in screen
        game.keys("q")
        for _ in range(40):
            time.sleep(0.25)
            if record.exists():
                break
        assert record.exists() and "p1 give " in record.read_text()
    finally:
        ended = game.kill()
    assert ended, "the game went on after its terminal closed"


def test_moves_and_cards_for_people_with_the_spanish_suits() -> None:
    """R8.1 in words: the notation's cards made Spanish, a give and a force naming their player."""
    from conquian.engine.actions import parse_action
    from conquian.present import move_phrase, spanish_text

    assert spanish_text("use 5h 6h 7h | Jd Jc Js") == "use 5 Co, 6 Co, 7 Co | Sota Or, Sota Ba, Sota Es"
    assert spanish_text("Ann turned the king of spades") == "Ann turned rey de espadas"
    give = parse_action("p1 give 7c")
    assert isinstance(give, Give) and move_phrase(give, "Bea") == "give 7♣ to Bea"
    assert spanish_text(move_phrase(parse_action("p1 force 5h p3"), "Cy")) == "force 5 Co on Cy"


def test_a_mexicano_record_replays_with_the_spanish_suits() -> None:
    """``conquian play --replay`` of a tercerilla record, the Spanish suits on (``s`` switches)."""
    from conquian.engine.record import read_record
    from conquian.tui import ReplayApp

    rec = read_record((Path(__file__).parent / "records" / "mexicano_tercerilla.toml").read_text())

    async def go() -> None:
        app = ReplayApp(rec, spanish_suits=True)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await pilot.press("end")
            await pilot.pause()
            table = str(app.query_one("#table", Static).content)
            assert app.spanish and re.search(r"(As|[2-7]|Sota|Cab|Rey) (Or|Co|Es|Ba)", table)
            await pilot.press("s")
            await pilot.pause()
            assert not app.spanish and not re.search(r" (Or|Co|Es|Ba)\b", str(app.query_one("#table", Static).content))

    run(go())


def test_the_fewest_cards_win_is_told_in_words(tmp_path: Path) -> None:
    """R8.6 with ``exhausted = fewest``: the pack runs out, the player with the fewest cards wins,
    and the end-of-deal screen says so in words with the scores of R8.7."""

    async def go() -> None:
        s = make_session("conquian-mexicano", 2, ["foster"], 3, ["Ann"], exhausted="fewest")
        app = ConquianApp(s, delay=0, record_path=str(tmp_path / "m.toml"))
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            await play_mexicano_deal(app, pilot, {})
            assert isinstance(app.screen, Message)
            body = str(app.screen.body)
            assert "the pack is exhausted: Foster holds the fewest cards and wins (R8.6)" in body
            assert "Foster wins the deal: Ann -1, Foster +1" in body and s.match.results[-1] == [-1, 1]

    run(go())
