"""The games and the bots as people name them: every game a person may choose at the table, each
preset's and each bot's name in the reader's language (ids stay for machines: records, options,
the protocol).  :mod:`conquian.present` re-exports them, beside the moves' and cards' words."""

from __future__ import annotations

from conquian.engine.rules import PRESETS
from conquian.i18n import N_, Msg, NMsg, Translator, active

#: Every game a person may choose at the table: a title (English; :func:`games` gives it in the
#: reader's language), the preset and its options.
GAMES: tuple[tuple[str, str, dict[str, int]], ...] = (
    (N_("Conquián (2 players)"), "conquian", {}),
    (N_("Conquián, three at the table (3 players, one sits out each deal)"), "conquian", {"players": 3}),
    (N_("Conquián with the Spanish pack (2 players)"), "conquian-spanish", {}),
    (N_("Conquián mexicano (2 players)"), "conquian-mexicano", {}),
    (N_("Tercerilla: the conquián mexicano for three (3 players)"), "conquian-mexicano", {"players": 3}),
    (N_("Conquián mexicano for four (4 players)"), "conquian-mexicano", {"players": 4}),
    (N_("Cooncan (3 players)"), "cooncan", {}),
    (N_("Cooncan for two (2 players)"), "cooncan", {"players": 2}),
    (N_("Cooncan with two packs and jokers (5 players)"), "cooncan-double", {}),
)


#: Every preset's name for people (the id stays for machines: records, options, the protocol).
GAME_NAMES = {
    "conquian": N_("Conquián"),
    "conquian-spanish": N_("Conquián with the Spanish pack"),
    "conquian-mexicano": N_("Conquián mexicano"),
    "cooncan": N_("Cooncan"),
    "cooncan-double": N_("Cooncan with two packs and jokers"),
}
#: Every bot's name for people, by its id (``--bots``, records' table notes): the rule book's
#: author keeps his name; the others are words a translator translates.
BOT_NAMES = {
    "expert": N_("Expert"), "master": N_("Master"), "apprentice": N_("Apprentice"), "exit": N_("Disciple"),
    "random": N_("Random"), "foster": N_("Foster"), "beginner": N_("Beginner"), "casual": N_("Casual"),
    "skilled": N_("Skilled"),
}


def game_name(variant: str) -> Msg:
    """A preset's name for people, in the reader's language ("Conquián mexicano"); an unknown
    one as it is."""
    return Msg(GAME_NAMES[variant]) if variant in GAME_NAMES else Msg("{name}", name=variant)


def bot_name(kind: str) -> Msg:
    """A bot's name for people, in the reader's language ("Experto"); an unknown one as it is.

    ```pycon
    >>> from conquian.i18n import translator
    >>> translator("es").render(bot_name("expert")), str(bot_name("foster"))
    ('Experto', 'Foster')

    ```
    """
    return Msg(BOT_NAMES[kind]) if kind in BOT_NAMES else Msg("{name}", name=kind)


def games(tr: Translator | None = None) -> list[tuple[str, str, dict[str, int]]]:
    """:data:`GAMES`, and any preset it does not name, at its default number of players; the
    titles in ``tr``'s language (the program's by default)."""
    tr = tr or active()
    named = {variant for _, variant, _ in GAMES}
    extra: list[tuple[str, str, dict[str, int]]] = [
        (tr.render(NMsg("{name} ({n} player)", "{name} ({n} players)", PRESETS[name].players, name=name)), name, {})
        for name in PRESETS if name not in named]
    return [*((tr.gettext(title), variant, options) for title, variant, options in GAMES), *extra]


__all__ = ["BOT_NAMES", "GAMES", "GAME_NAMES", "bot_name", "game_name", "games"]
