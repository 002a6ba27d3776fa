"""The snapshot's moves: every legal move of the seat to act, with its words and its cards, so that
the page never reads the notation; and nobody else's moves in any other snapshot."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import conquian.web
from conquian import get_rules
from conquian.engine.actions import parse_action
from conquian.engine.cards import card_str
from conquian.i18n import translator
from conquian.present import order_moves, spanish_card_words, symbols
from conquian.session import GameSession
from conquian.web.lang import catalogue
from conquian.web.local import presets as local_presets
from conquian.web.replay import replay_frames, replay_moves
from conquian.web.snapshot import options_message, table_snapshot
from conquian.web.table import TURN_TIMERS, Table
from web_server import Server

#: A card in the notation (``7h``, ``Tc``, ``X=5d``): never in a move's words for people.
NOTATION = re.compile(r"(?<![\w])(?:X=)?(?:10|[2-9TAJQK])[cdhs](?![\w])")
PLACE = re.compile(r"^(play|pack|stock|combo:\d+|side:\d+)$")


def full_table(variant: str, players: int, seed: int) -> Table:
    t = Table("t", "test", get_rules(variant, players=players), seed=seed)
    for s in range(1, players + 1):
        t.sit(s, f"P{s}")
    return t


@pytest.mark.parametrize("variant,players", [("conquian", 2), ("conquian", 3), ("cooncan", 3), ("cooncan-double", 5),
                                             ("conquian-spanish", 2), ("conquian-mexicano", 3),
                                             ("conquian-mexicano", 4)])
def test_the_snapshot_carries_the_engines_legal_moves_with_words_and_cards(variant: str, players: int) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        t = full_table(variant, players, seed)
        session = t.session
        assert session is not None
        for _ in range(40):
            deal = session.deal
            seat = deal.to_act
            if seat is None:
                break
            view = deal.view(seat)
            legal = order_moves(view.legal_actions(), view.phase)
            mine = table_snapshot(t, seat)["deal"]
            hand = set(mine["hand"])
            laid = {c for side in mine.get("sides", []) if side["seat"] == seat for meld in side["melds"] for c in meld}
            for lang in ("en", "es"):
                snap = table_snapshot(t, seat, translator(lang))
                moves = snap["moves"]
                # the engine's legal actions, one for one, in the order the page lists them
                assert [parse_action(f"p{seat} {m['act']}") for m in moves] == legal
                assert [m["act"] for m in moves] == snap["legal"]
                for m in moves:
                    assert m["words"] and not NOTATION.search(m["words"]), m
                    if "words_suits" in m:
                        assert not NOTATION.search(m["words_suits"]), m
                    assert all(PLACE.match(p) for p in m["places"]), m
                    verb = m["act"].split()[0]
                    # a move's cards are the seat's own, the card in play or its side's (laid again, R3.4)
                    if verb in ("use", "meld", "add", "shift", "discard", "give"):
                        own = {c for c in m["cards"] if not c.startswith("X")}
                        assert m["cards"] and own <= hand | {snap["deal"].get("card_in_play")} | laid, (m, hand)
                    in_play = m["act"].split()[1:2] == [snap["deal"].get("card_in_play")]
                    assert m["choice"] == (verb in ("pass", "draw", "take") or (
                        verb == "force" and view.phase != "discard" and in_play))
                # nobody else sees the moves of the seat to act, nor any of his own
                for other in [*(s for s in range(1, players + 1) if s != seat), None]:
                    assert table_snapshot(t, other, translator(lang))["moves"] == []
            t.act(seat, rng.choice(snap["legal"]), t.state)


def test_a_moves_words_are_the_buttons_in_english_and_in_spanish() -> None:
    t = Table("t1", "Friday", get_rules("conquian"), seed=5)
    t.sit(1, "Ann")
    t.sit(2, "Bea")
    en = table_snapshot(t, 1)["moves"]
    es = table_snapshot(t, 1, translator("es"))["moves"]
    assert [(m["act"], m["words"], m["cards"], m["places"], m["choice"]) for m in en] == [
        ("pass", "Pass the 10♣", [], ["play"], True),
        ("use 8c 9c Tc", "Lay 8♣ 9♣ 10♣", ["8c", "9c", "Tc"], ["play", "side:1"], False)]
    assert [m["words"] for m in es] == ["Pasar el 10♣", "Bajar 8♣ 9♣ 10♣"]


def test_the_spanish_pack_names_its_cards_by_the_pack_on_screen() -> None:
    t = Table("t1", "Friday", get_rules("conquian-spanish"), seed=3)
    t.sit(1, "Ann")
    t.sit(2, "Bea")
    seat = t.session.deal.to_act  # type: ignore[union-attr]
    moves = table_snapshot(t, seat, translator("es"))["moves"]
    card = table_snapshot(t, seat)["deal"]["card_in_play"]
    passing = next(m for m in moves if m["act"] == "pass")
    suits = {"c": "bastos", "d": "oros", "h": "copas", "s": "espadas"}
    symbols = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    # beside the French suits the card's symbol, beside the Spanish pack's own its words (R8.1)
    assert passing["words"].startswith("Pasar ") and passing["words"].endswith(symbols[card[-1]])
    assert passing["words_suits"].startswith("Pasar ") and passing["words_suits"].endswith(f"de {suits[card[-1]]}")


def test_the_options_answer_carries_the_selections_moves_as_the_snapshot_does() -> None:
    t = Table("t1", "Friday", get_rules("conquian"), seed=5)
    t.sit(1, "Ann")
    t.sit(2, "Bea")
    answer = options_message(t, 1, ["8c"], translator("es"))
    assert answer["actions"] == [m["act"] for m in answer["moves"]] == ["use 8c 9c Tc"]
    assert answer["moves"][0]["words"] == "Bajar 8♣ 9♣ 10♣"
    # not the seat's turn, or a spectator: nothing
    assert options_message(t, 2, ["8c"])["moves"] == [] and options_message(t, None, ["8c"])["moves"] == []


# ------------------------------------------------------------ the page's words from one source
STATIC = Path(conquian.web.__file__).parent / "static"


def test_the_catalogue_carries_every_cards_words_for_the_page() -> None:
    """The page names cards with the catalogue's words (present.pack_words): every card of the
    Spanish pack in words, every card with the French suits' symbols, each article's context."""
    cards = catalogue("es")["cards"]
    spanish = get_rules("conquian-spanish")
    for card in range(64):
        if card & 15 == 0 or card & 15 > 13:
            continue
        code = card_str(card)
        assert cards["symbols"][code] == symbols(code)
        if card & 15 in spanish.ranks:
            assert cards["words"][code] == spanish_card_words(card)
    assert len(cards["words"]) == 40 and len(cards["symbols"]) == 52
    assert cards["spanish_articles"]["Q"] == "Spanish pack card: caballo" and cards["articles"]["Q"] == "card: queen"


def test_the_pages_scripts_keep_no_copy_of_the_words_the_lists_or_the_notation() -> None:
    scripts = {p.name: p.read_text(encoding="utf-8") for p in STATIC.glob("*.js")}
    for name, text in scripts.items():
        assert not re.search(r"\} de \$\{", text), name  # a card of the Spanish pack pieced together
        assert "[30, 60, 120, 300]" not in text.replace("AWAY_CHOICES = [30, 60, 120, 300]", ""), name
        assert "TURN_TIMERS" not in text, name
    # the table reads the snapshot's moves, never the notation
    for name in ("table.js", "panels.js"):
        assert ".legal" not in scripts[name], name
    # no page takes a move or a refusal's notation apart: the replay's moves and the refusals come
    # in words (conquian.web.replay.replay_moves, conquian.web.master.error_message)
    offline = {p.name: p.read_text(encoding="utf-8") for p in (STATIC.parent / "offline").glob("*.js")}
    for name, text in {**scripts, **offline}.items():
        for copy in ("parseMove", "notationWords", "recordMoveWords", "NOTATION_CARD"):
            assert copy not in text, (name, copy)


@pytest.mark.parametrize("variant,players", [("conquian-spanish", 2), ("conquian-mexicano", 3), ("cooncan", 3)])
def test_the_replays_moves_are_the_words_of_the_tables_own_list(variant: str, players: int) -> None:
    """Each replay frame's move (GET /replay's ``moves``) is the words the session gave the move as
    it was played (:meth:`~conquian.session.GameSession.move_label`, the seat named), in English and
    Spanish, beside either suits of the Spanish pack: the page shows them and reads no notation."""
    rng = random.Random(players)
    session = GameSession(get_rules(variant, players=players), seats=["human"] * players,
                          names=[f"P{s}" for s in range(1, players + 1)], seed=4)
    readers = [translator("en"), translator("es"), translator("es").shown(True), translator("en").shown(True)]
    said: list[list[str] | None] = []
    for deal in range(2):
        if deal:
            session.new_deal()
        said.append(None)
        while not session.deal.over:
            action = rng.choice(session.legal())
            said.append([f"{tr.render(session.person(action.seat))}: {session.move_label(action, tr)}"
                         for tr in readers])
            session.play_human(action)
    frames = replay_frames(session.match)
    assert len(frames) == len(said)
    for k, tr in enumerate(readers):
        moves = replay_moves(session, tr.shown(False))
        assert len(moves) == len(frames)
        for frame, move, words in zip(frames, moves, said, strict=True):
            assert (move is None) == (frame["action"] is None) == (words is None)
            if move is None or words is None:
                continue
            shown = move.get("words_suits", move["words"]) if tr.spanish_suits else move["words"]  # as the page
            assert shown == words[k]
            assert tr.spanish_suits or not NOTATION.search(shown), shown  # 5♣, never 5c
            assert ("words_suits" in move) == (variant != "cooncan")


@pytest.fixture(scope="module")
def timers_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("timers")
    s = Server(f"sqlite:///{tmp / 'web.db'}", tmp, extra=("--log-level", "warning", "--turn-timers", "45,90")).start()
    yield s
    s.stop()


def test_the_turn_timers_the_page_offers_are_the_servers(timers_server: Server) -> None:
    assert timers_server.get("/api/presets").json()["turn_timers"] == [45, 90]
    assert local_presets()["turn_timers"] == list(TURN_TIMERS)
