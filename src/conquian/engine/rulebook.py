"""The rule book, shipped in the package: every rule by its number, as ``conquian rules`` prints it.

The book is ``rulebook.md`` beside this module (Markdown; the documentation site includes the
same file), and ``rulebook.<lang>.md`` in another language (``rulebook.es.md``: the same rules, the
same numbers and anchors).  A refusal names a rule (``R3.4: ...``); :func:`rule` gives its text, in
the book of the reader's language where the package has one.

```pycon
>>> print(rule("r2.4").splitlines()[0])
R2.4 Pip values
>>> "R3.4" in numbers() and numbers()[0] == "R1"
True
>>> rule("R9.9")
Traceback (most recent call last):
...
conquian.engine.rulebook.UnknownRuleError: there is no rule R9.9 (the rules are R1 to R8; `conquian rules --list` lists them)
>>> anchor("R3.4")
'R3.4'
>>> print(rule("R3.3", lang="es").splitlines()[0])
R3.3 La decisión sobre la carta en juego
>>> from conquian.i18n import translator
>>> try:
...     rule("R9.9", lang="es")
... except UnknownRuleError as e:
...     print(e.render(translator("es")))
no existe la regla R9.9 (las reglas van de R1 a R8; `conquian rules --list` las enumera)

```
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from conquian.engine.errors import ConquianError
from conquian.i18n import Msg, active, match_language

_HEADING = re.compile(r"^(#{2,3}) (R\d+(?:\.\d+)?)\.? (.+?) \{#(R[\d.]+)\}\s*$")
_NUMBER = re.compile(r"^[Rr]?(\d+)(?:\.(\d+))?\.?$")


class UnknownRuleError(ConquianError, LookupError):
    """A rule number the book does not have, or text that is no rule number (its ``message`` is a
    :class:`~conquian.i18n.Msg`, translated where it is read)."""


@dataclass(frozen=True)
class Rule:
    """One numbered rule: ``number`` (``R3.4``), its ``title``, and its ``text`` (Markdown, with its
    sub-rules for a section such as ``R3``)."""

    number: str
    title: str
    text: str


def book_language(lang: str | None = None) -> str:
    """The language of the book read for ``lang`` (the program's language by default): its own
    book (``rulebook.es.md``) if the package has one, else English."""
    lang = match_language(lang) if lang else active().lang
    if lang and lang != "en" and files("conquian.engine").joinpath(f"rulebook.{lang}.md").is_file():
        return lang
    return "en"


def text(lang: str | None = None) -> str:
    """The whole rule book (Markdown, without the anchors the web and the site use)."""
    return _strip(_source(book_language(lang)))


def markdown(lang: str | None = None) -> str:
    """The whole rule book as Markdown with the rules' anchors (``{#R3.4}``, attribute lists)."""
    return _source(book_language(lang))


@cache
def _source(lang: str = "en") -> str:
    name = "rulebook.md" if lang == "en" else f"rulebook.{lang}.md"
    return files("conquian.engine").joinpath(name).read_text(encoding="utf-8")


def _strip(markdown: str) -> str:
    return re.sub(r" \{#R[\d.]+\}$", "", markdown, flags=re.MULTILINE)


def rules(lang: str | None = None) -> dict[str, Rule]:
    """Every rule by number, in the book's order (``lang``: see :func:`book_language`)."""
    return _rules(book_language(lang))


@cache
def _rules(lang: str) -> dict[str, Rule]:
    lines = _source(lang).splitlines()
    heads = [(i, m) for i, line in enumerate(lines) if (m := _HEADING.match(line))]
    out: dict[str, Rule] = {}
    for k, (i, m) in enumerate(heads):
        level = len(m.group(1))
        end = next((j for j, n in heads[k + 1:] if len(n.group(1)) <= level), len(lines))
        body = "\n".join(lines[i + 1:end]).strip()
        number = m.group(2)
        out[number] = Rule(number, m.group(3), _strip(body))
    return out


def numbers() -> list[str]:
    """The rule numbers, in the book's order."""
    return list(rules())


def normalise(number: str) -> str:
    """``r3.4``, ``3.4`` or ``R3.4.`` as ``R3.4``; :class:`UnknownRuleError` if it is no rule number."""
    m = _NUMBER.match(number.strip())
    if not m:
        raise UnknownRuleError(Msg("{text} is not a rule number (rules are written R3.4)",
                                   text=repr(number.strip()[:20])))
    return f"R{int(m.group(1))}" + (f".{int(m.group(2))}" if m.group(2) else "")


def rule(number: str, lang: str | None = None) -> str:
    """One rule's text with its heading, as the terminal shows it (``lang``: see :func:`book_language`)."""
    key = normalise(number)
    found = rules(lang).get(key)
    if found is None:
        tops = [n for n in numbers() if "." not in n]
        raise UnknownRuleError(Msg("there is no rule {number} (the rules are {first} to {last}; "
                                   "`conquian rules --list` lists them)", number=key, first=tops[0], last=tops[-1]))
    return f"{found.number} {found.title}\n\n{found.text}\n"


def anchor(number: str) -> str:
    """The rule's anchor in the web table's and the site's rule page (``/rules#R3.4``): the same in
    every language, since every book keeps the English book's anchors."""
    return normalise(number)


def listing(lang: str | None = None) -> str:
    """One line per rule: number and title, sub-rules indented (``lang``: see :func:`book_language`)."""
    return "\n".join(("  " if "." in r.number else "") + f"{r.number}  {r.title}" for r in rules(lang).values())
