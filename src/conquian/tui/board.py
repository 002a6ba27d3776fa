"""The table's own widgets, each owning its part of the screen: the hand (:class:`HandRow`), the
verb buttons (:class:`VerbBar`), the legal moves (:class:`MoveList`) and the typed move
(:class:`CommandBox`).  Each reads the game's state from the application
(:class:`~conquian.tui.view.TableView`: the session, the seat on the screen, the selection)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import on
from textual.containers import Horizontal
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from conquian.engine.actions import Action
from conquian.engine.cards import JOKER, cards_of
from conquian.engine.conquian.deal import ConquianDeal
from conquian.i18n import N_, _, render
from conquian.present import order_moves
from conquian.session import action_cards
from conquian.tui.widgets import CardButton, card_text

if TYPE_CHECKING:
    from conquian.tui.view import TableView

#: The verbs' words on their buttons, by the notation's verb (the words a player reads).
VERB_LABELS = {
    "use": N_("use"), "pass": N_("pass"), "force": N_("force"), "discard": N_("discard"), "draw": N_("draw"),
    "take": N_("take"), "meld": N_("meld"), "add": N_("add"), "shift": N_("shift"), "give": N_("give"),
}


def table_app(widget: Static | Horizontal | OptionList | Input) -> TableView:
    """The game's application a widget of the table belongs to."""
    return cast("TableView", widget.app)


class HandRow(Horizontal):
    """The hand of the seat on the screen, as card buttons: pressing one selects or unselects it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[int] = []
        """The cards shown, in their order on the screen (the selection indexes them)."""
        self._shown: tuple[int, tuple[int, ...], bool, bool] | None = None

    def forget(self) -> None:
        """Draw the hand anew next time (new colours, a new hand-over)."""
        self._shown = None

    def card_face(self, index: int) -> Text:
        """A card of the shown hand as its button shows it: the selected cards are bracketed, not
        marked by colour alone."""
        app = table_app(self)
        face = card_text(self.cards[index], app.ascii_only, app.spanish)
        return Text("[") + face + Text("]") if index in app.selected else face

    def draw(self) -> None:
        """The hand of the seat on the screen, sorted by suit or by rank; the selection kept where
        the same cards stay."""
        app = table_app(self)
        seat = app.shown_seat
        deal = app.session.deal
        if seat is None:
            self.remove_children()
            self.cards = []
            self._shown = None
            return
        if isinstance(deal, ConquianDeal):
            cards = cards_of(deal.hands[deal.player_of(seat)]) if seat in deal.seats else []
        else:
            cards = list(deal.hand(seat))
        key = (lambda c: (c & 15, c >> 4)) if app.by_rank else (lambda c: (c >> 4, c & 15))
        cards = sorted([c for c in cards if c != JOKER], key=key) + [c for c in cards if c == JOKER]
        if cards != self.cards:
            old = self.cards
            app.selected = frozenset(i for i in app.selected if i < len(cards) and cards[i] == old[i]) \
                if len(old) == len(cards) else frozenset()
        self.cards = cards
        shown = (seat, tuple(cards), app.ascii_only, app.spanish)
        buttons = list(self.query(CardButton))
        if shown == self._shown and len(buttons) == len(cards):
            # the same hand: only the marks change, the buttons stay, and so does the focus
            for b in buttons:
                b.label = self.card_face(b.index)
                b.set_class(b.index in app.selected, "selected")
            return
        self._shown = shown
        focused = app.focused.index if isinstance(app.focused, CardButton) else None
        self.remove_children()
        label = Text(f"{render(app.session.person(seat))}: ", style="bold")
        if not app.session.holds_cards(seat):
            label.append(_("you sit out this deal (R6.3)") if app.session.is_you(seat)
                         else _("sits out this deal (R6.3)"), style="dim")
        self.mount(Static(label, classes="label"))
        new = []
        for i, c in enumerate(cards):
            b = CardButton(c, self.card_face(i), i)
            if i in app.selected:
                b.add_class("selected")
            new.append(b)
        self.mount(*new)
        if focused is not None and new:  # the hand drawn again: the focus stays in it
            new[min(focused, len(new) - 1)].focus()

    @on(Button.Pressed, ".card")
    def card_pressed(self, event: Button.Pressed) -> None:
        """A card pressed: selected, or unselected; the moves it makes listed."""
        assert isinstance(event.button, CardButton)
        app = table_app(self)
        index = event.button.index
        app.selected = app.selected - {index} if index in app.selected else app.selected | {index}
        self.draw()
        app.refresh_actions()
        if event.button.by_key:
            event.button.by_key = False  # the keyboard: the player is in his hand, and stays there
        else:
            app.query_one("#actions", OptionList).focus()


class VerbBar(Horizontal):
    """The verbs of the game at the table, as buttons for the mouse ("b bajar")."""

    def compose_buttons(self) -> list[Button]:
        """The buttons of the game's verbs, each with its key and its word."""
        app = table_app(self)
        return [Button(app.verb_label(verb), id=f"verb-{verb}", classes="verb") for verb in app.verbs()]

    def rebuild(self) -> None:
        """The verb buttons again, for the game now at the table."""
        verbs = table_app(self).verbs()
        if [b.id for b in self.query(Button)] == [f"verb-{verb}" for verb in verbs]:
            return

        async def rebuild() -> None:  # the old buttons gone first: the new ones have their ids
            await self.remove_children()
            await self.mount(*self.compose_buttons())

        self.call_later(rebuild)

    @on(Button.Pressed, ".verb")
    def verb_pressed(self, event: Button.Pressed) -> None:
        """A verb's button: the list narrowed to that verb, as its key does."""
        table_app(self).action_verb((event.button.id or "verb-").split("-", 1)[1])


