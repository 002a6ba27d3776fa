"""The pieces of the terminal game's screen: cards, the table, the status line's scores, the
hand's card buttons, and the rules summary."""

from __future__ import annotations

import functools
import io
import shlex
from collections.abc import Callable
from typing import ClassVar

from rich.console import Console
from rich.markdown import Markdown as RichMarkdown
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Button, OptionList

from conquian.engine.cards import JOKER, SUIT_SYMBOLS, card_str, cards_of, sort_key
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.match import Deal
from conquian.present import for_people, spanish_card
from conquian.session import GameSession

RULES_TEXT = """\
[b]Conquian[/b] (two hands, 40 cards): ten cards each. Cards are turned from the pack one at a
time. Whoever has the [i]say[/i] may USE the card (lay it face up in a combination on his own
side, with cards from his hand, borrowing from and rearranging his own combinations), PASS it,
or FORCE it onto one of his adversary's combinations that it fits - the adversary must then use
it. A player who uses a card discards one; the adversary has the say to that discard. A card
refused by both is buried; the one who buried it turns the next. A combination is three or more
cards: of one rank, or in sequence in one suit (ace low only; in the Spanish pack 7 then J).
Win with [b]eleven[/b] cards down: your ten and the card you just used. If the pack runs out
first, the deal is a [i]tableau[/i]: its point goes to the next winner. (R3, R5.1)

[b]Cooncan[/b] (three hands with one pack, four or five with two packs and jokers): in your turn
DRAW the top of the pack or TAKE from the stock, then lay out combinations (MELD), ADD cards to
anyone's combinations, or move a joker at the end of a sequence to the other end (SHIFT, once,
playing a card that fits), then DISCARD. The ace is high or low, never both. A joker is any card
you name. The first player rid of every card wins; the others pay the pips left in hand (joker
15, ace 11, pictures 10). Going out all at once is a [i]splash[/i]. (R2, R4, R5)

[b]Conquian mexicano[/b] (two, three - the [i]tercerilla[/i] - or four hands, the Spanish pack): eight
cards each, dealt one at a time. First the exchange: everyone gives one card to the next player,
and no card moves until all have given. Then conquian round the table: the say to a card goes
round every player, a card may be forced on any player it fits, and the first with nine cards
down wins (ten with nine dealt). The pack exhausted: [i]tablas[/i], a draw. The winner is paid one
counter by each other player. (R8)

Keys: u use, p pass, f force, d discard, e give, r draw, t take, m meld, a add, x shift (narrow the
list; play it when one is left; with cards selected, the moves they make) - : type an action -
h hint - b buried cards (with --show-buried) - g group by suit/rank - s the Spanish suits (oros,
copas, espadas, bastos) - w scores - z hurry the bots - n another game - ctrl+s save - escape
clear - q quit (the match is saved)."""


#: The Spanish suits' colours (R8.1): oros gold, copas red, espadas blue, bastos green.
SPANISH_STYLES = {"d": "bold yellow", "h": "bold red", "s": "bold blue", "c": "bold green"}


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

    def name(seat: int) -> str:
        if session:
            return session.name(seat)
        return names[seat - 1] if names and 0 < seat <= len(names) else f"p{seat}"

    t = Text()
    if isinstance(deal, MexicanoDeal):
        return mexicano_table(deal, name, ascii_only, show_seen, reveal, spanish)
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
                t.append("nothing down", style="dim")
            t.append(f"   ({deal.downs[p].bit_count()} down, {deal.hands[p].bit_count()} in hand)\n", style="dim")
            if reveal:
                t.append("   hand: ")
                t.append_text(cards_text(sorted(cards_of(deal.hands[p]), key=sort_key), ascii_only, spanish))
                t.append("\n")
        if deal.n_seats == 3:
            t.append(f"{name(deal.dealer)} sits out this deal (R6.3)\n", style="dim")
        if not deal.over:
            t.append("In play: ")
            if deal.card >= 0:
                t.append_text(card_text(deal.card, ascii_only, spanish))
                t.append(f"  - {turn_words(name(deal.to_act or 0), deal.phase)}")
            t.append(f"   pack {deal.pack_count}\n")
        if show_seen:
            t.append("Buried: ", style="dim")
            t.append_text(cards_text(sorted(cards_of(deal.buried), key=sort_key), ascii_only, spanish))
            t.append("\n")
        return t
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
        t.append("No combinations on the table yet.\n", style="dim")
    t.append("Stock: ")
    if deal.stock:
        shown = deal.stock if deal.rules.stock == "open" or show_seen else deal.stock[-1:]
        t.append_text(cards_text(list(shown), ascii_only))
        t.append(f"  ({len(deal.stock)})")
    else:
        t.append("empty", style="dim")
    t.append(f"   pack {deal.pack_count}   hands: ")
    t.append(", ".join(f"{name(s)} {deal.hand_size(s)}" for s in range(1, deal.n + 1)))
    t.append("\n")
    if reveal:
        for s in range(1, deal.n + 1):
            t.append(f"   {name(s)}: ")
            t.append_text(cards_text(deal.hand(s), ascii_only))
            t.append("\n")
    return t


