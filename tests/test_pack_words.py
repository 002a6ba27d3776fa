"""Issue 54: a card is named by the pack on the screen, everywhere a person reads it.

Whole deals are played (foster bots, fixed seeds) in the Spanish pack and in the French one, and
every text a person reads of them (the log for each seat, the moves' labels, the hints, the
review, the web table's snapshot texts, the terminal's texts) is rendered in English and in
Spanish, for a screen that shows the French suits and for one that shows the Spanish suits: no
card is ever named in the other pack's words or marks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from conquian.bots import make_bot
from conquian.hints import live_out_msgs
from conquian.i18n import Translator, set_language, translator
from conquian.present import spanish_pack
from conquian.review import Decision, Estimate, Review, report
from conquian.session import GameSession
from conquian.tui.keys import make_session
from conquian.tui.widgets import people_text
from conquian.web.local import LocalTable

#: The Spanish pack's words and marks (R8.1): wrong beside the French suits.
SPANISH_WORDS = re.compile(r"\b(oros|copas|espadas|bastos|sota|caballo)\b"
                           r"|\b(?:As|[2-7]|Sota|Cab|Rey) (?:Or|Co|Es|Ba)\b")
#: The French pack's words and marks: wrong beside the Spanish suits.
FRENCH_WORDS = re.compile(r"\b(clubs|diamonds|hearts|spades|jack|queen|tréboles|diamantes|corazones|picas|jota|"
                          r"reina)\b|[♣♦♥♠]")

GAMES = [("conquian-mexicano", 2, 3), ("conquian-mexicano", 3, 7), ("conquian-spanish", 2, 5), ("conquian", 2, 11),
         ("cooncan", 3, 4)]


def readers() -> Iterator[tuple[Translator, bool]]:
    """Each language, with the French suits and with the Spanish ones on the screen."""
    for lang in ("en", "es"):
        for suits in (False, True):
            yield translator(lang).shown(suits), suits


def play(variant: str, players: int, seed: int) -> tuple[GameSession, list[tuple[int, object]]]:
    """A whole deal, the person's seat played by foster; at each of its decisions, the moves and the
    hint's live outs (kept as messages, rendered later by each reader)."""
    s = make_session(variant, players, ["foster"], seed, None)
    person = make_bot("foster", seed=seed)
    said: list[tuple[int, object]] = []
    while not s.deal.over:
        deal = s.deal
        if s.human_to_act:
            seat = deal.to_act
            assert seat is not None
            said.extend((seat, s.move_msg(a)) for a in deal.view(seat).legal_actions())
            said.extend((seat, m) for m in live_out_msgs(deal, seat))
            s.play_human(person.choose(deal.view(seat)))
        else:
            s.bot_step()
    return s, said


def check(text: str, variant: str, suits: bool, where: str) -> None:
    """No card in ``text`` is named in the words of the pack the screen does not show."""
    shown_spanish = suits and variant in ("conquian-mexicano", "conquian-spanish")
    wrong = FRENCH_WORDS if shown_spanish else SPANISH_WORDS
    found = wrong.search(text)
    assert found is None, (variant, suits, where, found.group(0), text[max(0, found.start() - 80):found.end() + 40])


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


@pytest.mark.parametrize(("variant", "players", "seed"), GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_every_text_of_a_whole_deal_names_cards_by_the_pack_shown(variant: str, players: int, seed: int) -> None:
    s, said = play(variant, players, seed)
    seen_spanish = seen_french = False
    for tr, suits in readers():
        texts: list[tuple[str, str]] = []
        for seat in [None, *range(1, players + 1)]:
            texts += [("log", line) for line in s.log_for(seat, tr)]
        texts += [("said", tr.render(m)) for _seat, m in said]
        texts += [("result", tr.render(s.result_msg())), ("washbook", s.washbook_text(tr))]
        # the terminal shows each text through people_text, with the suits it draws
        shown = suits and spanish_pack(s.rules)
        texts += [("terminal", people_text(t, shown)) for _w, t in list(texts)]
        for where, text in texts:
            check(text, variant, suits, where)
        joined = "\n".join(t for _w, t in texts)
        seen_spanish |= bool(SPANISH_WORDS.search(joined))
        seen_french |= bool(FRENCH_WORDS.search(joined))
    # the deal named cards at all, in both packs' words where the Spanish pack is played
    assert seen_french and (seen_spanish or not spanish_pack(s.rules))


@pytest.mark.parametrize("variant", ["conquian-mexicano", "conquian"])
def test_the_web_tables_texts_name_cards_by_the_pack_the_page_draws(variant: str) -> None:
    """The snapshot's texts (log, last moves, result, hint) as the page reads them: ``key`` beside
    the French suits, ``key_suits`` beside the Spanish ones (the page's switch)."""
    for lang in ("en", "es"):
        table = LocalTable.new(variant, bot="foster", seed=9, bot_seed=9)
        table.handle({"type": "hello", "lang": lang})
        person = make_bot("foster", seed=1)
        snaps: list[dict[str, object]] = []
        hints = 0
        for _ in range(400):
            session = table.table.session
            assert session is not None
            if session.deal.over:
                break
            if session.deal.to_act == 1:
                if hints < 3:
                    hint = table.hint()
                    hints += 1
                    for suits, key in ((False, "outs"), (True, "outs_suits")):
                        for text in hint.get(key, hint["outs"]) if suits else hint["outs"]:
                            check(str(text), variant, suits, "hint")
                out = table.handle({"type": "act", "action": str(person.choose(session.deal.view(1))),
                                    "state": table.table.state})
                assert out[-1]["type"] == "table", out
            else:
                table.bot_move()
            snaps.append(table.snapshot())
        assert table.table.session is not None and table.table.session.deal.over
        for snap in snaps:
            for suits in (False, True):
                pick = "_suits" if suits and f"log{'_suits'}" in snap else ""
                log = snap[f"log{pick}"]
                assert isinstance(log, list)
                texts = [str(x) for x in log]
                moves = snap["last_moves"]
                assert isinstance(moves, list)
                texts += [str(m.get(f"words{pick}", "")) for m in moves]
                scores = snap["scores"]
                assert isinstance(scores, dict)
                texts.append(str(scores.get(f"result{pick}", "")))
                for text in texts:
                    check(text, variant, suits, "web")
        if variant == "conquian-mexicano":  # the Spanish pack: both namings are sent
            assert any("log_suits" in snap for snap in snaps)
            assert SPANISH_WORDS.search("\n".join(map(str, snaps[-1]["log_suits"])))  # type: ignore[arg-type]
        else:
            assert not any("log_suits" in snap for snap in snaps)


def test_the_review_names_its_moves_by_the_pack_shown() -> None:
    """The review's report (the terminal's and the web's text): the cards of the Spanish pack as the
    reader's screen draws them, and the game and the seat by their names, not their codes."""
    rv = Review("conquian-mexicano", 2, 1, 8, [Decision(1, 3, "p2 discard Qs", "p2 use 7h 6h 5h", "p2 pass", 0.25,
                                                        "blunder", [Estimate("p2 discard Qs", 0.5, None),
                                                                    Estimate("p2 use 7h 6h 5h", 0.75, None)])], 2)
    for tr, suits in readers():
        text = report(rv, tr)
        check(text, "conquian-mexicano", suits, "review")
        assert "conquian-mexicano" not in text and "p2" not in text, text
        assert "Conquián mexicano" in text
    assert "Cab Es" in report(rv, translator("es").shown(True))
    assert "Q♠" in report(rv, translator("es"))
