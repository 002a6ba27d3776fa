"""The session's words in Spanish: the same game in every language, a log each reader reads in his own.

A whole deal of each family is played by the bots (the person's seat too) with a fixed seed, once
with the program in English and once in Spanish: the record, the scores and every decision are the
same (changing the language never changes a record, a view, a score or a bot's choice).  The Spanish
log, as every seat and a spectator read it, holds no sentence of the English catalogue, names every
card in Spanish (the Spanish pack with its own suits, R8.1) and never shows a seat another seat's
hidden card (R4.3: a draw from the pack; R8.2: the card given in the exchange).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest

from conquian.bots import make_bot
from conquian.engine.actions import parse_action
from conquian.engine.cards import parse_card
from conquian.i18n import ENGLISH, LOCALE_DIR, Msg, set_language, translator
from conquian.present import card_words, move_msg
from conquian.session import GameSession, LogLine
from conquian.tui.keys import make_session

ES = translator("es")
FIELD = re.compile(r"\{[^{}]*\}")
WORD = re.compile(r"[A-Za-z]+")
#: A card in words in English ("the 7 of hearts", "the joker").
ENGLISH_CARD = re.compile(r"\bthe (?:ace|[0-9]+|jack|queen|king) of (?:clubs|diamonds|hearts|spades)\b|\bthe joker\b")
FRENCH_SUITS = "tréboles|diamantes|corazones|picas"
SPANISH_SUITS = "oros|copas|espadas|bastos"
#: A card in words in Spanish: "el 7 de corazones", "la jota de picas", "la sota de oros", "el comodín".
SPANISH_CARD = re.compile(rf"\b(?:el|la) (?:as|[0-9]+|jota|reina|rey|sota|caballo) "
                          rf"de (?:{FRENCH_SUITS}|{SPANISH_SUITS})\b|\bel comodín\b")
ENGLISH_WORDS = re.compile(r"\b(?:ace|jack|queen|king|clubs|diamonds|hearts|spades|joker)\b")


@cache
def english_fragments() -> tuple[str, ...]:
    """For every English text of the catalogue, the longest piece between its fields that has two
    words or more: a Spanish screen or log that shows one shows an untranslated sentence.  A piece
    that the Spanish catalogue keeps as it is (a command, the notation) is not English."""
    babel = pytest.importorskip("babel.messages.pofile")
    with (LOCALE_DIR / "conquian.pot").open("rb") as f:
        catalogue = babel.read_po(f)
    with (LOCALE_DIR / "es" / "LC_MESSAGES" / "conquian.po").open("rb") as f:
        spanish = "\n".join(s for m in babel.read_po(f) if m.id
                            for s in (m.string if isinstance(m.string, tuple) else (m.string,)))
    out = set()
    for m in catalogue:
        for msgid in (m.id if isinstance(m.id, tuple) else (m.id,)):
            pieces = [p.strip() for p in FIELD.split(msgid or "")]
            pieces = [p for p in pieces if len(WORD.findall(p)) >= 2]
            if pieces and max(pieces, key=len) not in spanish:
                out.add(max(pieces, key=len))
    return tuple(sorted(out))


def english_left(text: str) -> list[str]:
    """The English catalogue's sentences found in ``text``."""
    return [f for f in english_fragments() if f in text]


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """Each test may switch the program's language; it is English again afterwards."""
    try:
        yield
    finally:
        set_language("en")


def play(variant: str, players: int | None, seed: int, deals: int) -> GameSession:
    """``deals`` whole deals at a table of one person (named "You", played by foster) and foster bots."""
    s = make_session(variant, players, ["foster"], seed, None)
    person = make_bot("foster", seed=seed)
    while True:
        deal = s.deal
        if deal.over:
            if len(s.match.deals) >= deals:
                return s
            s.new_deal()
        elif s.human_to_act:
            assert deal.to_act is not None
            s.play_human(person.choose(deal.view(deal.to_act)))
        else:
            s.bot_step()


GAMES = [("conquian", None, 11, 2), ("cooncan-double", None, 5, 1), ("conquian-mexicano", 3, 7, 1)]