def mexicano_table(deal: MexicanoDeal, name: Callable[[int], str], ascii_only: bool, show_seen: bool,
                   reveal: bool = False, spanish: bool = False) -> Text:
    """A conquián mexicano table (R8): every side in the order of play, the exchange's progress (who
    has given, never which card: R8.2), the card in play and the say going round (R8.3)."""
    t = Text()
    for p, seat in enumerate(deal.seats):
        t.append(f"{name(seat)}: ", style="bold")
        if deal.sides[p]:
            for i, m in enumerate(deal.sides[p]):
                if i:
                    t.append(" | ")
                t.append_text(cards_text(sorted(cards_of(m), key=deal.tbl.sort_key), ascii_only, spanish))
        else:
            t.append("nothing down", style="dim")
        dealer = ", the dealer" if seat == deal.dealer else ""
        t.append(f"   ({deal.downs[p].bit_count()} down, {deal.hands[p].bit_count()} in hand{dealer})\n", style="dim")
        if reveal:
            t.append("   hand: ")
            t.append_text(cards_text(sorted(cards_of(deal.hands[p]), key=sort_key), ascii_only, spanish))
            t.append("\n")
    if deal.over:
        return t
    actor = deal.to_act or 0
    if deal.phase == "exchange":
        gave = [name(s) for p, s in enumerate(deal.seats) if deal.gives[p] >= 0]  # that they gave: public
        t.append("The exchange (R8.2): " + (", ".join(gave) + " gave a card" if gave else "nobody has given yet")
                 + f"; {name(actor)} to give")
    else:
        t.append("In play: ")
        if deal.card >= 0:
            t.append_text(card_text(deal.card, ascii_only, spanish))
        if deal.phase == "say":
            t.append(f"  - {name(actor)} has the say")
            p, last = deal.player_of(actor), (deal.origin - 1) % deal.n
            after = [name(deal.seats[(p + k) % deal.n]) for k in range(1, (last - p) % deal.n + 1)]
            t.append(f" (then {', '.join(after)})" if after else " (the last to say)", style="dim")
        else:
            t.append(f"  - {turn_words(name(actor), deal.phase)}")
    t.append(f"   pack {deal.pack_count}\n")
    if show_seen:
        t.append("Buried: ", style="dim")
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
    """The command that continues the match saved at ``path``."""
    return f"conquian play --resume {shlex.quote(path)}"


def turn_words(name: str, phase: str) -> str:
    """Whose turn it is, in words: "Ann to say", "You must use the forced card"."""
    what = {
        "say": "to say", "forced": "must use the card forced on {}", "discard": "to discard",
        "draw": "to draw", "play": "to play", "over": "", "exchange": "to give a card (R8.2)",
    }.get(phase, f"to {phase}")
    if "{}" in what:
        return f"{name} " + what.format("you" if name == "You" else "him")
    return f"{name} {what}"


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



class CardButton(Button):
    """One card of the hand: pressing it selects or unselects it.  From the keyboard (Enter or
    space) the focus stays on the card, and the arrows move along the hand."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "press", "select", show=False),
        Binding("left", "step(-1)", "previous card", show=False),
        Binding("right", "step(1)", "next card", show=False),
        Binding("down", "moves", "the moves", show=False),
    ]

    def __init__(self, card: int, label: Text, index: int) -> None:
        super().__init__(label, classes="card")
        self.card = card
        self.index = index
        self.by_key = False
        """Whether the last press came from the keyboard (the focus then stays in the hand)."""

    def action_press(self) -> None:
        """Enter or space: select or unselect the card, the focus staying on it."""
        self.by_key = True
        self.press()

    def action_step(self, k: int) -> None:
        """Move the focus to the next (``k`` = 1) or previous card of the hand."""
        cards = list(self.parent.query(CardButton)) if self.parent is not None else []
        if cards:
            cards[(cards.index(self) + k) % len(cards)].focus()

    def action_moves(self) -> None:
        """Down: to the list of moves."""
        self.app.query_one("#actions", OptionList).focus()
