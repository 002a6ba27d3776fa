"""What every deal shares, whatever the form of the game: the verify / can / do faces.

:class:`DealMixin` gives a deal class (:class:`~conquian.engine.conquian.deal.ConquianDeal`,
:class:`~conquian.engine.cooncan.deal.CooncanDeal`) its public playing methods from four
hooks the class provides: ``legal_raw()`` (the listed actions, raw), ``to_action(raw)``,
``verify(action) -> raw`` (raises on an illegal action, changes nothing) and
``apply_raw(kind, arg)``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from operator import itemgetter
from typing import Any, overload

from conquian.engine.actions import Action, parse_action
from conquian.engine.deck import seeded_deck, sorted_pack
from conquian.engine.errors import ConquianError, NotationError, SetupError, quote
from conquian.engine.history import CHUNK, Node, newest_first
from conquian.engine.rules import Rules
from conquian.i18n import Msg

RawAction = tuple[int, Any]


def setup_deck(rules: Rules, family: str, deck: Sequence[int] | None, seed: int | None, dealer: object,
               rule: str) -> tuple[int, ...]:
    """Check what a new deal is given and return its deck, top card first (R1, R3.1, R4.1).

    Every refusal is a :class:`~conquian.engine.errors.SetupError` naming ``rule``.
    """
    if not isinstance(rules, Rules) or rules.family != family:
        raise SetupError("R1", Msg("{value} is not a {family} variant", value=quote(getattr(rules, "name", rules)),
                                   family=family))
    n = rules.players
    if type(dealer) is not int or not 1 <= dealer <= n:
        raise SetupError(rule, Msg("the dealer must be a seat from 1 to {n}, not {value}", n=n, value=quote(dealer)))
    if deck is None:
        if type(seed) is not int:
            raise SetupError(rule, Msg("give a deck or a whole-number seed, not {value}", value=quote(seed)))
        return seeded_deck(rules, seed)
    if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
        raise SetupError(rule, Msg("a deck is a sequence of card numbers, not {value}", value=quote(deck)))
    cards = tuple(deck)
    # whole numbers only (never a bool), then the pack's cards: so every one is a card (is_card)
    if len(cards) != rules.pack_size or set(map(type, cards)) != {int} or sorted(cards) != sorted_pack(rules):
        raise SetupError(rule, Msg("a {variant} deck is its pack of {n} cards, each as often as the pack has it",
                                   variant=rules.name, n=rules.pack_size))
    return cards


def as_action(action: object) -> Action:
    """An action to check: text is parsed, an :class:`Action` is checked again field by field (it may
    have been built around its constructor), anything else is refused with :class:`NotationError`."""
    if isinstance(action, str):
        return parse_action(action)
    if not isinstance(action, Action):
        raise NotationError(Msg("{value} is not an action (an Action object or its notation)", value=quote(action)))
    action.check()
    return action


#: A listed action: its notation, the action and its raw form.
Entry = tuple[str, Action, RawAction]
#: Listed actions, shared by every deal and view: per acting context (what a deal's ``to_action``
#: reads besides the raw action: the seat, the stock's openness), raw action -> :data:`Entry`.
#: Actions are immutable values, so one object serves every deal; a context's table is started
#: afresh past :data:`INTERNED_MAX` entries.
_INTERNED: dict[Hashable, dict[Any, Entry]] = {}
INTERNED_MAX = 20_000


#: An entry's notation, and its action (C-level getters: no Python frame per entry).
_text: Callable[[Entry], str] = itemgetter(0)
_action: Callable[[Entry], Action] = itemgetter(1)


def entry(raw: RawAction, action: Action) -> Entry:
    """The listing entry of a raw action and its action."""
    return (str(action), action, raw)


def listing(context: Hashable, raws: list[RawAction], make: Callable[[RawAction], Entry]) -> list[Entry]:
    """The listed actions of ``raws``, sorted by notation (docs/records.md), each notation once with
    the first raw action that gives it (as the listing has always deduplicated them, though no
    listing is known to hold a notation twice).  The entries are shared (:data:`_INTERNED`),
    ``make`` building the ones not made yet; each kind of caller (a deal class, a view class) has
    contexts of its own."""
    table = _INTERNED.get(context)
    if table is None or len(table) > INTERNED_MAX:
        table = _INTERNED[context] = {}
    if len(raws) == 1:  # the commonest listing (a pass, a draw): no list to map, nothing to sort
        raw = raws[0]
        e = table.get(raw)
        if e is None:
            e = table[raw] = make(raw)
        return [e]
    get = table.get
    found: list[Any] = list(map(get, raws))
    entries: list[Entry] = [get(raw) or table.setdefault(raw, make(raw)) for raw in raws] if None in found else found
    n = len(entries)
    if n == 2:  # the next commonest (a draw or a take; a pass or a force): one comparison
        a, b = entries
        if a[0] < b[0]:
            return entries
        if b[0] < a[0]:
            return [b, a]
    if n > 1:
        try:  # noqa: SIM105 (a context manager costs more than the sort, on every program's path)
            entries.sort()  # by notation: the first field
        except TypeError:  # equal notations, and raw forms that do not compare (checked below)
            pass
        if len(set(map(_text, entries))) < n:
            first: dict[str, Entry] = {}
            for raw in raws:
                e = get(raw)
                assert e is not None
                first.setdefault(e[0], e)
            return sorted(first.values(), key=_text)
    return entries


class CardRow:
    """A deal's field of cards kept in the slot ``slot`` as bytes (one byte a card: a stored deal holds
    its deck as 40 bytes, not 40 pointers), read as a tuple of card numbers, set from any sequence."""

    def __init__(self, slot: str, doc: str) -> None:
        self.slot = slot
        self.__doc__ = doc

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> CardRow: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> tuple[int, ...]: ...

    def __get__(self, obj: object, owner: type | None = None) -> CardRow | tuple[int, ...]:
        if obj is None:
            return self
        return tuple(getattr(obj, self.slot))

    def __set__(self, obj: object, cards: Sequence[int]) -> None:
        setattr(obj, self.slot, bytes(cards))


#: Small tuples of ints that many deals hold alike (their seats), one object for each value.
_SHARED: dict[tuple[int, ...], tuple[int, ...]] = {}


def shared_tuple(t: tuple[int, ...]) -> tuple[int, ...]:
    """One object for each value of ``t`` (a deal's seats: few values, held by every deal)."""
    return _SHARED.setdefault(t, t)


def flatten(node: Node) -> tuple[Any, ...]:
    """The events of a history (:mod:`conquian.engine.history`) as a flat tuple, newest first."""
    return tuple(newest_first(node))


class DealMixin:
    """``legal_actions``, ``is_legal``, ``play`` and ``random_raw`` from a deal's hooks."""

    __slots__ = ("_listed", "_m", "_made", "_node", "_tail", "n_events")

    _node: Node
    """The public history's full chunks (:mod:`conquian.engine.history`), shared by copies."""
    _tail: list[tuple[Any, ...]]
    """The newest events, fewer than :data:`~conquian.engine.history.CHUNK`: the first ``_m`` items of
    a list that copies share and that only ever grows (a copy that finds it grown past its own
    events goes on with a list of its own)."""
    _m: int
    _made: Node
    """The history last given by :attr:`events` (the same node while no event is added)."""

    @property
    def events(self) -> Node:
        """The public history as a persistent list of chunks (:mod:`conquian.engine.history`),
        shared by copies and views: the same node until an event is added."""
        m = self._m
        if m == 0:
            return self._node
        made = self._made
        if made is None or made[0] is not self._node or len(made[1]) != m:
            made = self._made = (self._node, tuple(self._tail[:m]))
        return made

    @events.setter
    def events(self, node: Node) -> None:
        self._node = node
        self._tail = []
        self._m = 0
        self._made = None

    n_events: int
    """How many events the public history holds."""

    def _push(self, ev: tuple[Any, ...]) -> None:
        """Add one event to the public history and count it (a deal may inline this on its
        hottest path)."""
        tail, m = self._tail, self._m
        if len(tail) != m:
            tail = self._tail = tail[:m]  # a copy went on from here: this one goes its own way
        tail.append(ev)
        if tail[m] is not ev:  # a copy, elsewhere, added its own event at once
            tail = self._tail = [*tail[:m], ev]
        m += 1
        if m == CHUNK:
            self._node = (self._node, tuple(tail[:m]))
            self._tail = []
            m = 0
        self._m = m
        self.n_events += 1

    n_actions: int
    _listed: tuple[int, list[Entry]]
    """This state's listing (see :meth:`legal_actions`) and its stamp (``n_actions``)."""

    def legal_raw(self) -> list[RawAction]:
        raise NotImplementedError

    def _entry(self, raw: RawAction) -> Entry:
        """The listing entry of a raw action of the player to act: the raw form kept is the one
        :meth:`verify` gives for the action, so that playing it from the listing is the same."""
        return entry(raw, self.to_action(raw))

    def _acting(self) -> Hashable:
        """What :meth:`to_action` reads besides the raw action (the seat to act, ...): the context
        under which actions are shared (:func:`listed`)."""
        raise NotImplementedError

    def copy(self) -> Any:
        raise NotImplementedError

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        # the deck and the history are immutable and shared: a copy is already independent (and
        # walking a long history recursively would overflow the stack)
        return self.copy()

    def to_action(self, raw: RawAction) -> Action:
        raise NotImplementedError

    def verify(self, action: Action | str) -> RawAction:
        raise NotImplementedError

    def apply_raw(self, kind: int, arg: Any) -> None:
        raise NotImplementedError

    def _key(self) -> tuple[Any, ...]:
        """Everything that makes two deals equal (the history flattened: it is long)."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, DealMixin)
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # deals are mutable

    def legal_actions(self) -> list[Action]:
        """The listed legal actions of the seat to act, sorted by notation (docs/records.md); empty when over.

        The listing is kept until the next action is played, so that playing one of its actions
        (or its notation) needs no second check (:meth:`play`)."""
        stamp = self.n_actions
        try:  # _listing, inline: this is every program's path
            kept = self._listed
        except AttributeError:
            pass
        else:
            if kept[0] == stamp:
                return list(map(_action, kept[1]))
        entries = self._fresh_listing()
        self._listed = (stamp, entries)
        if len(entries) == 1:  # most listings in conquian (a pass): no map to make
            return [entries[0][1]]
        return list(map(_action, entries))

    def _fresh_listing(self) -> list[Entry]:
        """This state's listing, made now (not kept: :meth:`_listing` keeps it); a deal class may
        make it more directly, with the same entries."""
        return listing(self._acting(), self.legal_raw(), self._entry)

    def _listing(self) -> list[Entry]:
        stamp = self.n_actions
        try:
            kept = self._listed
        except AttributeError:
            pass
        else:
            if kept[0] == stamp:
                return kept[1]
        entries = self._fresh_listing()
        self._listed = (stamp, entries)
        return entries

    def _listed_entry(self, action: object) -> Entry | None:
        """The entry of ``action`` if :meth:`legal_actions` listed it for this state (the very object,
        or its notation exactly), else None; never lists."""
        try:
            kept = self._listed
        except AttributeError:
            return None
        if kept[0] != self.n_actions:
            return None
        if type(action) is str:
            for e in kept[1]:
                if e[0] == action:
                    return e
        else:
            for e in kept[1]:
                if e[1] is action:
                    return e
        return None

    def random_raw(self, rnd: Callable[[], float]) -> RawAction:
        """A listed legal action drawn uniformly (``rnd`` gives floats in [0, 1)), for simulations."""
        legal = self.legal_raw()
        return legal[int(rnd() * len(legal))]

    def is_legal(self, action: Action | str) -> bool:
        """Whether an action is legal now (never raises: malformed input is not legal either)."""
        if self._listed_entry(action) is not None:
            return True
        try:
            self.verify(action)
        except ConquianError:
            return False
        return True

    def play(self, action: Action | str) -> Action:
        """Check and play one action (an :class:`Action` or its notation); return it.

        Raises :class:`~conquian.engine.errors.IllegalActionError` (state unchanged) if illegal,
        :class:`~conquian.engine.errors.NotationError` if the text cannot be parsed.  An action
        :meth:`legal_actions` listed for this state, or its exact notation, is known legal: it is
        played at once, as its listed raw form.
        """
        try:
            kept = self._listed
        except AttributeError:
            pass
        else:
            if kept[0] == self.n_actions:  # _listed_entry, inline: this is every program's path
                if type(action) is str:
                    for e in kept[1]:
                        if e[0] == action:
                            kind, arg = e[2]
                            self.apply_raw(kind, arg)
                            return e[1]
                else:
                    for e in kept[1]:
                        if e[1] is action:
                            kind, arg = e[2]
                            self.apply_raw(kind, arg)
                            return action
        action = as_action(action)
        kind, arg = self.verify(action)
        self.apply_raw(kind, arg)
        return action
