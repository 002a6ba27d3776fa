"""Spanish from end to end, without a screen: moves typed in either language's words, cards in
sentences with their article (every card of both packs in every message that embeds one), the
names of the games and the bots, the keys, the discard pile, one voice in the English log, and
the hint that the review agrees with."""

from __future__ import annotations

import random
import re

import pytest

from conquian import get_rules
from conquian.engine.actions import parse_action
from conquian.engine.cards import JOKER, card_str, card_symbol, make_card, spanish_card, the_card
from conquian.engine.errors import ConquianError
from conquian.engine.rules import PRESETS
from conquian.i18n import ENGLISH, Msg, translator
from conquian.present import BOT_NAMES, GAME_NAMES, bot_name, card_words, game_name, move_msg, symbols
from conquian.session import GameSession
from conquian.typed import notation_of

ES = translator("es")


# ----------------------------------------------------------------------- typed moves
def positions(variant: str, players: int, seed: int, count: int) -> list[GameSession]:
    """A session of a game at ``count`` positions of random deals where the person (seat 1) is to
    act: each a copy made by replaying its record (the same deal, the same actions)."""
    from conquian.session import resume

    out: list[GameSession] = []
    rng = random.Random(seed)
    seats = ["human"] + ["random"] * (players - 1)
    s = GameSession(get_rules(variant, players=players), seats=seats,
                    names=["Ana", "Bea", "Cy", "Dan", "Eva"][:players], seed=seed)
    while len(out) < count and not s.match_over:
        if s.deal.over:
            s.new_deal()
        elif s.human_to_act:
            if rng.random() < 0.3:
                out.append(resume(s.record_text(), seed=seed))
            s.play_human(rng.choice(s.legal()))
        else:
            s.bot_step()
    return out


@pytest.mark.parametrize(("variant", "players"), [("conquian", 2), ("conquian-spanish", 2), ("conquian-mexicano", 3),
                                                  ("cooncan", 3), ("cooncan-double", 5)])
def test_every_listed_move_typed_as_the_list_says_it_is_that_move(variant: str, players: int) -> None:
    """The move list's words, English and Spanish, typed back: the same move, in the notation."""
    checked = 0
    for s in positions(variant, players, 7, 12):
        seat = s.deal.to_act
        assert seat is not None
        for action in s.legal():
            for tr in (ENGLISH, ES):
                label = s.move_label(action, tr)
                assert not re.search(r"(?<![\w=])(10|[2-9TAJQK])[cdhs](?!\w)", label), label  # no card code
                read = s.read_move(label, seat)
                assert str(read) == str(action), (label, str(read), str(action))
                checked += 1
    assert checked > 20


@pytest.mark.parametrize(("typed", "notation"), [
    ("pagar Qs", "discard Qs"), ("pagar con la sota de espadas", "discard Js"),
    ("Pagar con el 7 de corazones", "discard 7h"),
    ("descartar 10♦", "discard Td"), ("discard the 7 of hearts", "discard 7h"), ("pay with the J♠", "discard Js"),
    ("pasar", "pass"), ("paso", "pass"), ("Pasar el 5♥", "pass"),
    ("bajar 5♥, 6♥ y 7♥", "use 5h 6h 7h"), ("usar As Ba, As Es, As Or", "use Ac As Ad"),
    ("bajar 8h 9h 10h | comodín como 10♣ J♣ Q♣", "use 8h 9h Th | X=Tc Jc Qc"),
    ("bajar 7 de copas, sota de copas, caballo de copas", "use 7h Jh Qh"),
    ("dar el as de oros a Bea", "give Ad"), ("darle Rey Es a Bea", "give Ks"), ("dar Cab Es", "give Qs"),
    ("forzar 5♥ a Bea", "force 5h"), ("force 5h p2", "force 5h p2"),
    ("tomar del montón", "draw"), ("robar", "draw"), ("tomar el 7 de copas", "take 7h"),
    ("Take the 7♥ from the discard pile", "take 7h"),
    ("agregar 10♥ a la combinación 2", "add 2 Th"), ("add 2 10h", "add 2 10h"),
    ("mover el comodín de abajo de la combinación 2 y agregar 5h", "shift 2 low 5h"),
    ("mover el comodín de la combinación 1 y agregar 9♠", "shift 1 9s"),
    ("use 7c 8c 9c", "use 7c 8c 9c"),
    ("salir: bajar 2♣-6♣, 7♦ 7♥ 7♠ y 8♥ 9♥ 10♥", "use 2c 3c 4c 5c 6c | 7d 7h 7s | 8h 9h Th"),
    ("go out: lay 5♣-J♣", "use 5c 6c 7c Jc"),
])
def test_spanish_and_english_words_are_read_into_the_notation(typed: str, notation: str) -> None:
    assert notation_of(typed, "conquian", [{"Ana", "Tú"}, {"Bea"}], in_play="5h") == notation


