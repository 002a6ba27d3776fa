"""What the lobby shows of a table (``GET /api/tables``): its game in the reader's words, the
seats still free, who sits there (a bot marked as one), how many watch.  Nothing in it is null:
a lobby row is shown as it comes.

```pycon
>>> from conquian.i18n import translator
>>> game_words("conquian-mexicano", 3, translator("en"))
'Tercerilla: the conquián mexicano for three (3 players)'
>>> game_words("cooncan-double", 4, translator("en"))
'Cooncan with two packs and jokers (4 players)'
>>> row = {"id": "t1", "name": "Friday", "variant": "conquian", "players": 2, "status": "waiting",
...        "seats": [{"seat": 1, "kind": "human", "name": "Ann"}, {"seat": 2, "kind": "open", "name": ""}]}
>>> entry = lobby_entry(row, translator("en"), spectators=3)
>>> entry["game"], entry["seats_free"], entry["seated"], entry["spectators"]
('Conquián (2 players)', 1, [{'seat': 1, 'name': 'Ann', 'bot': False}], 3)

```
"""

from __future__ import annotations

from typing import Any

from conquian.i18n import NMsg, Translator
from conquian.present import GAME_NAMES, GAMES
from conquian.session import HUMAN
from conquian.web.table import OPEN


def game_words(variant: str, players: int, tr: Translator) -> str:
    """The game of a table in ``tr``'s words: the title the games' list gives it (``Tercerilla: the
    conquián mexicano for three (3 players)``), else the preset's name and the players."""
    from conquian.engine.rules import PRESETS

    preset = PRESETS.get(variant)
    for title, name, options in GAMES:
        if name == variant and options.get("players", preset.players if preset else -1) == players:
            return tr.gettext(title)
    name = tr.gettext(GAME_NAMES[variant]) if variant in GAME_NAMES else variant
    return tr.render(NMsg("{game} ({n} player)", "{game} ({n} players)", players, game=name))


def lobby_entry(row: dict[str, Any], tr: Translator, spectators: int = 0) -> dict[str, Any]:
    """A table's row in the lobby: the stored row (``id``, ``name``, ``variant``, ``players``,
    ``status``, ``seats``, ...) and ``game`` (in words), ``seats_free``, ``seated`` (``{seat, name,
    bot}`` for each taken seat) and ``spectators`` (connections watching it in this process)."""
    seats = row.get("seats") or []
    return {k: ("" if v is None else v) for k, v in row.items()} | {
        "game": game_words(str(row["variant"]), int(row["players"]), tr),
        "seats_free": sum(1 for s in seats if s["kind"] == OPEN),
        "seated": [{"seat": s["seat"], "name": s["name"] or f"{s['seat']}", "bot": s["kind"] not in (HUMAN, OPEN)}
                   for s in seats if s["kind"] != OPEN],
        "spectators": spectators,
    }
