"""A deal's public history: its persistent form, and its events as a seat reads them.

A deal keeps its public history as a persistent list of *chunks*, newest first: a node is
``(previous node, chunk)`` (``None`` before the first event), a chunk a tuple of up to
:data:`CHUNK` event tuples, oldest first.  A new event extends the newest chunk into a new tuple
(:func:`push`), or starts a new node once that chunk is full: the nodes and chunks are immutable,
so copies of a deal share their history whatever each does next, and a stored deal holds one
pointer an event (most event tuples are shared between deals) rather than a link of its own.
:func:`newest_first` walks it back; :func:`build` makes it from a list of events.

A view turns the history into event values when asked (``view.events``).  Doing so from the start
at every decision would cost more the longer the deal: here the events made for one view are kept
(:data:`_MEMO`, by the history node they were made from), and the next view of the same line of play
makes only the events added since, appending them to the same list.  :class:`Events` is a view of
the first ``n`` items of that list, which only ever grows: every earlier :class:`Events` still sees
exactly its own events.

```pycon
>>> ev = Events([1, 2, 3, 4], 3)
>>> len(ev), ev[-1], ev[1:], list(reversed(ev)), ev == (1, 2, 3)
(3, 3, (2, 3), [3, 2, 1], True)
>>> node = build([("a",), ("b",), ("c",)])
>>> list(newest_first(node)), list(newest_first(push(node, ("d",)), 2))
([('c',), ('b',), ('a',)], [('d',), ('c',)])

```
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any, Final, TypeVar, Union, overload

E = TypeVar("E")

#: Events a chunk of the history holds at most (a new event copies the newest chunk's pointers).
CHUNK: Final = 32

#: A history node: ``(previous node, chunk)``, the chunk a tuple of event tuples, oldest first.
Node = Union[tuple["Node", tuple[tuple[Any, ...], ...]], None]  # noqa: UP007 (a recursive alias needs the string form)


def push(node: Node, event: tuple[Any, ...]) -> Node:
    """The history ``node`` followed by ``event`` (the deals inline this on their hot path)."""
    if node is not None and len(node[1]) < CHUNK:
        return (node[0], node[1] + (event,))
    return (node, (event,))


def build(events: Iterable[tuple[Any, ...]]) -> Node:
    """The history of ``events``, oldest first (as :func:`push` one by one would make it)."""
    node: Node = None
    chunk: list[tuple[Any, ...]] = []
    for ev in events:
        chunk.append(ev)
        if len(chunk) == CHUNK:
            node = (node, tuple(chunk))
            chunk = []
    return (node, tuple(chunk)) if chunk else node


def newest_first(node: Node, count: int | None = None) -> Iterator[tuple[Any, ...]]:
    """The events of the history ``node``, newest first (the last ``count`` of them)."""
    if count is None:
        while node is not None:
            node, chunk = node
            yield from reversed(chunk)
        return
    while node is not None and count > 0:
        node, chunk = node
        yield from reversed(chunk[-count:])
        count -= len(chunk)

#: Per reading (a hashable ``tag``: the deal's seats, the reader) and history node's previous node:
#: (that previous node, the chunk read, the reader's own chain at its end, the shared list, how many
#: of its items are the events up to that chunk's end, the own chain and the count at its start).
#: A later node of the same line of play has the same previous node and a chunk that starts with
#: the one read, or the node read among its own; a line that left the chunk, its events before it.
_MEMO: dict[tuple[Hashable, int], tuple[Any, Any, Any, list[Any], int, Any, int]] = {}
#: Lines of play remembered at once (the oldest forgotten first: its views keep their events).
MEMO_MAX = 4096
_LOCK = threading.Lock()


class Events(Sequence[E]):
    """The first ``n`` events of a shared, append-only list: an immutable sequence, equal to any
    sequence (a tuple, a list) of the same events, as the tuple it stands for was."""

    __slots__ = ("_items", "_n")

    def __init__(self, items: list[E], n: int) -> None:
        self._items = items
        self._n = n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> E: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[E, ...]: ...
    def __getitem__(self, i: int | slice) -> E | tuple[E, ...]:
        n = self._n
        if isinstance(i, slice):
            r = range(n)[i]
            if r.step == 1:
                return tuple(self._items[r.start:r.stop])
            return tuple(self._items[j] for j in r)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("event index out of range")
        return self._items[i]

    def __iter__(self) -> Iterator[E]:
        return islice(self._items, self._n)

    def __reversed__(self) -> Iterator[E]:
        items = self._items
        return (items[j] for j in range(self._n - 1, -1, -1))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Events):
            return self._n == other._n and (self._items is other._items or list(self) == list(other))
        if isinstance(other, tuple | list):
            return self._n == len(other) and list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def shared_events(tag: Hashable, node: Node, own: Any, back: Callable[[tuple[Any, ...], Any], tuple[Any, Any]] | None,
                  make: Callable[[tuple[Any, ...], Any], E]) -> Events[E]:
    """The events of the history ``node`` as one reader reads them, oldest first.

    ``tag`` names what ``make`` depends on besides each event (the seats; the reader); ``own`` is the
    reader's own chain of private facts (a Cooncan seat's draws from the pack), or None, and
    ``back(event, own)`` gives the chain before the event and the event's private fact (or None);
    ``make(event, private)`` makes one event value.  Only the events since the newest point remembered
    on this line of play are made (the first time, all of them).
    """
    if node is None:
        return Events([], 0)
    seg: list[tuple[tuple[Any, ...], Any]] = []  # newest first
    n: Node = node
    o = own
    with _LOCK:
        hit: Any = None
        count = 0
        start_own: Any = None
        first = True
        while n is not None:
            prev, chunk = n
            got = _MEMO.get((tag, id(prev)))
            if got is not None and got[0] is not prev:
                got = None
            k = 0
            if got is not None and len(got[1]) <= len(chunk) and chunk[:len(got[1])] == got[1]:
                k = len(got[1])
            for i in range(len(chunk) - 1, k - 1, -1):
                ev = chunk[i]
                private = None
                if back is not None:
                    o, private = back(ev, o)
                seg.append((ev, private))
            if k and got is not None and got[2] is o:
                hit, count = got, got[4]  # the line read before, at the end of the chunk read
                if first:
                    start_own = got[5]
                break
            for i in range(k - 1, -1, -1):
                ev = chunk[i]
                private = None
                if back is not None:
                    o, private = back(ev, o)
                seg.append((ev, private))
            if first:
                start_own, first = o, False
            if got is not None and got[5] is o:
                hit, count = got, got[6]  # a line that left this chunk: its events before the chunk
                break
            n = prev
        if hit is None:
            items: list[Any] = []
        else:
            items = hit[3]
            if not seg and hit[1] is node[1]:
                return Events(items, count)
            if len(items) != count:
                items = items[:count]  # another line of play went on from here: this one goes its own way
            else:
                old = (tag, id(hit[0]))
                if _MEMO.get(old) is hit:
                    del _MEMO[old]  # the list grows past it: its views keep their own Events
        items.extend([make(ev, private) for ev, private in reversed(seg)])
        while len(_MEMO) >= MEMO_MAX:
            del _MEMO[next(iter(_MEMO))]
        _MEMO[(tag, id(node[0]))] = (node[0], node[1], own, items, len(items), start_own, len(items) - len(node[1]))
        return Events(items, len(items))


S = TypeVar("S")

#: Per fold (a hashable ``tag``) and history node's previous node: (that previous node, the chunk
#: folded, what the fold gave at its end).
_FOLDS: dict[tuple[Hashable, int], tuple[Any, Any, Any]] = {}


def folded(tag: Hashable, node: Node, start: Callable[[], S], step: Callable[[S, tuple[Any, ...]], None],
           copy: Callable[[S], S]) -> S:
    """What folding the history ``node`` from its oldest event gives: ``start()`` made, then
    ``step(state, event)`` for each event in turn.  The state reached is remembered for the node,
    and a later node of the same line of play folds only the events added since, from a ``copy`` of
    it.  The state returned is shared: the caller reads it and never changes it."""
    seg: list[tuple[Any, ...]] = []  # newest first
    n: Node = node
    with _LOCK:
        while True:
            if n is None:
                state = start()
                break
            prev, chunk = n
            got = _FOLDS.get((tag, id(prev)))
            if got is not None and got[0] is prev and len(got[1]) <= len(chunk) and chunk[:len(got[1])] == got[1]:
                k = len(got[1])
                seg.extend(chunk[i] for i in range(len(chunk) - 1, k - 1, -1))
                if not seg:
                    return got[2]  # type: ignore[no-any-return]
                state = copy(got[2])
                break
            seg.extend(reversed(chunk))
            n = prev
        for ev in reversed(seg):
            step(state, ev)
        if node is not None:
            while len(_FOLDS) >= MEMO_MAX:
                del _FOLDS[next(iter(_FOLDS))]
            _FOLDS[(tag, id(node[0]))] = (node[0], node[1], state)
        return state


def clear() -> None:
    """Forget every remembered line of play and fold (views made keep their events)."""
    with _LOCK:
        _MEMO.clear()
        _FOLDS.clear()


__all__ = ["CHUNK", "MEMO_MAX", "Events", "Node", "build", "clear", "folded", "newest_first", "push", "shared_events"]
