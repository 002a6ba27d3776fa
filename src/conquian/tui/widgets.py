"""The pieces of the terminal game's screen: cards, the table, the status line's scores, the
hand's card buttons, and the rules summary."""

from __future__ import annotations

import dataclasses
import functools
import io
import shlex
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, Self

from rich.console import Console
from rich.markdown import Markdown as RichMarkdown
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.events import Resize
from textual.widgets import Button, OptionList, RichLog

from conquian.engine.cards import JOKER, SUIT_SYMBOLS, card_str, cards_of, sort_key
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.match import Deal
from conquian.i18n import N_, Msg, NMsg, _, ngettext, render
from conquian.present import for_people, spanish_card, spanish_text, symbols, unsymbols
from conquian.session import YOU, GameSession

#: The rules in short, one paragraph per game (Rich markup; :func:`~conquian.i18n._` gives it in
#: the program's language); the rules screen shows the game at the table first, then the others.
#: Each paragraph is one line: the screen wraps it at its width.
RULES_SUMMARIES = {
    "conquian": N_("[b]Conquian[/b] (two hands, 40 cards): ten cards each. Cards are turned from the pack one at a "
                   "time. Whoever has the [i]say[/i] may USE the card (lay it face up in a combination on his own "
                   "side, with cards from his hand, borrowing from and rearranging his own combinations), PASS it, "
                   "or FORCE it onto one of his adversary's combinations that it fits - the adversary must then use "
                   "it. A player who uses a card discards one; the adversary has the say to that discard. A card "
                   "refused by both is buried; the one who buried it turns the next. A combination is three or more "
                   "cards: of one rank, or in sequence in one suit (ace low only; in the Spanish pack 7 then J). "
                   "Win with [b]eleven[/b] cards down: your ten and the card you just used. If the pack runs out "
                   "first, the deal is a [i]tableau[/i]: its point goes to the next winner. (R3, R5.1)"),
    "cooncan": N_("[b]Cooncan[/b] (three hands with one pack, four or five with two packs and jokers): in your turn "
                  "DRAW the top of the pack or TAKE from the discard pile, then lay out combinations (MELD), ADD "
                  "cards to anyone's combinations, or move a joker at the end of a sequence to the other end "
                  "(SHIFT, once, playing a card that fits), then DISCARD. The ace is high or low, never both. A "
                  "joker is any card you name. The first player rid of every card wins; the others pay the pips "
                  "left in hand (joker 15, ace 11, pictures 10). Going out all at once is a [i]splash[/i]. "
                  "(R2, R4, R5)"),
    "mexicano": N_("[b]Conquian mexicano[/b] (two, three - the [i]tercerilla[/i] - or four hands, the Spanish pack): "
                   "eight cards each, dealt one at a time. First the exchange: everyone gives one card to the next "
                   "player, and no card moves until all have given. Then conquian round the table: the say to a card "
                   "goes round every player, a card may be forced on any player it fits, and the first with nine "
                   "cards down wins (ten with nine dealt). The pack exhausted: [i]tablas[/i], a draw. The winner is "
                   "paid one counter by each other player. (R8)"),
}
#: The chapter of the rule book of each game (the rules screen opens at it).
RULES_CHAPTERS = {"conquian": "R3", "cooncan": "R4", "mexicano": "R8"}
#: The keys' words on the rules screen: the verbs, then the other keys.
KEY_WORDS = {
    "use": N_("use"), "pass": N_("pass"), "force": N_("force"), "discard": N_("discard"), "give": N_("give"),
    "draw": N_("draw"), "take": N_("take"), "meld": N_("meld"), "add": N_("add"), "shift": N_("shift"),
    "hint": N_("hint"), "seen": N_("buried cards (with --show-buried)"), "group": N_("group by suit/rank"),
    "spanish": N_("the Spanish suits (oros, copas, espadas, bastos)"), "scores": N_("scores"),
    "hurry": N_("hurry the bots"), "new_game": N_("another game"), "quit_game": N_("quit (the match is saved)"),
}
#: Each game's verbs, in the order of its buttons.
GAME_VERBS = {"conquian": ("use", "pass", "force", "discard"), "mexicano": ("give", "use", "pass", "force", "discard"),
              "cooncan": ("draw", "take", "meld", "add", "shift", "discard")}