@pytest.mark.parametrize(("variant", "players", "seed", "deals"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_deal_in_spanish_is_the_same_game(variant: str, players: int | None, seed: int, deals: int) -> None:
    set_language("en")
    english = play(variant, players, seed, deals)
    set_language("es")
    spanish = play(variant, players, seed, deals)
    # the same record (the bots' decisions), the same scores, whatever the language
    assert spanish.record_text().split("\n", 1)[1] == english.record_text().split("\n", 1)[1]
    assert spanish.match.results == english.match.results and spanish.match.totals == english.match.totals
    # a record keeps the names as they are: never translated
    assert english.names and spanish.names == english.names == ["You", *english.names[1:]]
    spanish_pack = variant == "conquian-mexicano"
    readers: list[int | None] = [None, *range(1, spanish.rules.players + 1)]
    for seat in readers:
        en, es = english.log_for(seat, ENGLISH), spanish.log_for(seat, ES)
        assert en == spanish.log_for(seat, ENGLISH) and len(es) == len(en)
        text = "\n".join(es)
        assert not english_left(text), (seat, english_left(text)[:5])
        assert not ENGLISH_WORDS.search(text), ENGLISH_WORDS.findall(text)[:5]
        for e, s in zip(en, es, strict=True):  # every card named in English is named in Spanish
            assert len(ENGLISH_CARD.findall(e)) == len(SPANISH_CARD.findall(s)), (e, s)
        if spanish_pack:  # R8.1: the Spanish pack's own suits where they are shown, the French ones beside French suits
            suited = "\n".join(spanish.log_for(seat, ES.shown(True)))
            assert not re.search(FRENCH_SUITS, suited) and re.search(SPANISH_SUITS, suited)
            assert not re.search(SPANISH_SUITS, text) and re.search(FRENCH_SUITS, text)
    assert re.match(r"(Ganas la mano|.* gana la mano|tablas: |la mano se anula)", spanish.log_for(1, ES)[-1])


@pytest.mark.parametrize(("variant", "players", "seed", "deals"), GAMES[1:], ids=[g[0] for g in GAMES[1:]])
def test_a_seat_never_reads_another_seats_hidden_card(variant: str, players: int | None, seed: int,
                                                      deals: int) -> None:
    """R4.3 (a draw from the pack is seen by the drawer only) and R8.2 (the card given in the
    exchange, and the one got, are the giver's and the getter's): in Spanish as in English."""
    set_language("es")
    s = play(variant, players, seed, deals)
    hidden: list[LogLine] = [line for line in s.lines if line.seat is not None and line.private != line.text]
    assert hidden
    for seat in [None, *range(1, s.rules.players + 1)]:
        log = s.log_for(seat, ES)
        for line in hidden:
            private = ES.render(line.private)
            if line.seat == seat:
                assert private in log
            else:
                assert private not in log, (seat, private)


def test_cards_in_words_in_spanish() -> None:
    def es(card: str, spanish: bool = False) -> str:
        return ES.shown(spanish).render(card_words(parse_card(card), spanish))

    assert [es(c) for c in ("7h", "Js", "Ac", "Qd", "Kh", "Th")] == [
        "el 7 de corazones", "la jota de picas", "el as de tréboles", "la reina de diamantes", "el rey de corazones",
        "el 10 de corazones"]
    # R8.1: the Spanish pack where its suits are shown; in English as ever with the French suits
    assert [es(c, True) for c in ("7h", "Jd", "Qc", "Ks", "Ad")] == [
        "el 7 de copas", "la sota de oros", "el caballo de bastos", "el rey de espadas", "el as de oros"]
    assert str(card_words(parse_card("Jd"), True)) == "the jack of diamonds"


def test_moves_and_names_in_spanish() -> None:
    s = make_session("conquian-mexicano", 3, ["foster"], 3, None)
    labels = {str(move_msg(parse_action(t), "Bea")): ES.render(move_msg(parse_action(t), "Bea")) for t in (
        "p1 pass", "p1 discard Th", "p1 force 5h p2", "p1 give 7c", "p1 use 7h 8h 9h")}
    assert labels == {"pass": "pasar", "discard 10♥": "pagar 10♥", "force 5♥ on Bea": "forzar 5♥ a Bea",
                      "give 7♣ to Bea": "dar 7♣ a Bea", "use 7♥ 8♥ 9♥": "bajar 7♥ 8♥ 9♥"}
    assert ES.render(move_msg(parse_action("p1 add 2 Th"))) == "agregar 10♥ a la combinación 2"
    assert ES.render(move_msg(parse_action("p1 draw"))) == "tomar del montón"
    assert s.names_for_seats(ES) == ["Tú", "Foster 2", "Foster 3"]
    assert s.names_for_seats(ENGLISH) == ["You", "Foster 2", "Foster 3"]
    several = GameSession(s.rules, ["human", "human", "foster"], seed=1)
    assert several.names_for_seats(ES) == ["Jugador 1", "Jugador 2", "Foster"]
    # the lone person's seat label: "tú" as a subject, "ti" after a preposition, "contigo" after "con"
    assert s.humanize("p1 y p2", ES) == "Tú y Foster 2"
    assert (s.humanize("R3.6: la carta no va con p1 ni de p1 a p3", ES)
            == "R3.6: la carta no va contigo ni de ti a Foster 3")
    assert s.humanize(Msg("{rule}: {cause}", rule="R8.4", cause="p2 forzó a p1"), ES) == "R8.4: Foster 2 forzó a ti"
    # English as ever
    assert s.humanize("R3.3: it is p1's say, not p2's", ENGLISH) == "R3.3: it is your say, not Foster 2's"


def test_the_person_is_spoken_to_in_spanish() -> None:
    set_language("es")
    s = play("conquian", 3, 3, 3)
    log = s.log_for(1, ES)
    assert any(line.startswith(("Volteaste ", "Pasaste ", "Bajaste ", "Pagaste ")) for line in log)
    # R6.3: at a three-seat table the dealer sits out, and the person is told so in the second person
    assert "Descansas esta mano (R6.3)" in log or any(line.endswith("descansa esta mano (R6.3)") for line in log)
    english = "\n".join(s.log_for(1, ENGLISH))
    assert "You sits out" not in english and "You deals" not in english
    assert s.washbook_text(ES).startswith("mano  valor")
    assert s.washbook_text(ENGLISH) == str(s.match.washbook)


def test_a_review_in_spanish() -> None:
    """``conquian review``'s words (docs/review.md) in Spanish; the English as the command prints it."""
    from conquian.review import Decision, Estimate, Review, mark_word, report

    estimates = [Estimate("p2 pass", 0.5, None), Estimate("p2 use 7h 8h 9h", 0.75, None)]
    rv = Review("conquian", 2, 1, 8, [Decision(1, 3, "p2 pass", "p2 use 7h 8h 9h", "p2 pass", 0.25, "blunder",
                                               estimates)], 2)
    es = report(rv, ES)
    assert es.splitlines()[0] == ("Conquián, mano 1, Jugador 2: 1 decisión revisada, 2 forzadas, "
                                  "8 simulaciones por jugada candidata")
    assert "error grave" in es and "precisión 17%" in es and "momento clave: decisión 1 (jugada #3)" in es
    assert not english_left(es), english_left(es)
    assert report(rv, ENGLISH).splitlines()[-1] == (
        "turning point: decision 1 (action #3), pass: blunder, cost 0.25; best use 7♥ 8♥ 9♥")
    assert "pasar" in es and "bajar 7♥ 8♥ 9♥" in es and "7h" not in es  # the moves in words, no card code
    assert [mark_word(m, ES) for m in ("good", "inaccuracy", "mistake", "blunder")] == [
        "buena", "imprecisión", "error", "error grave"]


def test_the_games_in_spanish() -> None:
    from conquian.present import games

    titles = [t for t, _variant, _options in games(ES)]
    assert titles[0] == "Conquián (2 jugadores)"
    assert "Tercerilla: el conquián mexicano para tres (3 jugadores)" in titles
    assert next(t for t, _v, _o in games(ENGLISH)) == "Conquián (2 players)"
    assert not english_left("\n".join(titles))
