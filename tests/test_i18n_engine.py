"""The engine's refusals are translated where they are read (docs/translating.md).

Every error the engine and the bots raise carries a :class:`~conquian.i18n.Msg`: ``str(err)`` is
the English of the rules and the records (the tests elsewhere compare it), and
``err.render(translator("es"))`` the same refusal in Spanish, its R-number first.  The engine never
translates anything itself, so a deal plays the same in every language.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conquian import ConquianDeal, Match, get_rules, parse_action, parse_card, parse_cards
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.deck import pack_order
from conquian.engine.errors import ConquianError, IllegalActionError
from conquian.engine.record import ReplayError, read_record, record_from_match, replay, write_record
from conquian.i18n import Msg, active, render, set_language, translator
from helpers import make_deal

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "conquian"
#: The code whose refusals this file guards (the rule book is another's: it reads whole books).
SCANNED = [p for folder in ("engine", "bots") for p in sorted((PACKAGE / folder).rglob("*.py"))
           if p.name != "rulebook.py"]
RULE = re.compile(r"R\d+(?:\.\d+)?")
FIELD = re.compile(r"\{[^{}]*\}")
SPANISH = translator("es")


# ------------------------------------------------------------------ no refusal escapes translation
def error_classes() -> dict[str, type[ConquianError]]:
    """Every ConquianError subclass by name (those of the records too), the base included."""
    found: dict[str, type[ConquianError]] = {}
    todo: list[type[ConquianError]] = [ConquianError]
    while todo:
        cls = todo.pop()
        found[cls.__name__] = cls
        todo += cls.__subclasses__()
    return found


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _words(node: ast.expr | None) -> str | None:
    """Why the message ``node`` is English already rendered, or None if it may be a Msg.

    Refused: a string literal, an f-string, a concatenation, ``str(...)``, ``"...".format(...)`` or
    ``", ".join(...)``, a conditional or an ``or`` with such a branch, and an error's English ``.cause`` or
    ``.reason`` (its ``cause_message``, ``reason_message`` and ``message`` are the Msg)."""
    if node is None:
        return "no message"
    if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
        return "a string literal"
    if isinstance(node, ast.JoinedStr):
        return "an f-string"
    if isinstance(node, ast.BinOp):
        return "text glued together"
    if isinstance(node, ast.IfExp):
        return _words(node.body) or _words(node.orelse)
    if isinstance(node, ast.BoolOp):
        return next((w for w in map(_words, node.values) if w), None)
    if isinstance(node, ast.Call) and _name(node.func) in ("str", "format", "join", "repr"):
        return f"{_name(node.func)}(...)"
    if isinstance(node, ast.Attribute) and node.attr in ("cause", "reason"):
        return f"the English .{node.attr}"
    return None


def untranslated(source: str, classes: dict[str, type[ConquianError]]) -> Iterator[tuple[int, str]]:
    """(line, why) for each ConquianError made with a message that is not a Msg."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        cls = classes.get(_name(node.func) or "")
        if cls is None:
            continue
        # an IllegalActionError (a SetupError too) takes its rule first, then the cause
        index, keyword = (1, "cause") if issubclass(cls, IllegalActionError) else (0, "message")
        arg = node.args[index] if len(node.args) > index else next(
            (k.value for k in node.keywords if k.arg == keyword), None)
        why = _words(arg)
        if why:
            yield node.lineno, f"{cls.__name__} with {why}"


def test_the_scan_finds_what_it_looks_for() -> None:
    classes = error_classes()
    bad = '''
raise NotationError(f"{quote(text)} is not a card")
raise IllegalActionError("R3.5", "a player discards only after using a card")
raise SetupError(rule, "the dealer " + str(n))
raise ReplayError(e.cause, deal=i)
raise ReplayError(str(e), deal=i)
raise RecordError(message="cannot read " + path)
raise IllegalActionError("R2.3", misnamed or "no joker")
'''
    good = '''
raise NotationError(Msg("{value} is not a card", value=quote(text)))
raise IllegalActionError("R3.5", Msg("a player discards only after using a card"))
raise ReplayError(e.cause_message, deal=i, rule=e.rule)
raise ReplayError(e.message, deal=i)
raise IllegalActionError("R2.3", misnamed)
raise ValueError(f"not an error of the engine's refusals: {x}")
'''
    assert len(list(untranslated(bad, classes))) == len(bad.strip().splitlines())
    assert list(untranslated(good, classes)) == []
    assert {"NotationError", "IllegalActionError", "SetupError", "RecordError", "ReplayError"} <= set(classes)


