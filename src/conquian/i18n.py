"""Words for people in their own language: gettext catalogues, the choice of language, and
messages translated when they are read.

Every text a person reads goes through the catalogues in ``conquian/locale`` (one ``.po`` file per
language, compiled to ``.mo`` and shipped in the package; docs/translating.md says how a translator
adds a language).  Records, notation and logs for machines never do: they stay language-neutral.

Two ways to mark a text:

- **now**, in a program that speaks to one person (the terminal game, the command line):
  ``_("Your turn")`` translates with the language :func:`set_language` chose;
- **later**, in code that does not know who will read it (a refusal of the engine, a line of a
  table's log that a server sends to players of several languages): ``Msg("{name} wins", name=...)``
  keeps the English text and its fields, and each reader renders it with his own
  :class:`Translator`.

```pycon
>>> m = Msg("{who} passed {card}", who="Bea", card="7h")
>>> str(m), translator("en").render(m)
('Bea passed 7h', 'Bea passed 7h')
>>> translator("es").render(Msg("the deal is over"))
'la mano ya terminó'
>>> NMsg("{n} card", "{n} cards", 3).render()
'3 cards'
>>> choose_language(None, {"LANG": "es_MX.UTF-8"}), choose_language("en", {"LANG": "es_MX.UTF-8"})
('es', 'en')
>>> negotiate("fr-CA,fr;q=0.9,es-MX;q=0.8,en;q=0.5")
'es'

```
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

#: The catalogues' domain: ``locale/<lang>/LC_MESSAGES/conquian.mo``.
DOMAIN = "conquian"
#: Where the compiled catalogues live, inside the package.
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The language of the source texts, spoken when no other matches.
SOURCE_LANGUAGE = "en"

_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$")


def N_(msgid: str) -> str:
    """Mark a text for the catalogues without translating it here (it is translated where read)."""
    return msgid


@cache
def languages() -> tuple[str, ...]:
    """The languages the package speaks: English and every language with a compiled catalogue."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LANGUAGE, *(lang for lang in found if lang != SOURCE_LANGUAGE))


def match_language(tag: str | None) -> str | None:
    """The language the package speaks for a language tag (``es-MX``, ``es_MX.UTF-8``, ``ES``), or
    None: the tag itself, then its language alone."""
    if not tag:
        return None
    tag = tag.split(".", 1)[0].split("@", 1)[0].strip()
    if not _TAG.match(tag):
        return None
    parts = re.split(r"[_-]", tag)
    full = "_".join([parts[0].lower(), *(p.upper() for p in parts[1:])])
    for candidate in (full, parts[0].lower()):
        if candidate in languages():
            return candidate
    return None


def choose_language(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a terminal program: ``requested`` (``--lang``), then the environment's
    ``LANGUAGE`` (a list, ``es:en``), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; English if none matches."""
    if requested:
        found = match_language(requested)
        if found:
            return found
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for tag in env.get(var, "").split(":"):
            found = match_language(tag)
            if found:
                return found
    return SOURCE_LANGUAGE


def negotiate(accept_language: str | None) -> str:
    """The language to answer a browser's ``Accept-Language`` header with (its quality values
    honoured, the first listed winning a tie); English if none matches."""
    best: tuple[float, int, str] | None = None
    for i, part in enumerate((accept_language or "")[:1000].split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        m = re.search(r"q\s*=\s*([0-9.]+)", params)
        if m:
            try:
                q = float(m.group(1))
            except ValueError:
                continue
        found = match_language(tag.strip())
        if found and q > 0 and (best is None or (-q, i) < (-best[0], best[1])):
            best = (q, i, found)
    return best[2] if best else SOURCE_LANGUAGE


class Translator:
    """One language's catalogue: ``gettext`` and ``ngettext`` as the standard library's, and
    :meth:`render` for a :class:`Msg`.

    ``spanish_suits``: the reader's screen shows the Spanish pack with its own suits (R8.1), so a
    card of that pack is named in its words ("la sota de oros", "Sota Or"); otherwise every card
    is named by the French pack the screen draws ("la jota de diamantes", "J♦").
    """

    def __init__(self, lang: str, spanish_suits: bool = False) -> None:
        self.lang = lang
        self.spanish_suits = spanish_suits
        self._catalogue: _gettext.NullTranslations = (
            _gettext.NullTranslations() if lang == SOURCE_LANGUAGE
            else _gettext.translation(DOMAIN, LOCALE_DIR, [lang], fallback=True))

    def gettext(self, msgid: str) -> str:
        """``msgid`` in this language (itself where the catalogue has no translation)."""
        return self._catalogue.gettext(msgid)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or the plural (or the language's other plural forms) for ``n``."""
        return self._catalogue.ngettext(singular, plural, n)

    def pgettext(self, context: str, msgid: str) -> str:
        """``msgid`` in this language as meant in ``context`` (a card's article: "the {card}" is
        "la {card}" for a jack in Spanish, "el {card}" for a king)."""
        return self._catalogue.pgettext(context, msgid)

    def render(self, text: object) -> str:
        """A :class:`Msg` in this language; any other object as ``str`` does."""
        return text.render(self) if isinstance(text, Msg) else str(text)

    def messages(self) -> dict[str, Any]:
        """The whole catalogue as data for a web page: ``{msgid: text}``, a plural's forms as a
        list under its singular; English is empty (the page's own texts)."""
        catalogue: Any = getattr(self._catalogue, "_catalog", {})
        out: dict[str, Any] = {}
        for key, value in catalogue.items():
            if isinstance(key, tuple):
                out.setdefault(key[0], []).append(value)
            elif key:
                out[key] = value
        return out

    def shown(self, spanish_suits: bool) -> Translator:
        """This language for a screen that shows the Spanish pack with its own suits or not."""
        return _suited(self.lang, spanish_suits)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r}, spanish_suits=True)" if self.spanish_suits else f"Translator({self.lang!r})"


