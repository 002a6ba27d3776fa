"""The language the web table writes in, for each reader: a request's (``?lang=``, else its
``Accept-Language``), a WebSocket's (its ``hello``), and the catalogue the page translates its
own texts with (``GET /i18n/{lang}.json``), with the Spanish pack's names
(:func:`~conquian.present.pack_words`: the page names cards with the terminal's words).

The server never chooses one language for everybody: every text is rendered with the reader's
:class:`~conquian.i18n.Translator`, and nothing but words changes with it (the cards, the moves'
notation, the state numbers and the error codes are the same in every language).

```pycon
>>> language_of("es", None), language_of(None, "es-MX,es;q=0.9"), language_of("xx", "fr")
('es', 'es', 'en')
>>> data = catalogue("es")
>>> data["lang"], data["nplurals"], [x["code"] for x in data["languages"]][:2]
('es', 2, ['en', 'es'])
>>> catalogue("fr")["lang"], catalogue("fr")["messages"]
('en', {})

```
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from conquian.i18n import SOURCE_LANGUAGE, Translator, languages, match_language, negotiate, translator
from conquian.present import pack_words

#: Each language's name in itself, as the page's switch shows it.
LANGUAGE_NAMES = {"en": "English", "es": "Español"}


def language_of(requested: str | None, accept_language: str | None) -> str:
    """The language to answer in: ``requested`` (a ``?lang=``) if the server speaks it, else the
    browser's ``Accept-Language`` (:func:`~conquian.i18n.negotiate`); English if none matches."""
    if requested:
        found = match_language(requested[:35])
        if found:
            return found
    return negotiate(accept_language)


def reader(requested: str | None, accept_language: str | None) -> Translator:
    """The translator of :func:`language_of`."""
    return translator(language_of(requested, accept_language))


def hello_translator(lang: str | None) -> Translator:
    """A WebSocket's translator: the ``hello``'s ``lang`` if the server speaks it, else English."""
    return translator((match_language(lang[:35]) if lang else None) or SOURCE_LANGUAGE)


_HEADER = ""  # the catalogue's header entry


def _nplurals(tr: Translator) -> int:
    # the catalogue's header (its "" entry) says how many plural forms the language has
    m = re.search(r"nplurals\s*=\s*(\d+)", tr.gettext(_HEADER) if tr.lang != SOURCE_LANGUAGE else "")
    return int(m.group(1)) if m else 2


def language_list() -> list[dict[str, str]]:
    """The languages the page offers: ``[{"code": "en", "name": "English"}, ...]``."""
    return [{"code": code, "name": LANGUAGE_NAMES.get(code, code)} for code in languages()]


def catalogue(lang: str) -> dict[str, Any]:
    """What the page translates its texts with: the language (English for one the server does not
    speak), the languages offered, how many plural forms the language has, and its messages
    (``{msgid: text}``, a plural's forms as a list under its singular; English: none)."""
    return _catalogue(match_language(lang[:35]) or SOURCE_LANGUAGE)


@cache
def _catalogue(lang: str) -> dict[str, Any]:
    # kept per language the server speaks (never per tag asked for: their number is the client's choice)
    tr = translator(lang)
    return {"lang": tr.lang, "languages": language_list(), "nplurals": _nplurals(tr), "messages": tr.messages(),
            "cards": pack_words()}