def test_bajar_is_a_meld_in_cooncan_and_a_name_forces_at_a_table_of_three() -> None:
    assert notation_of("bajar 7c 8c 9c", "cooncan") == "meld 7c 8c 9c"
    names = [{"Ana"}, {"Bea"}, {"Cy"}]
    assert notation_of("forzar 5h a Bea", "mexicano", names) == "force 5h p2"
    assert notation_of("forzar 5♥ a Zed", "mexicano", names) == "forzar 5♥ a Zed"  # nobody's name: refused as typed


def test_what_is_not_a_move_is_refused_and_the_record_keeps_the_notation() -> None:
    s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ana", "Bob"], seed=3)
    with pytest.raises(ConquianError):
        s.read_move("bailar 7♣", 1)
    with pytest.raises(ConquianError):
        s.read_move("pagar la sota de nada", 1)
    action = next(a for a in s.legal() if a.verb in ("pass", "use"))
    s.play_human(ES.render(s.move_msg(action)))
    assert str(action) in s.record_text()
    assert "pasar" not in s.record_text() and "bajar" not in s.record_text()


# ----------------------------------------------------------------------- cards in sentences
FRENCH = [make_card(rank, suit) for suit in range(4) for rank in range(1, 14)]
SPANISH_PACK = [make_card(rank, suit) for suit in range(4) for rank in (1, 2, 3, 4, 5, 6, 7, 11, 12, 13)]
FEMININE = {"J"}  # the jota, the sota
#: The French pack's queen is feminine in Spanish (la reina), the Spanish pack's is a caballo.
FEMININE_FRENCH = {"J", "Q"}


def messages_with_a_card() -> list[tuple[str | None, str]]:
    """Every message of the catalogue whose fields hold a card in a sentence (the engine's refusals,
    the log, the web page's buttons and lines): (context, msgid)."""
    out = []
    for key in ES.messages():
        context, _, msgid = key.rpartition("\x04")
        if re.search(r"\{(card|gave|got)\}", msgid) and not msgid.startswith(("the {card}", "joker as")):
            out.append((context or None, msgid))
    return out


def test_the_catalogue_has_the_messages_that_embed_a_card() -> None:
    ids = {m for _c, m in messages_with_a_card()}
    assert {"Pass {card}", "Give {card} to {name}", "You have the say to {card}", "{seat} does not hold {card}",
            "You gave {gave} to {to} and got {got} from {from}", "{who} passed {card}"} <= ids


