"""``conquian play``: the game in the terminal (Textual).

One person (or several sharing the terminal) plays any preset against the bots.
Select cards in the hand (click, or Tab and Enter), then pick a legal action from
the list (arrows and Enter, or a click), press a verb key to narrow the list (and
play it when one action is left), or type any action with ``:``.  The engine
refuses an illegal action with its rule number and changes nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from conquian.actions import Action
from conquian.bots import make_bot
from conquian.cards import JOKER, SUIT_SYMBOLS, card_str, cards_of, sort_key
from conquian.cooncan import CooncanDeal
from conquian.errors import ConquianError
from conquian.match import Deal, new_deal
from conquian.record import Record
from conquian.session import HUMAN, GameSession, action_cards, live_outs
from conquian.twohand import ConquianDeal

RULES_TEXT = """\
[b]Conquian[/b] (two hands, 40 cards): ten cards each. Cards are turned from the pack one at a
time. Whoever has the [i]say[/i] may USE the card (lay it face up in a combination on his own
side, with cards from his hand, borrowing from and rearranging his own combinations), PASS it,
or FORCE it onto one of his adversary's combinations that it fits - the adversary must then use
it. A player who uses a card discards one; the adversary has the say to that discard. A card
refused by both is buried; the one who buried it turns the next. A combination is three or more
cards: of one rank, or in sequence in one suit (ace low only; in the Spanish pack 7 then J).
Win with [b]eleven[/b] cards down: your ten and the card you just used. If the pack runs out
first, the deal is a [i]tableau[/i]: its point goes to the next winner. (RULES R3, R5.1)

[b]Cooncan[/b] (three hands with one pack, four or five with two packs and jokers): in your turn
DRAW the top of the pack or TAKE from the stock, then lay out combinations (MELD), ADD cards to
anyone's combinations, or move a joker at the end of a sequence to the other end (SHIFT, once,
playing a card that fits), then DISCARD. The ace is high or low, never both. A joker is any card
you name. The first player rid of every card wins; the others pay the pips left in hand (joker
15, ace 11, pictures 10). Going out all at once is a [i]splash[/i]. (RULES R2, R4, R5)