def keys_text(family: str, keys: dict[str, tuple[str, str, bool]]) -> str:
    """The keys of a game in words, each with its letter in the program's language (``keys``: the
    app's :func:`~conquian.tui.app.game_keys`): "Keys: b bajar, p pasar, ..." for the rules screen."""
    verbs = ", ".join(f"{keys[v][0]} {_(KEY_WORDS[v])}" for v in GAME_VERBS.get(family, ()))
    others = " - ".join(f"{keys[k][0]} {_(KEY_WORDS[k])}" for k in
                        ("hint", "seen", "group", "spanish", "scores", "hurry", "new_game", "quit_game"))
    return _("Keys: {verbs} (narrow the list; play it when one is left; with cards selected, the moves they make) - "
             ": type an action - {others} - ? the rules - ctrl+s save - escape clear").format(verbs=verbs,
                                                                                           others=others)


#: The Spanish suits' colours (R8.1): oros gold, copas red, espadas blue, bastos green; made
#: readable on the theme's backgrounds by :func:`fit_suit_colours` (the app does it for its theme).
SPANISH_HUES = {"d": "#d4a017", "h": "#d0202a", "s": "#2050e0", "c": "#209030"}
SPANISH_STYLES = {suit: f"bold {hue}" for suit, hue in SPANISH_HUES.items()}
#: The contrast a suit's colour keeps with every background of the theme (WCAG's for text).
SUIT_CONTRAST = 4.5


