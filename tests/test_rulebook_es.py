"""The Spanish rule book (``rulebook.es.md``): the English book's rules, numbers and anchors, every
rule in Spanish; a language without a book reads the English one, and the refusals of the rule
book speak the reader's language."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest

from conquian.engine import rulebook
from conquian.i18n import ENGLISH, translator
from test_rulebook import NUMBERS

#: Words any Spanish paragraph of the book uses, and that English never does.
SPANISH = {"el", "la", "los", "las", "de", "del", "que", "una", "en", "con", "se", "y", "es", "por"}


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-záéíóúñü]+", text.lower()))


def test_the_spanish_book_ships_in_the_package() -> None:
    assert files("conquian.engine").joinpath("rulebook.es.md").is_file()
    assert rulebook.book_language("es") == "es" and rulebook.book_language("es-MX") == "es"


def test_the_spanish_book_has_the_english_numbers_in_order() -> None:
    assert list(rulebook.rules(lang="es")) == list(rulebook.rules(lang="en")) == NUMBERS


def test_the_headings_and_anchors_are_the_english_books() -> None:
    def heads(markdown: str) -> list[tuple[str, str, str]]:
        return [(m.group(1), m.group(2), m.group(4)) for line in markdown.splitlines()
                if (m := rulebook._HEADING.match(line))]

    english, spanish = heads(rulebook.markdown("en")), heads(rulebook.markdown("es"))
    assert spanish == english and all(number == anchor for _, number, anchor in spanish)
    # every "## R" line is a heading the rule book reads (none lost to a typo)
    assert len(re.findall(r"^#{2,3} R\d", rulebook.markdown("es"), flags=re.MULTILINE)) == len(NUMBERS)
    assert all(rulebook.anchor(n) == n for n in NUMBERS)


@pytest.mark.parametrize("number", NUMBERS)
def test_every_rule_is_in_spanish(number: str) -> None:
    es, en = rulebook.rules(lang="es")[number], rulebook.rules(lang="en")[number]
    assert es.text.strip() and es.title.strip()
    assert es.text != en.text and es.title != en.title
    # the rule itself (quotations of the old books aside) is Spanish
    statement = "\n".join(line for line in es.text.splitlines() if not line.startswith(">"))
    statement = statement or es.text  # a section whose own text is only sub-rules
    assert len(words(statement) & SPANISH) >= 4, number
    assert not re.search(r"\b(the|which|player|must|cannot)\b", statement), number


def test_every_quotation_has_its_spanish_rendering() -> None:
    # a passage of the old books stays in English beside its Spanish rendering (a Spanish source alone)
    quotes = [b for b in rulebook.markdown("es").split("\n\n") if b.startswith('> "')]
    assert len(quotes) == sum(b.startswith('> "') for b in rulebook.markdown("en").split("\n\n"))
    for quote in quotes:
        assert "\n>\n> (En español: " in quote or len(words(quote) & SPANISH) >= 3, quote


def test_the_decisions_are_marked_as_in_english() -> None:
    for number in NUMBERS:
        english = rulebook.rules(lang="en")[number].text.count("**Decision")
        assert rulebook.rules(lang="es")[number].text.count("**Decisión") == english, number


def test_the_notation_stays_as_it_is() -> None:
    # card notation and actions are the same in both books
    for number in ["R2.1", "R2.3", "R8.2", "R8.4"]:
        code = re.findall(r"`([^`]+)`", rulebook.rules(lang="en")[number].text)
        assert set(code) <= set(re.findall(r"`([^`]+)`", rulebook.rules(lang="es")[number].text)), number


def test_a_rule_in_spanish() -> None:
    text = rulebook.rule("R3.6", lang="es")
    first = text.splitlines()[0]
    assert first == "R3.6 Forzar" and text.startswith("R3.6 ")
    assert "{#R" not in text and "R3.7 " not in text
    assert rulebook.rule("r8.2", lang="es").startswith("R8.2 El reparto y el intercambio\n")
    assert "p1 give 7c" in rulebook.rule("R8.2", lang="es")
    assert rulebook.rule("R3.3", lang="es").startswith("R3.3 La decisión sobre la carta en juego\n")


def test_the_listing_and_the_book_in_spanish() -> None:
    lines = rulebook.listing(lang="es").splitlines()
    assert [line.split()[0] for line in lines] == NUMBERS
    assert lines[3] == "  R2.2  Combinaciones" and lines[0] == "R1  Variantes y opciones"
    assert rulebook.text("es").startswith("# Las reglas del conquián y del cooncan\n")
    assert "{#R" not in rulebook.text("es") and "{#R3.4}" in rulebook.markdown("es")


@pytest.mark.parametrize("lang", ["fr", "de-DE", "en", "en_US.UTF-8", "xx", "not a language"])
def test_a_language_without_a_book_reads_the_english_one(lang: str) -> None:
    assert rulebook.book_language(lang) == "en"
    assert rulebook.rule("R3.6", lang=lang).startswith("R3.6 Forcing\n")
    assert rulebook.listing(lang=lang) == rulebook.listing(lang="en")
    assert rulebook.text(lang) == rulebook.text("en")


def test_the_program_language_chooses_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("conquian.engine.rulebook.active", lambda: translator("es"))
    assert rulebook.rule("R3.6").startswith("R3.6 Forzar\n")
    assert rulebook.rule("R3.6", lang="en").startswith("R3.6 Forcing\n")


@pytest.mark.parametrize(("bad", "english", "spanish"), [
    ("R9.9", "there is no rule R9.9 (the rules are R1 to R8; `conquian rules --list` lists them)",
     "no existe la regla R9.9 (las reglas van de R1 a R8; `conquian rules --list` las enumera)"),
    ("hello", "'hello' is not a rule number (rules are written R3.4)",
     "'hello' no es un número de regla (las reglas se escriben R3.4)"),
])
def test_a_bad_number_is_refused_in_the_readers_language(bad: str, english: str, spanish: str) -> None:
    for lang in ("en", "es"):
        with pytest.raises(rulebook.UnknownRuleError) as info:
            rulebook.rule(bad, lang=lang)
        assert str(info.value) == english == info.value.render(ENGLISH)
        assert info.value.render(translator("es")) == spanish


def test_the_spanish_site_shows_the_spanish_book() -> None:
    # the site's rule page in Spanish includes the Spanish book as the English page includes the English one
    docs = Path(__file__).resolve().parent.parent / "docs"
    assert (docs / "rules.md").read_text().startswith('--8<-- "src/conquian/engine/rulebook.md"\n')
    assert (docs / "rules.es.md").read_text().startswith('--8<-- "src/conquian/engine/rulebook.es.md"\n')
    for page in docs.glob("*.es.md"):
        assert (docs / page.name.replace(".es.md", ".md")).is_file(), page.name  # a translation of a page
        assert ">>>" not in page.read_text(), page.name
    config = (docs.parent / "mkdocs.yml").read_text()
    assert "- i18n:" in config and "locale: es" in config and "docs_structure: suffix" in config
