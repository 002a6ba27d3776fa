"""The terminal game's keys in the program's language, the hint worked out for a key press, and a
session from command-line choices (:func:`make_session`)."""

from __future__ import annotations

from typing import Any

from conquian.engine.actions import Action
from conquian.i18n import N_, CMsg, Translator, _, active
from conquian.session import HUMAN, GameSession

#: The game's keys, each a letter standing for a word: the action, the English letter (a translator
#: gives each language its own in the catalogue, context "key: ..."), the footer's word, whether the
#: footer shows it (the verbs show theirs on their buttons, every key is listed on the rules screen).
GAME_KEYS: tuple[tuple[str, str, str, bool], ...] = (
    ("use", "u", N_("use"), False), ("pass", "p", N_("pass"), False), ("force", "f", N_("force"), False),
    ("discard", "d", N_("discard"), False), ("draw", "r", N_("draw"), False), ("take", "t", N_("take"), False),
    ("meld", "m", N_("meld"), False), ("add", "a", N_("add"), False), ("shift", "x", N_("shift"), False),
    ("give", "e", N_("give"), False), ("hint", "h", N_("hint"), True), ("seen", "b", N_("buried"), False),
    ("group", "g", N_("group"), False), ("scores", "w", N_("scores"), True), ("hurry", "z", N_("hurry"), False),
    ("spanish", "s", N_("suits"), False), ("new_game", "n", N_("new game"), True), ("quit_game", "q", N_("quit"), True),
)
#: The catalogue's entries of the keys (a letter in a context: "key: use" is "b" in Spanish, for *bajar*).
_KEY_MSGIDS = (
    CMsg("key: use", "u"), CMsg("key: pass", "p"), CMsg("key: force", "f"), CMsg("key: discard", "d"),
    CMsg("key: draw", "r"), CMsg("key: take", "t"), CMsg("key: meld", "m"), CMsg("key: add", "a"),
    CMsg("key: shift", "x"), CMsg("key: give", "e"), CMsg("key: hint", "h"), CMsg("key: seen", "b"),
    CMsg("key: group", "g"), CMsg("key: scores", "w"), CMsg("key: hurry", "z"), CMsg("key: spanish", "s"),
    CMsg("key: new_game", "n"), CMsg("key: quit_game", "q"),
)
#: The keys the footer shows, in its order (every key is listed on the rules screen).
FOOTER_ORDER = ("command", "hint", "rules", "scores", "new_game", "save", "quit_game")
GAME_KEY_ACTIONS = {
    "use": "verb('use')", "pass": "verb('pass')", "force": "verb('force')", "discard": "verb('discard')",
    "draw": "verb('draw')", "take": "verb('take')", "meld": "verb('meld')", "add": "verb('add')",
    "shift": "verb('shift')", "give": "verb('give')", "hint": "hint", "seen": "seen", "group": "group",
    "scores": "scores", "hurry": "hurry", "spanish": "spanish", "new_game": "new_game", "quit_game": "quit_game",
}


def game_keys(tr: Translator | None = None) -> dict[str, tuple[str, str, bool]]:
    """The game's keys in ``tr``'s language (the program's by default): each action's letter, its
    word and whether the footer shows it.  Where a language gives two actions one letter (Spanish
    *bajar* is a conquian ``use`` and a Cooncan ``meld``), both keep it: no game has both verbs."""
    tr = tr or active()
    out: dict[str, tuple[str, str, bool]] = {}
    for action, key, description, show in GAME_KEYS:
        letter = tr.pgettext(f"key: {action}", key)
        out[action] = (letter if len(letter) == 1 and letter.isalpha() else key, description, show)
    return out


def bind_game_keys(app: Any, keys: dict[str, tuple[str, str, bool]]) -> None:
    """Bind the game's keys (:func:`game_keys`) on a Textual app: the footer's first, in its order."""
    fixed = {"command": ("colon", N_("type"), True), "rules": ("question_mark", N_("rules"), True),
             "save": ("ctrl+s", N_("save"), True)}
    for action in FOOTER_ORDER:  # the footer's order; then every other key, not shown there
        key, description, show = fixed[action] if action in fixed else keys[action]
        app._bindings.bind(key, GAME_KEY_ACTIONS.get(action, action), _(description), show=show, priority=True)
    for action, (key, description, show) in keys.items():
        if action not in FOOTER_ORDER:
            app._bindings.bind(key, GAME_KEY_ACTIONS[action], _(description), show=show, priority=True)


def hint_move(session: GameSession, seat: int) -> Action:
    """The hint for ``seat``: the move the review of the match's record would call best at this
    position, with the review's playouts and the position's seed (:func:`conquian.review.hint_choice`):
    asked twice, the same move; played, a move the review marks good."""
    from conquian.engine.actions import parse_action
    from conquian.review import hint_choice

    rules = session.rules
    text = hint_choice(rules.name, rules.options_diff(), session.names or [], len(session.match.deals),
                       session.deal, seat)
    return parse_action(text)


def make_session(variant: str, players: int | None, bots: list[str] | None, seed: int, names: list[str] | None,
                 **options: Any) -> GameSession:
    """A session from command-line choices; ``names`` name the people (or every seat)."""
    from conquian.engine.rules import get_rules
    from conquian.session import seats_from_bots
    from conquian.words import default_names

    kw = dict(options)
    if players is not None:
        kw["players"] = players
    rules = get_rules(variant, **kw)
    seats = seats_from_bots(rules, bots)
    all_names = default_names(seats)
    if names:
        if len(names) == len(seats):
            all_names = list(names)
        else:
            humans = [i for i, k in enumerate(seats) if k == HUMAN]
            for i, name in zip(humans, names, strict=False):
                all_names[i] = name
    return GameSession(rules, seats, names=all_names, seed=seed)