@pytest.mark.parametrize("pack", ["french", "spanish"])
def test_every_card_has_its_article_in_every_message_that_embeds_one(pack: str) -> None:
    """Each card with the article of its noun: "la J♠" (la jota), "el K♠", "la sota de espadas",
    "el caballo de espadas"; never "el sota", "la caballo", "de el", "a el" (R8.1's names)."""
    spanish = pack == "spanish"
    cards = SPANISH_PACK if spanish else FRENCH
    words = ("la sota de espadas", "el caballo de espadas", "el rey de copas", "el as de bastos")
    # the Spanish pack's names where its suits are on the screen (R8.1)
    es, en = ES.shown(spanish), ENGLISH.shown(spanish)
    for card in cards:
        rank = card_str(card)[0]
        feminine = rank in (FEMININE if spanish else FEMININE_FRENCH)
        article = "la" if feminine else "el"
        face = spanish_card(card) if spanish else card_symbol(card)
        assert es.render(the_card(card, spanish)) == f"{article} {face}"
        assert en.render(the_card(card, spanish)) == f"the {face}"
        # the log's words of a card: its article too (card_words)
        said = es.render(card_words(card, spanish))
        assert said.split()[0] == ("la" if rank == "J" or (not spanish and rank == "Q") else "el"), said
        for context, msgid in messages_with_a_card():
            fields = {k: "Bea" for k in re.findall(r"\{(\w+)\}", msgid)}
            for k in ("card", "gave", "got"):
                if k in fields:
                    fields[k] = es.render(the_card(card, spanish))
            text = (ES.gettext(msgid) if context is None else ES.pgettext(context, msgid)).format(**fields)
            assert f"{article} {face}" in text, (msgid, text)
            assert not re.search(r"\b(el|la|los|las) (el|la)\b|\b(de|a) el\b", text), (msgid, text)
    assert all(w.split()[0] in ("la", "el") for w in words)


def test_the_joker_and_the_spanish_pack_courts_in_words() -> None:
    assert ES.render(the_card(JOKER)) == "el X"
    sota, caballo, rey = (make_card(r, 3) for r in (11, 12, 13))
    suits = ES.shown(True)  # the Spanish pack's suits on the screen
    assert suits.render(card_words(sota, True)) == "la sota de espadas"
    assert suits.render(card_words(caballo, True)) == "el caballo de espadas"
    assert suits.render(card_words(rey, True)) == "el rey de espadas"
    assert suits.render(Msg("You gave {gave} to {to} and got {got} from {by}", gave=card_words(sota, True), to="Bea",
                            got=card_words(make_card(1, 0), True), by="Bea")) == (
        "Le diste la sota de espadas a Bea y recibiste el as de bastos de Bea")
    # the same cards beside the French suits: the French pack's words (issue 54)
    assert [ES.render(card_words(c, True)) for c in (sota, caballo, rey, make_card(1, 0))] == [
        "la jota de picas", "la reina de picas", "el rey de picas", "el as de tréboles"]


def test_cards_on_screen_are_symbols_never_codes() -> None:
    assert symbols("use 8h 9h Th | X=Tc Jc Qc") == "use 8♥ 9♥ 10♥ | X=10♣ J♣ Q♣"
    assert symbols("As de oros y Ks.") == "As de oros y K♠."
    assert ES.render(move_msg(parse_action("p1 give Ad"), "Expert")) == "dar A♦ a Expert"
    for text in ("p1 discard Qs", "p1 take 7h", "p1 meld X=9h Th Jh", "p1 add 2 5c", "p1 shift 1 low 4d"):
        for tr in (ENGLISH, ES):
            shown = tr.render(move_msg(parse_action(text)))
            assert not re.search(r"(?<![\w=])(10|[2-9TAJQK])[cdhs]\b", shown), shown


# ----------------------------------------------------------------------- names
def test_every_game_and_bot_has_a_name_for_people() -> None:
    for variant in PRESETS:
        assert variant in GAME_NAMES
        assert ES.render(game_name(variant)) != variant
    assert ES.render(game_name("conquian-mexicano")) == "Conquián mexicano"
    from conquian.bots import bot_names

    for kind in bot_names():
        assert kind in BOT_NAMES
    assert [ES.render(bot_name(k)) for k in ("expert", "master", "apprentice", "exit", "random", "foster")] == [
        "Experto", "Maestro", "Aprendiz", "Discípulo", "Azar", "Foster"]