@pytest.mark.parametrize("path", SCANNED, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_refusal_is_a_message_translated_where_read(path: Path) -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {why}"
             for line, why in untranslated(path.read_text(encoding="utf-8"), error_classes())]
    assert not found, "write the message as Msg(...) from conquian.i18n:\n" + "\n".join(found)


def test_the_engine_never_translates_itself() -> None:
    """The engine does not know who reads: it makes messages, never calls ``_()`` or ``render``."""
    for path in SCANNED:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "conquian.i18n":
                names = {a.name for a in node.names}
                assert not names & {"_", "ngettext", "render", "active", "set_language"}, (path, names)


# ------------------------------------------------------------------ refusals in Spanish
def english_phrases() -> set[str]:
    """The English texts of the engine's messages, between their fields, of two words or more."""
    phrases = set()
    for path in SCANNED:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and _name(node.func) in ("Msg", "NMsg", "N_") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                for piece in FIELD.split(node.args[0].value):
                    if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2:
                        phrases.add(piece.strip(" :;,()"))
    return phrases


def mexicano(hands: list[str], **options: object) -> MexicanoDeal:
    rules = get_rules("conquian-mexicano", players=len(hands), **options)
    held = [parse_cards(h) for h in hands]
    deck = [h[k] for k in range(rules.hand_size) for h in held]
    deck += [c for c in pack_order(rules) if c not in deck]
    return MexicanoDeal(rules, deck, dealer=len(hands))


def conquian_after_a_pass() -> None:
    deal = conquian()
    deal.play("p1 pass")
    deal.play("p2 use 7h 8h 9h")


def a_record() -> str:
    match = Match(get_rules("conquian"))
    deal = match.new_deal(seed=5)
    for _ in range(3):
        deal.play(deal.legal_actions()[0])
    return write_record(record_from_match(match))


def conquian() -> ConquianDeal:
    """p1 (the pone) to say to the 9h; nothing on the table."""
    return make_deal("Ac 2c 3c 4c 5c 6c 7c Ad 2d 3d", "Ah 2h 3h 4h 5h 6h 7h As 2s 3s", pack="9h 8c")


def cooncan(*actions: str) -> None:
    """p1 to draw in a three-hand Cooncan deal (he holds 2d 2h 7d 9s Qc Qh Kc), then ``actions``."""
    deal = Match(get_rules("cooncan")).new_deal(seed=4)
    for action in actions:
        deal.play(action)


#: Real refusals of each family, and their English exactly as it was before the messages were
#: translated (the rules' tests, the records' JSON and the command line read it).
SAMPLES: list[tuple[str, Callable[[], object], str]] = [
    ("conquian R3.3", lambda: conquian().play("p2 pass"), "R3.3: it is p1's say, not p2's"),
    ("conquian R3.5", lambda: conquian().play("p1 discard Ac"), "R3.5: a player discards only after using a card"),
    ("conquian R3.6", lambda: conquian().play("p1 force 9h"), "R3.6: p2 has nothing on the table and cannot be forced"),
    ("conquian R3.4", conquian_after_a_pass, "R3.4: p2 does not hold 8h"),
    ("cooncan R4.3 turn", lambda: cooncan("p2 draw"), "R4.3: it is p1's turn, not p2's"),
    ("cooncan R4.3 draw", lambda: cooncan("p1 discard 2d"), "R4.3: p1 must draw before discarding"),
    ("cooncan R4.4", lambda: cooncan("p1 draw", "p1 add 2 7d"), "R4.4: there is no combination 2 on the table"),
    ("cooncan R2.2", lambda: cooncan("p1 draw", "p1 meld 9s Qc Kc"),
     "R2.2: 9s Qc Kc is neither a set (one rank) nor a sequence (one suit)"),
    ("mexicano R8.2", lambda: mexicano(["Ac 2c 3c 4c 5c 6c 7c Jc", "Ad 2d 3d 4d 5d 6d 7d Jd"]).play("p1 pass"),
     "R8.2: the exchange comes first: p1 gives a card to p2"),
    ("mexicano R8.2 no exchange",
     lambda: mexicano(["Ac 2c 3c 4c 5c 6c 7c Jc", "Ad 2d 3d 4d 5d 6d 7d Jd"], exchange=False).play("p1 give Ac"),
     "R8.2: this table plays without the exchange: no card is given now"),
    ("SetupError", lambda: Match(get_rules("conquian")).new_deal(seed=1, dealer=9),
     "R3.1: the dealer must be a seat from 1 to 2, not 9"),
    ("rules R1", lambda: get_rules("conquian", scoring="tricks"),
     "R1: option scoring must be one of 'games', 'pips', not 'tricks'"),
    ("NotationError card", lambda: parse_card("Zz"),
     "'Zz' is not a card (R2.1: rank A 2-9 T J Q K, suit c d h s, or X)"),
    ("NotationError action", lambda: parse_action("p1 pass now"), "'p1 pass now': pass takes no arguments"),
    ("ReplayError action", lambda: replay(read_record(a_record().replace('"p1 pass"', '"p2 pass"', 1))),
     "deal 1, action 1 ('p2 pass'): it is p1's say, not p2's"),
    ("ReplayError file", lambda: replay(read_record('format = "x"')),
     "format must be 'conquian-record/1', not 'x'"),
]