class GameLog(RichLog):
    """The game's log: its lines kept, and wrapped again at the log's new width when the terminal
    is resized (a RichLog wraps a line once, when it is written)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.kept: list[str] = []
        self.wrapped_at = 0

    def add(self, line: str) -> None:
        """Write a line, and keep it for the next width."""
        self.kept.append(line)
        self.write(line)

    def clear(self) -> Self:
        """Clear the log and what it keeps."""
        self.kept = []
        return super().clear()

    def on_resize(self, event: Resize) -> None:
        super().on_resize(event)
        self.call_after_refresh(self.rewrap)

    def rewrap(self) -> None:
        """Every line again, at the width the log has now (nothing if it has not changed)."""
        width = self.scrollable_content_region.width
        if not width or width == self.wrapped_at:
            return
        first = not self.wrapped_at
        self.wrapped_at = width
        if first:
            return  # the lines were wrapped at this width as they came
        super().clear()
        for line in self.kept:
            self.write(line)


def people_text(text: str, spanish: bool = False, ascii_only: bool = False) -> str:
    """A text as the screen shows it: every card in the notation with its suit's symbol, ten
    written 10 (``ascii_only``: the suits' letters; ``spanish``: the Spanish suits, ``7 Co``, R8.1)."""
    text = symbols(text)
    if spanish:
        return spanish_text(text)
    return unsymbols(text) if ascii_only else text


def fit_theme_colours(app: Any) -> dict[str, str]:
    """:func:`fit_suit_colours` for the backgrounds of ``app``'s theme (a Textual app)."""
    values = app.get_css_variables()
    return fit_suit_colours([values.get(k, "") for k in ("background", "surface", "panel", "boost")],
                            app.current_theme.dark)


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two colours ``#rrggbb`` (1 to 21, WCAG 2)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def fit_suit_colours(backgrounds: list[str], dark: bool) -> dict[str, str]:
    """Each Spanish suit's colour (:data:`SPANISH_HUES`) lightened on a dark theme, darkened on a
    light one, step by step until it reads against every background (``#rrggbb``) with
    :data:`SUIT_CONTRAST`; sets :data:`SPANISH_STYLES` and returns the colours."""
    backgrounds = [b[:7] for b in backgrounds if b.startswith("#") and len(b) >= 7]
    out: dict[str, str] = {}
    toward = 255 if dark else 0
    for suit, hue in SPANISH_HUES.items():
        rgb = [int(hue[i:i + 2], 16) for i in (1, 3, 5)]
        colour = hue
        for step in range(11):
            mix = step / 10
            colour = "#" + "".join(f"{round(c + (toward - c) * mix):02x}" for c in rgb)
            if all(contrast(colour, b) >= SUIT_CONTRAST for b in backgrounds):
                break
        out[suit] = colour
        SPANISH_STYLES[suit] = f"bold {colour}"
    return out


def translate_bindings(node: DOMNode) -> None:
    """The descriptions of a node's key bindings (the footer shows them) in the program's language."""
    bindings = node._bindings.key_to_bindings
    for key, found in bindings.items():
        bindings[key] = [dataclasses.replace(b, description=_(b.description)) if b.description else b
                         for b in found]


def card_text(card: int, ascii_only: bool = False, spanish: bool = False) -> Text:
    """A card with its suit symbol, red or black (``--ascii``: the notation; ``spanish``: the Spanish
    pack's suits and courts, ``7 Co``, ``Rey Es``, R8.1)."""
    if card == JOKER:
        return Text("X", style="bold magenta")
    s = card_str(card)
    if spanish:
        return Text(spanish_card(card), style=SPANISH_STYLES[s[1]])
    if ascii_only:
        return Text(for_people(s), style="red" if s[1] in "dh" else "")
    sym = SUIT_SYMBOLS["cdhs".index(s[1])]
    return Text(for_people(s)[:-1] + sym, style="bold red" if s[1] in "dh" else "bold")


def cards_text(cards: list[int], ascii_only: bool = False, spanish: bool = False) -> Text:
    """Cards side by side (``spanish``: the Spanish suits, separated by commas, R8.1)."""
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(", " if spanish else " ")
        out.append_text(card_text(c, ascii_only, spanish))
    return out


def table_text(session: GameSession | None, deal: Deal, ascii_only: bool, show_seen: bool,
               reveal: bool = False, names: list[str] | None = None, spanish: bool = False) -> Text:
    """The table in words and cards: combinations, the card in play or the stock, counts.

    Buried (conquian) and covered (a closed stock) cards show only with ``show_seen``, the memory
    aid a table may turn on for every seat alike (R3.3).
    """

    def who(seat: int) -> str | Msg:
        if session:
            return session.person(seat)
        return names[seat - 1] if names and 0 < seat <= len(names) else f"p{seat}"

    def name(seat: int) -> str:
        return render(who(seat))

    t = Text()
    if isinstance(deal, MexicanoDeal):
        return mexicano_table(deal, who, ascii_only, show_seen, reveal, spanish)
    if isinstance(deal, ConquianDeal):
        for p, seat in enumerate(deal.seats):
            t.append(f"{name(seat)}: ", style="bold")
            side = deal.sides[p]
            if side:
                for i, m in enumerate(side):
                    if i:
                        t.append(" | ")
                    t.append_text(cards_text(sorted(cards_of(m), key=deal.tbl.sort_key), ascii_only, spanish))
            else:
                t.append(_("nothing down"), style="dim")
            t.append("   " + _("({down} down, {hand} in hand)").format(
                down=deal.downs[p].bit_count(), hand=deal.hands[p].bit_count()) + "\n", style="dim")
            if reveal:
                t.append("   " + _("hand: "))
                t.append_text(cards_text(sorted(cards_of(deal.hands[p]), key=sort_key), ascii_only, spanish))
                t.append("\n")
        if deal.n_seats == 3:
            t.append(sits_out(who(deal.dealer)) + "\n", style="dim")
        if not deal.over:
            t.append(_("In play: "))
            if deal.card >= 0:
                t.append_text(card_text(deal.card, ascii_only, spanish))
                t.append(f"  - {turn_words(who(deal.to_act or 0), deal.phase)}")
        return _pack_and_buried(t, deal, ascii_only, show_seen, spanish)
    assert isinstance(deal, CooncanDeal)
    for i, cb in enumerate(deal.combos, 1):
        t.append(f"{i:>2}. ", style="bold")
        for j, tok in enumerate(cb.display().split()):
            if j:
                t.append(" ")
            if tok.startswith("X"):
                t.append(tok, style="bold magenta")
            else:
                from conquian.engine.cards import parse_card

                t.append_text(card_text(parse_card(tok), ascii_only))
        t.append(f"  ({name(cb.owner)})\n", style="dim")
    if not deal.combos:
        t.append(_("No combinations on the table yet.") + "\n", style="dim")
    t.append(_("Discard pile: "))
    if deal.stock:
        shown = deal.stock if deal.rules.stock == "open" or show_seen else deal.stock[-1:]
        t.append_text(cards_text(list(shown), ascii_only))
        t.append(f"  ({len(deal.stock)})")
    else:
        t.append(_("empty"), style="dim")
    t.append("   " + _("pack {n}").format(n=deal.pack_count) + "   " + _("hands: "))
    t.append(", ".join(f"{name(s)} {deal.hand_size(s)}" for s in range(1, deal.n + 1)))
    t.append("\n")
    if reveal:
        for s in range(1, deal.n + 1):
            t.append(f"   {name(s)}: ")
            t.append_text(cards_text(deal.hand(s), ascii_only))
            t.append("\n")
    return t


def mexicano_table(deal: MexicanoDeal, who: Callable[[int], str | Msg], ascii_only: bool, show_seen: bool,
                   reveal: bool = False, spanish: bool = False) -> Text:
    """A conquián mexicano table (R8): every side in the order of play, the exchange's progress (who
    has given, never which card: R8.2), the card in play and the say going round (R8.3)."""

    def name(seat: int) -> str:
        return render(who(seat))

    t = Text()
    for p, seat in enumerate(deal.seats):
        t.append(f"{name(seat)}: ", style="bold")
        if deal.sides[p]:
            for i, m in enumerate(deal.sides[p]):
                if i:
                    t.append(" | ")
                t.append_text(cards_text(sorted(cards_of(m), key=deal.tbl.sort_key), ascii_only, spanish))
        else:
            t.append(_("nothing down"), style="dim")
        counts = {"down": deal.downs[p].bit_count(), "hand": deal.hands[p].bit_count()}
        t.append("   " + (_("({down} down, {hand} in hand, the dealer)") if seat == deal.dealer
                          else _("({down} down, {hand} in hand)")).format(**counts) + "\n", style="dim")
        if reveal:
            t.append("   " + _("hand: "))
            t.append_text(cards_text(sorted(cards_of(deal.hands[p]), key=sort_key), ascii_only, spanish))
            t.append("\n")
    if deal.over:
        return t
    actor = deal.to_act or 0
    you = _is_you(who(actor))
    if deal.phase == "exchange":
        gave = [name(s) for p, s in enumerate(deal.seats) if deal.gives[p] >= 0]  # that they gave: public
        text: Msg
        if gave:
            text = NMsg("The exchange (R8.2): {gave} gave a card; You to give",
                        "The exchange (R8.2): {gave} gave a card; You to give", len(gave), gave=", ".join(gave)) \
                if you else NMsg("The exchange (R8.2): {gave} gave a card; {who} to give",
                                 "The exchange (R8.2): {gave} gave a card; {who} to give", len(gave),
                                 gave=", ".join(gave), who=name(actor))
        else:
            text = Msg("The exchange (R8.2): nobody has given yet; You to give") if you \
                else Msg("The exchange (R8.2): nobody has given yet; {who} to give", who=name(actor))
        t.append(render(text))
    else:
        t.append(_("In play: "))
        if deal.card >= 0:
            t.append_text(card_text(deal.card, ascii_only, spanish))
        if deal.phase == "say":
            t.append("  - " + (_("You have the say") if you else _("{who} has the say").format(who=name(actor))))
            p, last = deal.player_of(actor), (deal.origin - 1) % deal.n
            after = [name(deal.seats[(p + k) % deal.n]) for k in range(1, (last - p) % deal.n + 1)]
            t.append(" " + (_("(then {names})").format(names=", ".join(after)) if after else _("(the last to say)")),
                     style="dim")
        else:
            t.append(f"  - {turn_words(who(actor), deal.phase)}")
    return _pack_and_buried(t, deal, ascii_only, show_seen, spanish)


def _pack_and_buried(t: Text, deal: ConquianDeal | MexicanoDeal, ascii_only: bool, show_seen: bool,
                     spanish: bool) -> Text:
    """A conquian table's last lines: the pack's count while the deal is on, the buried cards with
    ``show_seen``."""
    if not deal.over:
        t.append("   " + _("pack {n}").format(n=deal.pack_count) + "\n")
    if show_seen:
        t.append(ngettext("Buried: ", "Buried: ", len(cards_of(deal.buried))), style="dim")
        t.append_text(cards_text(sorted(cards_of(deal.buried), key=sort_key), ascii_only, spanish))
        t.append("\n")
    return t


def score_text(names: list[str], totals: list[int], width: int) -> str:
    """Every player's score in at most ``width`` characters, a space first: the names whole if they
    fit, else each word of a name cut shorter and shorter ("Foster 2" -> "Fos 2" -> "F 2"), so that
    the last seats' scores are never cut off (five to seven hands at 80 columns).

    ```pycon
    >>> score_text(["Ann", "Foster 2"], [3, -3], 80)
    ' Ann +3, Foster 2 -3'
    >>> score_text(["Ann", "Foster 2"], [3, -3], 14)
    ' A +3, F 2 -3'

    ```
    """
    longest = max((len(w) for n in names for w in n.split()), default=1)
    line = ""
    for cut in range(longest, 0, -1):
        short = [" ".join(w[:cut] for w in n.split()) or n for n in names]
        line = " " + ", ".join(f"{n} {t:+d}" for n, t in zip(short, totals, strict=False))
        if len(line) <= width:
            break
    return line


def resume_command(path: str) -> str:
    """The command that continues the match saved at ``path`` (a command: never translated)."""
    return f"conquian play --resume {shlex.quote(path)}"


def _is_you(name: str | Msg) -> bool:
    """Whether a name is the lone player's, "You" (the second person speaks to him)."""
    return name == YOU or (isinstance(name, Msg) and name.msgid == YOU and not name.params)


#: Whose turn it is, by the deal's phase: a player's name, and the second person for "You".
_TURNS = {
    "say": (N_("{who} to say"), N_("You to say")),
    "forced": (N_("{who} must use the card forced on him"), N_("You must use the card forced on you")),
    "discard": (N_("{who} to discard"), N_("You to discard")),
    "draw": (N_("{who} to draw"), N_("You to draw")),
    "play": (N_("{who} to play"), N_("You to play")),
    "exchange": (N_("{who} to give a card (R8.2)"), N_("You to give a card (R8.2)")),
}


def turn_words(name: str | Msg, phase: str) -> str:
    """Whose turn it is, in words, in the program's language: "Ann to say", "You must use the card
    forced on you" (``name``: a name, or a session's :meth:`~conquian.session.Words.person`)."""
    if phase == "over":
        return f"{render(name)} "
    if phase not in _TURNS:
        return render(Msg("{who} to {phase}", who=name, phase=phase))
    third, second = _TURNS[phase]
    return render(Msg(second) if _is_you(name) else Msg(third, who=name))


def sits_out(name: str | Msg) -> str:
    """"Ann sits out this deal (R6.3)" ("You sit out ...") in the program's language."""
    return render(Msg("You sit out this deal (R6.3)") if _is_you(name)
                  else Msg("{who} sits out this deal (R6.3)", who=name))


@functools.lru_cache(maxsize=8)
def markdown_text(source: str, width: int) -> Text:
    """Markdown drawn as styled text lines ``width`` cells wide (drawn once per text and width)."""
    console = Console(width=width, file=io.StringIO(), color_system="truecolor")
    out = Text()
    for line in console.render_lines(RichMarkdown(source), console.options.update_width(width), pad=False):
        for seg in line:
            if not seg.control:
                out.append(seg.text, seg.style)
        out.append("\n")
    return out



#: The card of a hand the focus is going to (:meth:`CardButton.action_step`), by hand.
_GOING_TO: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()


class CardButton(Button):
    """One card of the hand: pressing it selects or unselects it.  From the keyboard (Enter or
    space) the focus stays on the card, and the arrows move along the hand."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "press", N_("select"), show=False),
        Binding("left", "step(-1)", N_("previous card"), show=False),
        Binding("right", "step(1)", N_("next card"), show=False),
        Binding("down", "moves", N_("the moves"), show=False),
    ]

    def __init__(self, card: int, label: Text, index: int) -> None:
        super().__init__(label, classes="card")
        translate_bindings(self)
        self.card = card
        self.index = index
        self.by_key = False
        """Whether the last press came from the keyboard (the focus then stays in the hand)."""

    def action_press(self) -> None:
        """Enter or space: select or unselect the card, the focus staying on it."""
        self.by_key = True
        self.press()

    def action_step(self, k: int) -> None:
        """Move the focus to the next (``k`` = 1) or previous card of the hand.  The focus moves
        after the key is handled: keys sent in one burst (three Right arrows) reach this card
        before it has moved, so the hand keeps the card the focus is going to, and each key
        steps on from there."""
        hand = self.parent
        cards = list(hand.query(CardButton)) if hand is not None else []
        if hand is None or not cards:
            return
        here = _GOING_TO.get(hand, cards.index(self))
        there = (here + k) % len(cards)
        _GOING_TO[hand] = there
        cards[there].focus()

    def on_focus(self) -> None:
        if self.parent is not None:
            cards = list(self.parent.query(CardButton))
            if self in cards:
                _GOING_TO[self.parent] = cards.index(self)

    def action_moves(self) -> None:
        """Down: to the list of moves."""
        self.app.query_one("#actions", OptionList).focus()