def test_a_bots_default_name_is_read_in_each_language_and_the_record_keeps_it() -> None:
    s = GameSession(get_rules("cooncan"), seats=["human", "expert", "expert"], seed=2)
    assert s.names == ["You", "Expert 2", "Expert 3"]
    assert s.names_for_seats(ES) == ["Tú", "Experto 2", "Experto 3"]
    assert s.names_for_seats(ENGLISH) == ["You", "Expert 2", "Expert 3"]
    assert 'players = ["You", "Expert 2", "Expert 3"]' in s.record_text()
    s.name_kinds = ["human", "human", "human"]  # a person named like a bot keeps his name
    assert s.names_for_seats(ES)[1] == "Expert 2"


# ----------------------------------------------------------------------- keys
def test_the_terminals_keys_follow_the_language() -> None:
    from conquian.tui.keys import game_keys

    en, es = game_keys(ENGLISH), game_keys(ES)
    assert en["use"][0] == "u" and en["seen"][0] == "b"
    assert es["use"][0] == "b" and es["meld"][0] == "b" and es["seen"][0] == "e"  # bajar; enterradas
    assert es["give"][0] == "d" and es["discard"][0] == "g" and es["draw"][0] == "m"
    for keys in (en, es):
        letters = [k for a, (k, _w, _s) in keys.items() if a != "meld"]
        assert len(letters) == len(set(letters)), letters  # one action a letter (bajar: use or meld)


# ----------------------------------------------------------------------- words
def test_the_cooncan_interface_says_discard_pile_and_the_english_log_one_voice() -> None:
    s = GameSession(get_rules("cooncan"), seats=["human", "foster", "foster"], seed=4)
    rng = random.Random(1)
    for _ in range(60):
        if s.deal.over:
            break
        if s.human_to_act:
            s.play_human(rng.choice(s.legal()))
        else:
            s.bot_step()
    log = s.log_for(1, ENGLISH)
    assert any("discard pile" in line for line in log)
    assert not any("stock" in line for line in log), log
    mine = [line for line in log if re.match(r"(?i)you\b", line)]
    assert mine and all(line.startswith("You ") for line in mine), mine


def test_a_hint_asked_twice_is_the_same_and_the_review_calls_it_good() -> None:
    """The hint is the review's best move at the position, seeded by the position: asked twice the
    same, and once played, the review of the record marks that decision good (cost 0)."""
    from conquian.engine.record import read_record
    from conquian.review import _task, hint_choice

    s = GameSession(get_rules("conquian"), seats=["human", "foster"], names=["Ana", "Bob"], seed=11)
    rng = random.Random(5)
    checked = 0
    while checked < 2 and not s.deal.over:
        if not s.human_to_act:
            s.bot_step()
            continue
        if len(s.legal()) < 2:
            s.play_human(s.legal()[0])
            continue
        rules = s.rules
        j = len(s.deal.actions())
        names = s.names or []
        first = hint_choice(rules.name, rules.options_diff(), names, 1, s.deal, 1, playouts=16)
        again = hint_choice(rules.name, rules.options_diff(), names, 1, s.deal, 1, playouts=16)
        assert first == again
        s.play_human(first)
        decision = _task((s.record_text(), 1, 1, j, 1, 16))
        assert decision.played == first and decision.best == first and decision.mark == "good", decision
        checked += 1
        if not s.deal.over and s.human_to_act:
            s.play_human(rng.choice(s.legal()))
    assert checked or s.deal.over
    assert read_record(s.record_text())


def test_cards_in_brackets_are_drawn_in_the_same_pack() -> None:
    """Issue 54: the hint read "(3♣ 3 Or)": a card after an opening bracket kept its French suit."""
    from conquian.present import ShownCards, spanish_text

    assert spanish_text("2 cartas vivas (3♣ 3♦)") == "2 cartas vivas (3 Ba, 3 Or)"
    assert spanish_text("[Js Qs]") == "[Sota Es, Cab Es]"
    cards = ShownCards("3c 3d", True)
    assert ES.render(cards) == "3♣ 3♦" and ES.shown(True).render(cards) == "3 Ba, 3 Or"