def refusal(make: Callable[[], object]) -> ConquianError:
    with pytest.raises(ConquianError) as info:
        make()
    return info.value


@pytest.mark.parametrize(("make", "english"), [s[1:] for s in SAMPLES], ids=[s[0] for s in SAMPLES])
def test_a_refusal_reads_in_spanish(make: Callable[[], object], english: str) -> None:
    err = refusal(make)
    assert str(err) == english and err.render() == english and err.args == (english,)
    spanish = err.render(SPANISH)
    assert spanish != english
    lead = RULE.match(english)
    assert (RULE.match(spanish) or ["no rule"])[0] == (lead[0] if lead else "no rule"), spanish
    assert RULE.findall(spanish) == RULE.findall(english), spanish
    left = sorted(p for p in english_phrases() if p in spanish)
    assert not left, f"English left in {spanish!r}: {left}"
    assert "{" not in spanish, spanish


def test_a_replay_error_keeps_its_json_english() -> None:
    err = refusal(SAMPLES[-2][1])
    assert isinstance(err, ReplayError)
    assert err.to_json() == {"deal": 1, "action": 1, "text": "p2 pass", "rule": "R3.3",
                             "message": "it is p1's say, not p2's"}
    assert err.reason == "it is p1's say, not p2's" and isinstance(err.reason_message, Msg)
    assert err.render(SPANISH) == "mano 1, jugada 1 ('p2 pass'): le toca decidir a p1, no a p2"
    assert err.reason_message.render(SPANISH) == "le toca decidir a p1, no a p2"


def test_the_seat_is_a_field_the_session_can_name() -> None:
    err = refusal(SAMPLES[3][1])
    assert isinstance(err, IllegalActionError)
    assert err.cause_message == Msg("{seat} does not hold {cards}", seat="p2", cards="8h")
    assert err.render(SPANISH) == "R3.4: p2 no tiene 8h"


def test_the_deal_is_over_has_one_message() -> None:
    deal = Match(get_rules("conquian")).new_deal(seed=5)
    while not deal.over:
        deal.play(deal.legal_actions()[-1])
    err = refusal(lambda: deal.play("p1 pass"))
    assert isinstance(err, IllegalActionError) and err.cause_message == Msg("the deal is over")
    assert err.render(SPANISH) == f"{err.rule}: la mano ya terminó"


# ------------------------------------------------------------------ a deal is the same in every language
def play_every_variant() -> list[object]:
    """Deals of each family played through, with refusals on the way: what a language could change."""
    out: list[object] = []
    for name, options in [("conquian", {}), ("conquian", {"players": 3}), ("cooncan", {}),
                          ("cooncan-double", {"players": 4}), ("conquian-mexicano", {"players": 3})]:
        match = Match(get_rules(name, **options))
        for seed in range(3):
            deal = match.new_deal(seed=seed)
            k = seed
            while not deal.over:
                for bad in ("p1 pass", "p2 discard 7h", "p9 draw", "p1 fly"):
                    try:
                        deal.verify(bad)
                    except ConquianError as e:
                        out.append((type(e).__name__, str(e), e.args))
                legal = deal.legal_actions()
                deal.play(legal[k % len(legal)])
                k += 7
            out.append([str(a) for a in deal.actions()])
            out.append(deal.history())
        out.append(write_record(record_from_match(match)))
        out.append(match.totals)
    return out


def test_a_deal_plays_the_same_in_every_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    english = play_every_variant()
    try:
        set_language("es")
        assert active().lang == "es"
        assert play_every_variant() == english
        err = refusal(SAMPLES[0][1])
        assert str(err) == "R3.3: it is p1's say, not p2's"  # str() is English whatever the program speaks
        assert render(err.message) == "R3.3: le toca decidir a p1, no a p2"
    finally:
        set_language(None)
    assert active().lang == "en"
