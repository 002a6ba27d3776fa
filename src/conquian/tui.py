"""``conquian play``: the game in the terminal (Textual).

One person (or several sharing the terminal) plays any preset against the bots.
Select cards in the hand (click, or Tab and Enter), then pick a legal action from
the list (arrows and Enter, or a click), press a verb key to narrow the list (and
play it when one action is left), or type any action with ``:``.  The engine
refuses an illegal action with its rule number and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
import threading
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Markdown, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from conquian.bots import make_bot
from conquian.engine.actions import Action
from conquian.engine.cards import JOKER, SUIT_SYMBOLS, card_str, cards_of, sort_key
from conquian.engine.conquian.deal import ConquianDeal
from conquian.engine.cooncan.deal import CooncanDeal
from conquian.engine.errors import ConquianError
from conquian.engine.match import ClassicDeal, classic, new_deal
from conquian.engine.record import Record
from conquian.session import HUMAN, GameSession, action_cards, live_outs

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

Keys: u use, p pass, f force, d discard, r draw, t take, m meld, a add, x shift (narrow the list;
play it when one is left; with cards selected, the moves they make) - : type an action - h hint -
b buried cards (with --show-buried) - g group by suit/rank - w scores - z hurry the bots -
ctrl+s save - escape clear - q quit (the match is saved)."""


def card_text(card: int, ascii_only: bool = False) -> Text:
    """A card with its suit symbol, red or black (``--ascii``: the notation)."""
    if card == JOKER:
        return Text("X", style="bold magenta")
    s = card_str(card)
    if ascii_only:
        return Text(s, style="red" if s[1] in "dh" else "")
    sym = SUIT_SYMBOLS["cdhs".index(s[1])]
    return Text(s[0].replace("T", "10") + sym, style="bold red" if s[1] in "dh" else "bold")


def cards_text(cards: list[int], ascii_only: bool = False) -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(card_text(c, ascii_only))
    return out


def table_text(session: GameSession | None, deal: ClassicDeal, ascii_only: bool, show_seen: bool,
               reveal: bool = False, names: list[str] | None = None) -> Text:
    """The table in words and cards: combinations, the card in play or the stock, counts.

    Buried (conquian) and covered (a closed stock) cards show only with ``show_seen``, the memory
    aid a table may turn on for every seat alike (R3.3).
    """

    def name(seat: int) -> str:
        if session:
            return session.name(seat)
        return names[seat - 1] if names and 0 < seat <= len(names) else f"p{seat}"

    t = Text()
    if isinstance(deal, ConquianDeal):
        for p, seat in enumerate(deal.seats):
            t.append(f"{name(seat)}: ", style="bold")
            side = deal.sides[p]
            if side:
                for i, m in enumerate(side):
                    if i:
                        t.append(" | ")
                    t.append_text(cards_text(sorted(cards_of(m), key=deal.tbl.sort_key), ascii_only))
            else:
                t.append("nothing down", style="dim")
            t.append(f"   ({deal.downs[p].bit_count()} down, {deal.hands[p].bit_count()} in hand)\n", style="dim")
            if reveal:
                t.append("   hand: ")
                t.append_text(cards_text(sorted(cards_of(deal.hands[p]), key=sort_key), ascii_only))
                t.append("\n")
        if deal.n_seats == 3:
            t.append(f"{name(deal.dealer)} sits out this deal (R6.3)\n", style="dim")
        if not deal.over:
            t.append("In play: ")
            if deal.card >= 0:
                t.append_text(card_text(deal.card, ascii_only))
                t.append(f"  - {turn_words(name(deal.to_act or 0), deal.phase)}")
            t.append(f"   pack {deal.pack_count}\n")
        if show_seen:
            t.append("Buried: ", style="dim")
            t.append_text(cards_text(sorted(cards_of(deal.buried), key=sort_key), ascii_only))
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