@cache
def translator(lang: str) -> Translator:
    """The :class:`Translator` of a language the package speaks (English for any other)."""
    return Translator(match_language(lang) or SOURCE_LANGUAGE)


@cache
def _suited(lang: str, spanish_suits: bool) -> Translator:
    return Translator(lang, True) if spanish_suits else translator(lang)


#: English, the source texts.
ENGLISH = translator(SOURCE_LANGUAGE)


class Msg:
    """A text to translate when it is read: an English ``msgid`` with ``{fields}`` and their values.

    A value may be another :class:`Msg` (rendered in the same language).  ``str()`` is English.
    """

    __slots__ = ("msgid", "params")

    def __init__(self, msgid: str, /, **params: object) -> None:
        self.msgid = msgid
        self.params = params

    def _text(self, tr: Translator) -> str:
        return tr.gettext(self.msgid)

    def render(self, tr: Translator | None = None) -> str:
        """The text in ``tr``'s language (English by default), its fields filled."""
        tr = tr or ENGLISH
        fields = {k: tr.render(v) for k, v in self.params.items()}
        return self._text(tr).format(**fields) if fields else self._text(tr)

    def __str__(self) -> str:
        return self.render(ENGLISH)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.msgid!r}, {self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and isinstance(other, Msg)
                and (self.msgid, self.params) == (other.msgid, other.params))

    def __hash__(self) -> int:
        return hash(self.msgid)


class CMsg(Msg):
    """A :class:`Msg` with a context, for a translator who must tell one use of a text from another
    (``CMsg("card: jack", "the {card}", card="J♠")``: "la J♠" in Spanish, "el K♠" for a king)."""

    __slots__ = ("context",)

    def __init__(self, context: str, msgid: str, /, **params: object) -> None:
        super().__init__(msgid, **params)
        self.context = context

    def _text(self, tr: Translator) -> str:
        return tr.pgettext(self.context, self.msgid)

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other) and isinstance(other, CMsg) and self.context == other.context

    def __hash__(self) -> int:
        return hash((self.context, self.msgid))


class NMsg(Msg):
    """A :class:`Msg` with a plural: the form chosen by ``n`` (also a field, ``{n}``)."""

    __slots__ = ("n", "plural")

    def __init__(self, singular: str, plural: str, n: int, /, **params: object) -> None:
        super().__init__(singular, n=n, **params)
        self.plural = plural
        self.n = n

    def _text(self, tr: Translator) -> str:
        return tr.ngettext(self.msgid, self.plural, self.n)


# ---------------------------------------------------------------------- one person's program
_active: Translator = ENGLISH


def set_language(lang: str | None) -> Translator:
    """Choose the language of :func:`_` for the whole program (a terminal game, a command): ``lang``
    (``--lang``) or the environment's (:func:`choose_language`).  A server never calls this: it
    renders each reader's messages with his own :class:`Translator`."""
    global _active
    _active = translator(choose_language(lang))
    return _active


def show_suits(spanish_suits: bool) -> Translator:
    """Name the cards of the program's texts by the pack its screen shows (:meth:`Translator.shown`):
    the terminal game calls it when the Spanish suits are switched on or off."""
    global _active
    _active = _active.shown(spanish_suits)
    return _active


def active() -> Translator:
    """The translator :func:`set_language` chose (English until it is called)."""
    return _active


def _(msgid: str) -> str:
    """``msgid`` in the program's language (:func:`set_language`)."""
    return _active.gettext(msgid)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the program's language."""
    return _active.ngettext(singular, plural, n)


def render(text: object) -> str:
    """A :class:`Msg` (or any text) in the program's language."""
    return _active.render(text)


__all__ = [
    "DOMAIN",
    "ENGLISH",
    "LOCALE_DIR",
    "N_",
    "SOURCE_LANGUAGE",
    "CMsg",
    "Msg",
    "NMsg",
    "Translator",
    "_",
    "active",
    "choose_language",
    "languages",
    "match_language",
    "negotiate",
    "ngettext",
    "render",
    "set_language",
    "show_suits",
    "translator",
]
