"""A session's words: its deals announced, its events as log lines, its moves, results and
scores in words, the conquián mexicano's exchange told to each seat (R8.2)."""

from __future__ import annotations

from conquian.engine.actions import Action, Force, Give, Use
from conquian.engine.conquian.deal import ConquianDeal, Event
from conquian.engine.conquian.mexicano import MexicanoDeal
from conquian.engine.conquian.mexicano_events import MexicanoEvent
from conquian.engine.cooncan.deal import CooncanEvent
from conquian.engine.match import Deal
from conquian.i18n import N_, Msg, NMsg, Translator, active
from conquian.present import Joined, going_out_msg, move_msg, spanish_pack
from conquian.session.state import LogLine, SessionState


class SessionWords(SessionState):
    """The words a session says: each reader renders them in his language (:class:`~conquian.i18n.Msg`)."""

    def _announce(self, d: Deal) -> None:
        n = len(self.match.deals)
        self.say(self._by(d.dealer, N_("--- deal {n}: {who} deals ---"), N_("--- deal {n}: You deal ---"), n=n))
        if isinstance(d, ConquianDeal):
            if d.n_seats == 3:
                self.say(self._by(d.dealer, N_("{who} sits out this deal (R6.3)"),
                                  N_("You sit out this deal (R6.3)")))
            self.say(self._by(d.seats[0], N_("{who} turned {card}"), N_("You turned {card}"),
                              card=self.card_msg(d.card)))
        elif isinstance(d, MexicanoDeal):
            self._announce_mexicano(d)
        else:
            self.say(Msg("the discard pile starts with {card}", card=self.card_msg(d.stock[0])))

    def describe_line(self, event: Event | CooncanEvent) -> LogLine | None:
        """An event as a log line with names; a draw from the pack shows its card to the drawer only."""
        if event.kind == "bury":
            return None
        if isinstance(event, MexicanoEvent) and event.kind == "give":
            return self.give_line(event)
        if isinstance(event, CooncanEvent) and event.kind == "draw":
            public = self._by(event.seat, N_("{who} drew from the pack"), N_("You drew from the pack"))
            private = public if event.card is None else self._by(
                event.seat, N_("{who} drew {card}"), N_("You drew {card}"), card=self.card_msg(event.card))
            return LogLine(public, event.seat, private)
        return LogLine(self.describe_msg(event))

    def action_words(self, action: Action, tr: Translator | None = None) -> str:
        """An action as a person reads it: the notation without the seat label (``tr``: the
        reader's language, the program's by default)."""
        text = str(action)
        return text.split(" ", 1)[1] if " " in text else text

    def goes_out(self, action: Use, deal: Deal | None = None) -> bool:
        """Whether ``action``, a use, lays every card of its player's hand: he goes out (R3.7, R8.5);
        ``deal``: the deal it is played in (the session's by default; a replay's deal played again)."""
        deal = self.deal if deal is None else deal
        if not isinstance(deal, ConquianDeal | MexicanoDeal) or action.seat not in deal.seats:
            return False
        laid = 0
        for m in action.melds:
            laid |= m
        return deal.hands[deal.player_of(action.seat)] & ~laid == 0

    def move_target(self, action: Action, deal: Deal | None = None) -> int | None:
        """The seat a move sends a card to, where it names one: the next player for a card given in
        the exchange (R8.2), the seat forced (R3.6, R8.4); ``deal`` as for :meth:`goes_out`."""
        deal = self.deal if deal is None else deal
        if isinstance(action, Give) and isinstance(deal, MexicanoDeal):
            return deal.seats[(deal.player_of(action.seat) + 1) % deal.n]
        if isinstance(action, Force):
            if action.target is not None:
                return action.target
            if isinstance(deal, ConquianDeal | MexicanoDeal):
                return next((t for t in deal.seats[:2] if t != action.seat), None)
        return None

    def move_msg(self, action: Action, deal: Deal | None = None) -> Msg:
        """A move in words as a message (:func:`conquian.present.move_msg`), naming the player a
        card goes to (:meth:`move_target`); a use that lays the whole hand says that it goes out
        (:func:`conquian.present.going_out_msg`, R3.7, R8.5); ``deal``: the deal before the move
        (the session's by default)."""
        spanish = spanish_pack(self.rules)  # its cards drawn as each reader's screen draws the pack
        if isinstance(action, Use) and self.goes_out(action, deal):
            return going_out_msg(action, spanish)
        to = self.move_target(action, deal)
        return move_msg(action, self.person(to) if to is not None else None, spanish)

    def move_label(self, action: Action, tr: Translator | None = None) -> str:
        """A move as a button or a list shows it to a person, in ``tr``'s language (the program's by
        default): "force 5h on Bea", "forzar 5h a Bea"; :meth:`action_words` is the notation a
        client sends back."""
        return (tr or active()).render(self.move_msg(action))

    def result_msg(self) -> Msg:
        """The deal's result in words, as a message."""
        deal = self.deal
        scores = self.scores_msg(self.match.results[-1])
        if deal.winner_seat is not None:
            if getattr(deal, "splash", False):
                return self._by(deal.winner_seat, N_("{who} wins the deal (a splash): {scores}"),
                                N_("You win the deal (a splash): {scores}"), scores=scores)
            return self._by(deal.winner_seat, N_("{who} wins the deal: {scores}"), N_("You win the deal: {scores}"),
                            scores=scores)
        if getattr(deal, "void", False):
            return Msg("the deal is void: nobody scores")
        if isinstance(deal, MexicanoDeal):
            return Msg("tablas: the deal is a draw, nobody scores (R8.6)")
        return NMsg("tableau: nobody wins; the next winner takes the pool ({n} counter, R5.1)",
                    "tableau: nobody wins; the next winner takes the pool ({n} counters, R5.1)", self.match.pool)

    def result_line(self, tr: Translator | None = None) -> str:
        """The deal's result in words, in ``tr``'s language (the program's by default)."""
        return (tr or active()).render(self.result_msg())

    def deal_end(self) -> list[LogLine]:
        """The last words of a deal that is over: why it ended when the pack ran out (R8.6: tablas,
        or the fewest cards), then its result."""
        lines = [line for line in self.lines if line.text]
        if not lines:
            return []
        out = lines[-1:]
        if isinstance(self.deal, MexicanoDeal) and len(lines) > 1:
            before = lines[-2].text
            if isinstance(before, Msg) and before.msgid.startswith("the pack is exhausted"):
                out.insert(0, lines[-2])
        return out

    def pool_msg(self) -> Msg | None:
        """The conquian tableau pool waiting for the next winner (R5.1) as a message; None if empty."""
        if not self.match.pool:
            return None
        owed = Joined([Joined([self.person(i + 1), str(k)], " ") for i, k in enumerate(self.match.owed) if k])
        return NMsg("Tableau pool: {n} counter (owed by {owed}), to the next winner (R5.1)",
                    "Tableau pool: {n} counters (owed by {owed}), to the next winner (R5.1)", self.match.pool,
                    owed=owed)

    def pool_text(self, tr: Translator | None = None) -> str:
        """The conquian tableau pool waiting for the next winner (R5.1), in words (``tr``'s language,
        the program's by default); "" if empty."""
        m = self.pool_msg()
        return "" if m is None else (tr or active()).render(m)

    def washbook_text(self, tr: Translator | None = None) -> str:
        """The washbook (the deals' values and the running totals, R5) as a table, its headings and
        the default names in ``tr``'s language (the program's by default); in English the same as
        ``str(match.washbook)``."""
        tr = tr or active()
        book = self.match.washbook
        names = self.names_for_seats(tr)
        width = max(6, *(len(p) + 1 for p in names))
        number, worth = tr.gettext(N_("deal")), tr.gettext(N_("value"))  # the headings: a deal's number, its value
        head = f"{number:>4} {worth:>6}" + "".join(f"{p:>{width + 1}}" for p in names)
        lines = [head]
        for i, (value, totals) in enumerate(book.rows, 1):
            lines.append(f"{i:>4} {value:>6}" + "".join(f"{t:>+{width + 1}d}" if t else f"{0:>{width + 1}}"
                                                        for t in totals))
        return "\n".join(lines)

    # ------------------------------------------------------------------ the conquián mexicano (R8)
    def _announce_mexicano(self, d: MexicanoDeal) -> None:
        """A conquián mexicano deal's first words: the exchange to come (R8.2), or the first card turned."""
        if d.phase == "exchange" and d.to_act is not None:
            self.say(self._by(d.to_act, N_("the exchange: each player gives a card to the next, {who} first (R8.2)"),
                              N_("the exchange: each player gives a card to the next, You first (R8.2)")))
        elif d.card >= 0:
            self.say(self._by(d.seats[0], N_("{who} turned {card}"), N_("You turned {card}"),
                              card=self.card_msg(d.card)))

    def _next_seat(self, deal: MexicanoDeal, seat: int, step: int = 1) -> int:
        """The seat ``step`` places after ``seat`` in the order of play (-1: the one before)."""
        return deal.seats[(deal.player_of(seat) + step) % deal.n]

    def _next_of(self, seat: int) -> int:
        deal = self.deal
        return self._next_seat(deal, seat) if isinstance(deal, MexicanoDeal) else super()._next_of(seat)

    def give_line(self, event: MexicanoEvent) -> LogLine:
        """A card given in the exchange (R8.2): to everyone, that a card went; to the giver, which."""
        deal = self.deal
        assert isinstance(deal, MexicanoDeal)
        to = self._next_seat(deal, event.seat)
        public = self._gave(event.seat, to, None)
        card = deal.given(event.seat)
        private = public if card is None else self._gave(event.seat, to, self.card_msg(card))
        return LogLine(public, event.seat, private)

    def exchange_lines(self, deal: MexicanoDeal) -> list[LogLine]:
        """Once every seat has given (R8.2): for each seat, a line only it reads, from its own view."""
        out = []
        for seat in deal.seats:
            view = deal.view(seat)
            if view.gave is None or view.got is None:
                continue
            to, by = (self._next_seat(deal, seat, k) for k in (1, -1))
            fields: dict[str, object] = {"gave": self.card_msg(view.gave), "got": self.card_msg(view.got)}
            if self.is_you(seat):
                line = Msg("You gave {gave} to {to} and got {got} from {by}", to=self.person(to), by=self.person(by),
                           **fields)
            elif self.is_you(to) and self.is_you(by):
                line = Msg("{who} gave {gave} to you and got {got} from you", who=self.person(seat), **fields)
            elif self.is_you(to):
                line = Msg("{who} gave {gave} to you and got {got} from {by}", who=self.person(seat),
                           by=self.person(by), **fields)
            elif self.is_you(by):
                line = Msg("{who} gave {gave} to {to} and got {got} from you", who=self.person(seat),
                           to=self.person(to), **fields)
            else:
                line = Msg("{who} gave {gave} to {to} and got {got} from {by}", who=self.person(seat),
                           to=self.person(to), by=self.person(by), **fields)
            out.append(LogLine("", seat, line))
        return out