class MoveList(OptionList):
    """The legal moves of the seat on the screen, in a player's order, narrowed by the selected
    cards and the verb chosen; choosing one plays it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.moves: list[Action] = []
        """The moves listed, in the list's order."""

    def draw(self) -> None:
        """The moves listed again (none while it is not the shown seat's turn)."""
        app = table_app(self)
        self.clear_options()
        self.moves = []
        s = app.session
        if not s.human_to_act or s.deal.to_act != app.shown_seat:
            self.border_title = _("waiting") if not s.deal.over else _("deal over")
            return
        chosen = app.selected_cards()
        for a in order_moves(s.legal(), s.deal.phase):  # a player's order, not the notation's
            if app.verb and a.verb != app.verb:
                continue
            names = action_cards(a)
            if chosen and not all(c in names for c in chosen):
                continue
            self.moves.append(a)
        if not self.moves and app.selected:
            # the listing shows minimal forms: build the moves the selection makes, checked by the engine
            built = s.actions_from_selection([app.hand_cards[i] for i in sorted(app.selected)])
            self.moves = order_moves([a for a in built if not app.verb or a.verb == app.verb], s.deal.phase)
        self.add_options([Option(Text(app.move_label(a))) for a in self.moves])
        self.border_title = (_("your move ({n})").format(n=len(self.moves))
                             + (f" - {_(VERB_LABELS.get(app.verb, app.verb))}" if app.verb else ""))
        if self.moves:
            self.highlighted = 0

    @on(OptionList.OptionSelected)
    def move_chosen(self, event: OptionList.OptionSelected) -> None:
        """A move chosen from the list: played."""
        if 0 <= event.option_index < len(self.moves):
            table_app(self).play(self.moves[event.option_index])


class CommandBox(Input):
    """A move typed in the notation or in words (``:`` opens it; Enter plays, Escape closes)."""

    def open(self, text: str = "") -> None:
        """Show the box, with ``text`` in it, and type in it."""
        self.disabled = False
        self.add_class("visible")
        self.value = text
        self.focus()

    def close(self) -> None:
        """Hide the box; the keys go back to the moves."""
        self.remove_class("visible")
        self.disabled = True
        self.app.query_one("#actions", OptionList).focus()

    @on(Input.Submitted)
    def command_given(self, event: Input.Submitted) -> None:
        """Enter: the typed move played (the engine refuses a wrong one, with its rule)."""
        text = event.value.strip()
        self.value = ""
        self.close()
        if text:
            table_app(self).play(text)