def turn_words(name: str, phase: str) -> str:
    """Whose turn it is, in words: "Ann to say", "You must use the forced card"."""
    what = {
        "say": "to say", "forced": "must use the card forced on {}", "discard": "to discard",
        "draw": "to draw", "play": "to play", "over": "",
    }.get(phase, f"to {phase}")
    if "{}" in what:
        return f"{name} " + what.format("you" if name == "You" else "him")
    return f"{name} {what}"


class Message(ModalScreen[None]):
    """A message over the table; any key (or a click) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,space,q", "close", "close")]

    def __init__(self, body: Text | str, title: str = "") -> None:
        super().__init__()
        self.body = body
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="message"):
            if self.title_text:
                yield Static(Text(self.title_text, style="bold"))
            # text from players (names) is never read as markup
            yield Static(Text(self.body) if isinstance(self.body, str) else self.body)
            yield Static(Text("(press Enter)", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[None]):
    """The rules: the rule just refused under (if any), a summary with the keys, and the whole
    rule book (the same text as ``conquian rules``); escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,q,question_mark", "close", "close")]

    def __init__(self, refused: str | None = None) -> None:
        super().__init__()
        self.refused = refused

    def compose(self) -> ComposeResult:
        from conquian.engine import rulebook

        with VerticalScroll(id="message"):
            if self.refused:
                yield Static(Text(f"The rule of the last refusal ({self.refused}):", style="bold"))
                yield Markdown("#### " + rulebook.rule(self.refused), id="refused-rule")
            yield Static(Text("In short", style="bold"))
            yield Static(Text.from_markup(RULES_TEXT))
            yield Static(Text("\nThe rule book (also: conquian rules, or conquian rules R3.4 for one rule)",
                              style="bold"))
            yield Markdown(rulebook.text(), id="rulebook")
            yield Static(Text("(escape closes)", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


class Choice(ModalScreen[str]):
    """A question with keyed answers, e.g. ``{"y": "leave", "n": "stay"}``; dismisses with the key."""

    def __init__(self, body: str, answers: dict[str, str], title: str = "") -> None:
        super().__init__()
        self.body = body
        self.answers = answers
        self.title_text = title

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="message"):
            if self.title_text:
                yield Static(Text(self.title_text, style="bold"))
            yield Static(Text(self.body))
            yield Static(Text("   ".join(f"{k}: {v}" for k, v in self.answers.items()), style="bold"))

    def on_key(self, event: Any) -> None:
        key = getattr(event, "key", "")
        if key in self.answers:
            event.stop()
            self.dismiss(key)
        elif key == "escape" and "n" in self.answers:
            event.stop()
            self.dismiss("n")


class CardButton(Button):
    """One card of the hand: pressing it selects or unselects it."""

    def __init__(self, card: int, label: Text, index: int) -> None:
        super().__init__(label, classes="card")
        self.card = card
        self.index = index


class ConquianApp(App[None]):
    """The game at one table."""

    ENABLE_COMMAND_PALETTE = False  # its footer entry hid save and quit at 80 columns

    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; }
    #table { height: auto; max-height: 12; border: round $primary; padding: 0 1; }
    #handrow { height: 1; margin: 0 1; }
    #handrow .label { width: auto; }
    #verbs { height: 1; margin: 0 1; }
    .verb { min-width: 6; width: auto; height: 1; border: none; margin: 0 1 0 0; padding: 0 1; }
    .card { min-width: 5; width: auto; height: 1; border: none; margin: 0 1 0 0; padding: 0; }
    .card.selected { background: $accent; text-style: bold reverse underline; }
    #lower { height: 1fr; }
    #actions { width: 1fr; border: round $secondary; }
    #log { width: 1fr; border: round $secondary; }
    #command { display: none; }
    #command.visible { display: block; }
    #message { background: $panel; border: thick $accent; padding: 1 2; margin: 2 4; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "verb('use')", "use", show=False, priority=True),
        Binding("p", "verb('pass')", "pass", show=False, priority=True),
        Binding("f", "verb('force')", "force", show=False, priority=True),
        Binding("d", "verb('discard')", "discard", show=False, priority=True),
        Binding("r", "verb('draw')", "draw", show=False, priority=True),
        Binding("t", "verb('take')", "take", show=False, priority=True),
        Binding("m", "verb('meld')", "meld", show=False, priority=True),
        Binding("a", "verb('add')", "add", show=False, priority=True),
        Binding("x", "verb('shift')", "shift", show=False, priority=True),
        Binding("colon", "command", "type", priority=True),
        Binding("h", "hint", "hint", priority=True),
        Binding("question_mark", "rules", "rules", priority=True),
        Binding("b", "seen", "buried", show=False, priority=True),
        Binding("g", "group", "group", show=False, priority=True),
        Binding("w", "scores", "scores", priority=True),
        Binding("z", "hurry", "hurry", priority=True),
        Binding("ctrl+s", "save", "save", priority=True),
        Binding("escape", "clear", "clear", show=False),
        Binding("q", "quit_game", "quit", priority=True),
        Binding("ctrl+q", "quit", "quit", show=False, priority=True),
    ]

    def __init__(self, session: GameSession, delay: float = 0.6, ascii_only: bool = False,
                 record_path: str | None = None, show_buried: bool = False) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.ascii_only = ascii_only
        self.record_path = record_path or session.default_record_path()
        self.show_buried = show_buried
        """The memory aid (R3.3): buried and covered cards shown to every seat alike; off by default."""
        self.selected: set[int] = set()  # indexes into the shown hand
        self.last_rule: str | None = None  # the rule of the last refusal: the rules screen opens at it
        self.verb: str | None = None
        self.by_rank = False
        self.show_seen = False
        self.hurry = False
        self.shown_seat: int | None = None
        """The seat whose hand and log are on the screen (None: nobody's, between hot-seat players)."""
        self.hand_cards: list[int] = []
        self.options: list[Action] = []
        self._bot_timer: Any = None
        self.messages: list[str] = []
        self.logged = 0
        self.saved_to: str | None = None
        self.save_error: str | None = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while an action is being typed, the keys belong to the text box
        return action in ("clear", "quit") or not isinstance(self.focused, Input)

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield Horizontal(id="handrow")
        with Horizontal(id="verbs"):
            for verb in self.verbs():
                yield Button(verb, id=f"verb-{verb}", classes="verb")
        yield Input(placeholder="type an action, e.g. use 5h 6h 7h   (Enter plays, Escape closes)", id="command",
                    disabled=True)
        with Horizontal(id="lower"):
            yield OptionList(id="actions")
            # min_width: wrap at the panel's own width (the default 78 clipped lines in a half-width panel)
            yield RichLog(id="log", wrap=True, markup=False, min_width=10)
        yield Footer()

    def on_mount(self) -> None:
        self.title = "conquian"
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, self.on_signal)
        self.start_deal_view()
        self.query_one("#actions", OptionList).focus()
        self.schedule_bots()

    def on_signal(self) -> None:
        """SIGTERM, SIGHUP (the terminal closed) or SIGINT: save the match, then leave."""
        self.save_now()
        # with the terminal gone, Textual's shutdown can wait for ever on its output thread; the
        # match is saved (atomically), so after a moment the process ends regardless
        watchdog = threading.Timer(3.0, os._exit, args=(1,))
        watchdog.daemon = True
        watchdog.start()
        self.exit()

    # ------------------------------------------------------------------ the log
    def write(self, line: str) -> None:
        self.query_one("#log", RichLog).write(line)
        self.messages.append(line)

    def flush_log(self) -> None:
        """Write the session's new log lines, as the seat on the screen may read them."""
        lines = self.session.lines
        for line in lines[self.logged:]:
            text = line.for_seat(self.shown_seat)
            if text:
                self.write(text)
        self.logged = len(lines)

    def rewrite_log(self) -> None:
        """The whole log again, for the seat now on the screen (hot seat: each reads only his own)."""
        self.query_one("#log", RichLog).clear()
        self.logged = 0
        self.flush_log()

    # ------------------------------------------------------------------ drawing
    def refresh_view(self) -> None:
        s = self.session
        deal = classic(s.deal)  # the conquián mexicano's screens come later (R8)
        totals = ", ".join(f"{s.name(i + 1)} {t:+d}" for i, t in enumerate(s.match.totals))
        turn = "deal over" if deal.over else turn_words(s.name(deal.to_act or 0), deal.phase)
        status = f" {s.rules.name} - deal {len(s.match.deals)}/{s.deals_in_match} - {turn} - {totals}"
        self.query_one("#status", Static).update(Text(status))  # names are never markup
        self.query_one("#table", Static).update(table_text(s, deal, self.ascii_only, self.show_seen))
        self.refresh_hand()
        self.refresh_actions()
        if self.focused is None or not self.focused.is_mounted:
            self.query_one("#actions", OptionList).focus()

    def refresh_hand(self) -> None:
        row = self.query_one("#handrow", Horizontal)
        row.remove_children()
        seat = self.shown_seat
        deal = self.session.deal
        if seat is None:
            self.hand_cards = []
            return
        if isinstance(deal, ConquianDeal):
            cards = cards_of(deal.hands[deal.player_of(seat)]) if seat in deal.seats else []
        else:
            cards = list(deal.hand(seat))
        key = (lambda c: (c & 15, c >> 4)) if self.by_rank else (lambda c: (c >> 4, c & 15))
        cards = sorted([c for c in cards if c != JOKER], key=key) + [c for c in cards if c == JOKER]
        if cards != self.hand_cards:
            self.selected = {i for i in self.selected if i < len(cards) and cards[i] == self.hand_cards[i]} \
                if len(self.hand_cards) == len(cards) else set()
        self.hand_cards = cards
        label = Text(f"{self.session.name(seat)}: ", style="bold")
        if not self.session.holds_cards(seat):
            label.append("you sit out this deal (R6.3)" if self.session.name(seat) == "You"
                         else "sits out this deal (R6.3)", style="dim")
        row.mount(Static(label, classes="label"))
        for i, c in enumerate(cards):
            face = card_text(c, self.ascii_only)
            if i in self.selected:  # not by colour alone: the selected cards are bracketed
                face = Text("[") + face + Text("]")
            b = CardButton(c, face, i)
            if i in self.selected:
                b.add_class("selected")
            row.mount(b)

    def selected_cards(self) -> list[str]:
        return [card_str(self.hand_cards[i]) for i in sorted(self.selected)]

    def refresh_actions(self) -> None:
        ol = self.query_one("#actions", OptionList)
        ol.clear_options()
        self.options = []
        s = self.session
        if not s.human_to_act or s.deal.to_act != self.shown_seat:
            ol.border_title = "waiting" if not s.deal.over else "deal over"
            return
        chosen = self.selected_cards()
        for a in s.legal():
            if self.verb and a.verb != self.verb:
                continue
            names = action_cards(a)
            if chosen and not all(c in names for c in chosen):
                continue
            self.options.append(a)
        if not self.options and self.selected:
            # the listing shows minimal forms: build the moves the selection makes, checked by the engine
            built = s.actions_from_selection([self.hand_cards[i] for i in sorted(self.selected)])
            self.options = [a for a in built if not self.verb or a.verb == self.verb]
        ol.add_options([Option(Text(s.action_words(a))) for a in self.options])
        ol.border_title = f"your move ({len(self.options)})" + (f" - {self.verb}" if self.verb else "")
        if self.options:
            ol.highlighted = 0

    # ------------------------------------------------------------------ playing
    def play(self, action: Action | str) -> None:
        try:
            self.session.play_human(action)
        except ConquianError as e:
            text = self.session.humanize(str(e))
            rule = getattr(e, "rule", None)
            self.last_rule = rule if isinstance(rule, str) else None
            more = f" (? shows rule {rule})" if self.last_rule else ""
            self.notify(text + more, title="refused", severity="error", timeout=6, markup=False)
            self.write(f"refused: {text}{more}")
            return
        self.selected.clear()
        self.verb = None
        self.after_move()

    def after_move(self) -> None:
        self.flush_log()
        self.refresh_view()
        if self.session.deal.over:
            self.deal_over()
            return
        self.check_handover()
        self.schedule_bots()

    def schedule_bots(self) -> None:
        s = self.session
        if s.deal.over or s.human_to_act:
            self.hurry = False
            return
        if self.delay <= 0 or self.hurry:
            self.call_later(self.bot_tick)
        else:
            self._bot_timer = self.set_timer(self.delay, self.bot_tick)

    def bot_tick(self) -> None:
        if self.session.bot_step() is None:
            return
        self.after_move()

    def check_handover(self) -> None:
        """Before a person's hand is shown, with several people at the terminal, a hand-over screen:
        the hand, the log and the hints on the screen are only ever one person's."""
        s = self.session
        seat = s.deal.to_act
        if seat is None or not s.human_to_act or seat == self.shown_seat:
            return
        if len(s.human_seats) > 1:
            self.shown_seat = None
            self.query_one("#handrow", Horizontal).remove_children()
            self.query_one("#log", RichLog).clear()
            self.refresh_view()

            def show(_: object) -> None:
                self.shown_seat = seat
                self.rewrite_log()
                self.refresh_view()

            self.push_screen(Message(f"Pass the terminal to {s.name(seat)}. Others, look away.",
                                     title="Next player"), show)
        else:
            self.shown_seat = seat
            self.refresh_view()

    def start_deal_view(self) -> None:
        """A new deal on the screen: one person sees his hand at once; several wait for a hand-over."""
        s = self.session
        humans = s.human_seats
        self.shown_seat = humans[0] if len(humans) == 1 else None
        self.rewrite_log()
        self.refresh_view()
        self.check_handover()

    def deal_over(self) -> None:
        s = self.session
        deal = classic(s.deal)
        self.shown_seat = s.human_seats[0] if len(s.human_seats) == 1 else None
        self.rewrite_log()  # the deal is over: its hands are public, the log is everyone's
        body = table_text(s, deal, self.ascii_only, False, reveal=True)
        body.append("\n" + (s.log[-1] if s.log else "") + "\n\n")
        body.append(str(s.match.washbook))
        if s.pool_text():
            body.append("\n" + s.pool_text())
        saved = self.save_now()
        if saved:
            body.append(f"\n\nThe match so far is saved in {saved}.")
        self.push_screen(Message(body, title=f"Deal {len(s.match.deals)} is over"), self.next_deal)

    def next_deal(self, _: object = None) -> None:
        s = self.session
        if s.match_over:
            saved = self.save_now()
            totals = ", ".join(f"{s.name(i + 1)} {t:+d}" for i, t in enumerate(s.match.totals))
            where = f"The match is saved in {saved}." if saved else f"The match could not be saved: {self.save_error}"
            self.push_screen(Choice(f"Final scores: {totals}\n\n{where}", {"n": "play again", "q": "quit"},
                                    title="The match is over"), self.after_match)
            return
        s.new_deal()
        self.start_deal_view()
        self.schedule_bots()

    def after_match(self, answer: str | None) -> None:
        if answer != "n":
            self.exit()
            return
        old = self.session
        self.session = GameSession(old.rules, list(old.seats), names=list(old.names or []),
                                   seed=secrets.randbits(63), deals_in_match=old.deals_in_match)
        self.record_path = str(Path(self.record_path).with_name(self.session.default_record_name()))
        self.saved_to = None
        self.selected.clear()
        self.verb = None
        self.start_deal_view()
        self.schedule_bots()

    # ------------------------------------------------------------------ saving
    def save_now(self) -> str | None:
        """Save the record atomically; on failure say so in the game and keep playing."""
        try:
            path = self.session.save(self.record_path)
        except OSError as e:
            self.save_error = f"cannot write {self.record_path}: {e.strerror or e}"
            self.notify(self.save_error, title="not saved", severity="error", timeout=10, markup=False)
            self.write(f"not saved: {self.save_error}")
            return None
        self.saved_to = path
        self.save_error = None
        return path

    def verbs(self) -> list[str]:
        """The verbs of this game, as buttons for the mouse."""
        if self.session.rules.family == "conquian":
            return ["use", "pass", "force", "discard"]
        return ["draw", "take", "meld", "add", "shift", "discard"]

    @on(Button.Pressed, ".verb")
    def verb_pressed(self, event: Button.Pressed) -> None:
        self.action_verb((event.button.id or "verb-").split("-", 1)[1])

    # ------------------------------------------------------------------ events
    @on(Button.Pressed, ".card")
    def card_pressed(self, event: Button.Pressed) -> None:
        assert isinstance(event.button, CardButton)
        index = event.button.index
        if index in self.selected:
            self.selected.discard(index)
        else:
            self.selected.add(index)
        self.refresh_hand()
        self.refresh_actions()
        self.query_one("#actions", OptionList).focus()

    @on(OptionList.OptionSelected, "#actions")
    def option_chosen(self, event: OptionList.OptionSelected) -> None:
        if 0 <= event.option_index < len(self.options):
            self.play(self.options[event.option_index])

    @on(Input.Submitted, "#command")
    def command_given(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        box = self.query_one("#command", Input)
        box.value = ""
        box.remove_class("visible")
        box.disabled = True
        self.query_one("#actions", OptionList).focus()
        if text:
            self.play(text)

    # ------------------------------------------------------------------ actions
    def action_verb(self, verb: str) -> None:
        if not self.session.human_to_act or self.session.deal.to_act != self.shown_seat:
            return
        self.verb = verb
        self.refresh_actions()
        self.query_one("#actions", OptionList).focus()
        if len(self.options) == 1:
            self.play(self.options[0])

    def open_command(self, text: str = "") -> None:
        box = self.query_one("#command", Input)
        box.disabled = False
        box.add_class("visible")
        box.value = text
        box.focus()

    def action_command(self) -> None:
        self.open_command()

    def action_clear(self) -> None:
        self.selected.clear()
        self.verb = None
        box = self.query_one("#command", Input)
        box.remove_class("visible")
        box.disabled = True
        self.query_one("#actions", OptionList).focus()
        self.refresh_view()

    def action_hint(self) -> None:
        """The expert's move and the live outs, for the seat on the screen only."""
        s = self.session
        seat = self.shown_seat
        if seat is None:
            return
        lines = []
        if not s.holds_cards(seat):
            lines.append(s.humanize(f"p{seat} sits out this deal (R6.3): there is nothing to hint"))
        else:
            if s.human_to_act and s.deal.to_act == seat:
                bot = make_bot("expert", seed=len(s.lines), iterations=60)
                lines.append(f"The expert would play: {s.action_words(bot.choose(classic(s.deal).view(seat)))}")
            outs = live_outs(s.deal, seat)
            lines.append("Live outs: " + ("; ".join(outs) if outs else "none"))
        for line in lines:
            s.say("", seat, "hint: " + line)
        self.flush_log()
        self.notify("\n".join(lines), title="hint", timeout=8, markup=False)

    def action_rules(self) -> None:
        refused = None
        if self.last_rule:
            from conquian.engine.rulebook import UnknownRuleError, rule

            with contextlib.suppress(UnknownRuleError):
                rule(self.last_rule)
                refused = self.last_rule
        self.push_screen(RulesScreen(refused))

    def action_seen(self) -> None:
        if not self.show_buried:
            self.notify("Buried and covered cards are not shown (R3.3): start the game with --show-buried "
                        "for the memory aid", title="buried cards", timeout=6, markup=False)
            return
        self.show_seen = not self.show_seen
        self.refresh_view()

    def action_group(self) -> None:
        self.by_rank = not self.by_rank
        self.selected.clear()
        self.refresh_view()

    def action_hurry(self) -> None:
        """Play the bots' moves at once until a person is to act."""
        self.hurry = True
        if self._bot_timer is not None:
            self._bot_timer.stop()
        self.schedule_bots()

    def action_scores(self) -> None:
        s = self.session
        body = str(s.match.washbook) if s.match.results else "no deal finished yet"
        if s.pool_text():
            body += "\n\n" + s.pool_text()
        self.push_screen(Message(body, title="Scores"))

    def action_save(self) -> None:
        path = self.save_now()
        if path:
            self.notify(f"saved to {path}", markup=False)
            self.write(f"saved to {path}")

    def action_quit_game(self) -> None:
        s = self.session
        if s.deal.over and s.match_over:
            self.save_now()
            self.exit()
            return
        saved = self.save_now()
        where = f"The match so far is saved in {saved}." if saved else f"It could not be saved: {self.save_error}"

        def answer(key: str | None) -> None:
            if key == "y":
                self.exit()

        self.push_screen(Choice(f"Leave the match in progress?\n\n{where}", {"y": "leave", "n": "stay"},
                                title="Quit"), answer)

    async def action_quit(self) -> None:
        """ctrl+q: save, then leave at once."""
        self.save_now()
        self.exit()


class ReplayApp(App[None]):
    """Step through a record, forwards and backwards, every hand shown."""

    CSS = """
    #status { height: 1; background: $boost; }
    #table { border: round $primary; padding: 0 1; }
    #events { border: round $secondary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,l", "step(1)", "next", priority=True),
        Binding("left,backspace,j", "step(-1)", "back", priority=True),
        Binding("pagedown", "deal(1)", "next deal", priority=True),
        Binding("pageup", "deal(-1)", "previous deal", priority=True),
        Binding("home", "start", "start", priority=True),
        Binding("end", "finish", "end", priority=True),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, record: Record, ascii_only: bool = False) -> None:
        super().__init__()
        self.record = record
        self.rules = record.rules()
        self.ascii_only = ascii_only
        self.deal_index = 0
        self.step = 0
        self.words = _Names(record.players)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Vertical():
            yield Static(id="table")
            yield RichLog(id="events", wrap=True, min_width=10)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def _deal_at(self) -> ClassicDeal:
        d = self.record.deals[self.deal_index]
        deal = classic(new_deal(self.rules, d.deck, seed=d.seed, dealer=d.dealer))
        for a in d.actions[: self.step]:
            deal.play(a)
        return deal

    def show(self) -> None:
        d = self.record.deals[self.deal_index]
        deal = self._deal_at()
        self.query_one("#status", Static).update(Text(
            f" {self.rules.name} - deal {self.deal_index + 1}/{len(self.record.deals)} - action "
            f"{self.step}/{len(d.actions)}"
            + (f" - next: {self.words.describe(d.actions[self.step])}" if self.step < len(d.actions) else "")
        ))
        self.query_one("#table", Static).update(
            table_text(None, deal, self.ascii_only, True, reveal=True, names=self.record.players))
        log = self.query_one("#events", RichLog)
        log.clear()
        for e in deal.history()[-12:]:
            log.write(self.words.describe(e))

    def action_step(self, k: int) -> None:
        n = len(self.record.deals[self.deal_index].actions)
        self.step = max(0, min(n, self.step + k))
        self.show()

    def action_deal(self, k: int) -> None:
        self.deal_index = max(0, min(len(self.record.deals) - 1, self.deal_index + k))
        self.step = 0
        self.show()

    def action_start(self) -> None:
        self.step = 0
        self.show()

    def action_finish(self) -> None:
        self.step = len(self.record.deals[self.deal_index].actions)
        self.show()


class _Names:
    """Events in words with the record's names (the replay viewer has no session)."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def describe(self, event: object) -> str:
        import re

        def name(m: re.Match[str]) -> str:
            k = int(m.group(1))
            return (self.names[k - 1] + (m.group(2) or "")) if 1 <= k <= len(self.names) else m.group(0)

        return re.sub(r"\bp(\d{1,2})('s)?\b", name, str(event))


def make_session(variant: str, players: int | None, bots: list[str] | None, seed: int, names: list[str] | None,
                 **options: Any) -> GameSession:
    """A session from command-line choices; ``names`` name the people (or every seat)."""
    from conquian.engine.rules import get_rules
    from conquian.session import default_names, seats_from_bots

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


__all__ = ["HUMAN", "ConquianApp", "ReplayApp", "make_session", "table_text"]