Keys: u use, p pass, f force, d discard, r draw, t take, m meld, a add, x shift (narrow the list;
play it when one is left) - : type an action - h hint - b seen cards - g group by suit/rank -
w scores - ctrl+s save - escape clear - q quit."""


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


def table_text(session: GameSession | None, deal: Deal, ascii_only: bool, show_seen: bool,
               reveal: bool = False) -> Text:
    """The table in words and cards: combinations, the card in play or the stock, counts."""

    def name(seat: int) -> str:
        return session.name(seat) if session else f"p{seat}"

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
        if not deal.over:
            t.append("In play: ")
            if deal.card >= 0:
                t.append_text(card_text(deal.card, ascii_only))
                t.append(f"  - {name(deal.to_act or 0)} to {deal.phase}")
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
                from conquian.cards import parse_card

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
            yield Static(self.body)
            yield Static(Text("(press Enter)", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class CardButton(Button):
    """One card of the hand: pressing it selects or unselects it."""

    def __init__(self, card: int, label: Text, index: int) -> None:
        super().__init__(label, classes="card")
        self.card = card
        self.index = index


class ConquianApp(App[None]):
    """The game at one table."""

    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; }
    #table { height: auto; max-height: 12; border: round $primary; padding: 0 1; }
    #handrow { height: 1; margin: 0 1; }
    #handrow .label { width: auto; }
    #verbs { height: 1; margin: 0 1; }
    .verb { min-width: 6; width: auto; height: 1; border: none; margin: 0 1 0 0; padding: 0 1; }
    .card { min-width: 5; width: auto; height: 1; border: none; margin: 0 1 0 0; padding: 0; }
    .card.selected { background: $accent; text-style: bold reverse; }
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
        Binding("colon", "command", "type action", priority=True),
        Binding("h", "hint", "hint", priority=True),
        Binding("question_mark", "rules", "rules", priority=True),
        Binding("b", "seen", "seen cards", priority=True),
        Binding("g", "group", "group", priority=True),
        Binding("w", "scores", "scores", priority=True),
        Binding("ctrl+s", "save", "save", priority=True),
        Binding("escape", "clear", "clear", show=False),
        Binding("q", "quit_game", "quit", priority=True),
    ]

    def __init__(self, session: GameSession, delay: float = 0.6, ascii_only: bool = False,
                 record_path: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.delay = delay
        self.ascii_only = ascii_only
        self.record_path = record_path
        self.selected: set[int] = set()  # indexes into the shown hand
        self.verb: str | None = None
        self.by_rank = False
        self.show_seen = False
        self.shown_seat = session.human_seats[0] if session.human_seats else 1
        self.hand_cards: list[int] = []
        self.options: list[Action] = []
        self._bot_timer: Any = None
        self.messages: list[str] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # while an action is being typed, the keys belong to the text box
        return action == "clear" or not isinstance(self.focused, Input)

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
            yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = "conquian"
        for line in self.session.log:
            self.write(line)
        self.logged = len(self.session.log)
        self.refresh_view()
        self.query_one("#actions", OptionList).focus()
        self.schedule_bots()

    # ------------------------------------------------------------------ drawing
    def write(self, line: str) -> None:
        self.query_one("#log", RichLog).write(line)
        self.messages.append(line)

    def flush_log(self) -> None:
        for line in self.session.log[self.logged:]:
            self.write(line)
        self.logged = len(self.session.log)

    def refresh_view(self) -> None:
        s = self.session
        deal = s.deal
        totals = ", ".join(f"{s.name(i + 1)} {t:+d}" for i, t in enumerate(s.match.totals))
        turn = "deal over" if deal.over else f"{s.name(deal.to_act or 0)} to {deal.phase}"
        status = f" {s.rules.name} - deal {len(s.match.deals)}/{s.deals_in_match} - {turn} - {totals}"
        self.query_one("#status", Static).update(status)
        self.query_one("#table", Static).update(table_text(s, deal, self.ascii_only, self.show_seen))
        self.refresh_hand()
        self.refresh_actions()

    def refresh_hand(self) -> None:
        row = self.query_one("#handrow", Horizontal)
        row.remove_children()
        seat = self.shown_seat
        deal = self.session.deal
        if isinstance(deal, ConquianDeal):
            cards = cards_of(deal.hands[deal.player_of(seat)]) if seat in deal.seats else []
        else:
            cards = [c for c in deal.hand(seat)]
        key = (lambda c: (c & 15, c >> 4)) if self.by_rank else (lambda c: (c >> 4, c & 15))
        cards = sorted([c for c in cards if c != JOKER], key=key) + [c for c in cards if c == JOKER]
        if cards != self.hand_cards:
            self.selected = {i for i in self.selected if i < len(cards) and cards[i] == self.hand_cards[i]} \
                if len(self.hand_cards) == len(cards) else set()
        self.hand_cards = cards
        label = Text(f"{self.session.name(seat)}: ", style="bold")
        row.mount(Static(label, classes="label"))
        for i, c in enumerate(cards):
            b = CardButton(c, card_text(c, self.ascii_only), i)
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
        ol.add_options([Option(self._action_label(a)) for a in self.options])
        ol.border_title = f"your move ({len(self.options)})" + (f" - {self.verb}" if self.verb else "")
        if self.options:
            ol.highlighted = 0

    def _action_label(self, a: Action) -> str:
        text = str(a)
        return text.split(" ", 1)[1] if " " in text else text

    # ------------------------------------------------------------------ playing
    def play(self, action: Action | str) -> None:
        try:
            self.session.play_human(action)
        except ConquianError as e:
            self.notify(str(e), title="refused", severity="error", timeout=6)
            self.write(f"refused: {e}")
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
            return
        if self.delay <= 0:
            self.call_later(self.bot_tick)
        else:
            self._bot_timer = self.set_timer(self.delay, self.bot_tick)

    def bot_tick(self) -> None:
        if self.session.bot_step() is None:
            return
        self.after_move()

    def check_handover(self) -> None:
        s = self.session
        seat = s.deal.to_act
        if seat is None or not s.human_to_act or seat == self.shown_seat:
            return
        self.shown_seat = seat
        if len(s.human_seats) > 1:
            self.query_one("#handrow", Horizontal).remove_children()
            self.push_screen(Message(f"Pass the terminal to {s.name(seat)}. Others, look away.",
                                     title="Next player"), lambda _: self.refresh_view())
        else:
            self.refresh_view()

    def deal_over(self) -> None:
        s = self.session
        deal = s.deal
        body = table_text(s, deal, self.ascii_only, False, reveal=True)
        body.append("\n" + (s.log[-1] if s.log else "") + "\n\n")
        body.append(str(s.match.washbook))
        if self.record_path:
            s.save(self.record_path)
        self.push_screen(Message(body, title=f"Deal {len(s.match.deals)} is over"), self.next_deal)

    def next_deal(self, _: object = None) -> None:
        s = self.session
        if s.match_over:
            path = s.save(self.record_path)
            totals = ", ".join(f"{s.name(i + 1)} {t:+d}" for i, t in enumerate(s.match.totals))
            self.push_screen(Message(f"Final scores: {totals}\n\nThe match is saved in {path}.",
                                     title="The match is over"), lambda _: self.exit())
            return
        s.new_deal()
        self.flush_log()
        self.shown_seat = s.human_seats[0] if s.human_seats else 1
        self.refresh_view()
        self.check_handover()
        self.schedule_bots()

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
            event.button.remove_class("selected")
        else:
            self.selected.add(index)
            event.button.add_class("selected")
        self.refresh_actions()

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
        if not self.session.human_to_act:
            return
        self.verb = verb
        self.refresh_actions()
        if len(self.options) == 1:
            self.play(self.options[0])
        elif not self.options and self.selected:
            self.compose_from_selection(verb)

    def compose_from_selection(self, verb: str) -> None:
        """Nothing listed fits the selected cards: build the action from them and let the engine judge."""
        deal = self.session.deal
        cards = " ".join(self.selected_cards())
        if verb == "use" and isinstance(deal, ConquianDeal) and deal.card >= 0:
            # the selected cards and the card in play, split into combinations if they make several
            mask = sum(1 << self.hand_cards[i] for i in self.selected) | 1 << deal.card
            parts = deal.tbl.partition(mask)
            text = " | ".join(" ".join(card_str(c) for c in sorted(cards_of(m), key=deal.tbl.sort_key))
                              for m in parts) if parts else f"{card_str(deal.card)} {cards}"
            self.play(f"use {text}")
        elif verb in ("add", "shift") and isinstance(deal, CooncanDeal):
            seat = deal.to_act
            fits = [k for k in range(1, len(deal.combos) + 1) if deal.is_legal(f"p{seat} {verb} {k} {cards}")]
            if len(fits) == 1:
                self.play(f"{verb} {fits[0]} {cards}")
            else:
                self.open_command(f"{verb} ")
        elif verb in ("meld", "discard", "force"):
            self.play(f"{verb} {cards}")
        else:
            self.open_command(f"{verb} ")

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
        s = self.session
        seat = self.shown_seat
        lines = []
        if s.human_to_act and s.deal.to_act == seat:
            bot = make_bot("expert", seed=len(s.log), iterations=60)
            lines.append(f"The expert would play: {bot.choose(s.deal.view(seat))}")
        outs = live_outs(s.deal, seat)
        lines.append("Live outs: " + ("; ".join(outs) if outs else "none"))
        for line in lines:
            self.write("hint: " + line)
        self.notify("\n".join(lines), title="hint", timeout=8)

    def action_rules(self) -> None:
        self.push_screen(Message(Text.from_markup(RULES_TEXT), title="The rules"))

    def action_seen(self) -> None:
        self.show_seen = not self.show_seen
        self.refresh_view()

    def action_group(self) -> None:
        self.by_rank = not self.by_rank
        self.selected.clear()
        self.refresh_view()

    def action_scores(self) -> None:
        self.push_screen(Message(str(self.session.match.washbook) or "no deal finished yet", title="Scores"))

    def action_save(self) -> None:
        path = self.session.save(self.record_path)
        self.notify(f"saved to {path}")
        self.write(f"saved to {path}")

    def action_quit_game(self) -> None:
        if self.session.match.deals and any(d.actions() for d in self.session.match.deals):
            path = self.session.save(self.record_path)
            self.write(f"saved to {path}")
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

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Vertical():
            yield Static(id="table")
            yield RichLog(id="events", wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def _deal_at(self) -> Deal:
        d = self.record.deals[self.deal_index]
        deal = new_deal(self.rules, d.deck, seed=d.seed, dealer=d.dealer)
        for a in d.actions[: self.step]:
            deal.play(a)
        return deal

    def show(self) -> None:
        d = self.record.deals[self.deal_index]
        deal = self._deal_at()
        self.query_one("#status", Static).update(
            f" {self.rules.name} - deal {self.deal_index + 1}/{len(self.record.deals)} - action "
            f"{self.step}/{len(d.actions)}" + (f" - next: {d.actions[self.step]}" if self.step < len(d.actions) else "")
        )
        self.query_one("#table", Static).update(table_text(None, deal, self.ascii_only, True, reveal=True))
        log = self.query_one("#events", RichLog)
        log.clear()
        for e in deal.history()[-12:]:
            log.write(str(e))

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


def make_session(variant: str, players: int | None, bots: list[str] | None, seed: int, names: list[str] | None,
                 **options: Any) -> GameSession:
    """A session from command-line choices; ``names`` name the people (or every seat)."""
    from conquian.rules import get_rules
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
