"""A deal's events as a seat reads them, made once per line of play and shared by its later views.

A deal keeps its public history as a persistent linked list, newest first (cheap to copy and to
extend); a view turns it into event values when asked (``view.events``).  Doing so from the start
at every decision would cost more the longer the deal: here the events made for one view are kept
(:data:`_MEMO`, by the history node they were made from), and the next view of the same line of play
makes only the events added since, appending them to the same list.  :class:`Events` is a view of
the first ``n`` items of that list, which only ever grows: every earlier :class:`Events` still sees
exactly its own events.

```pycon
>>> ev = Events([1, 2, 3, 4], 3)
>>> len(ev), ev[-1], ev[1:], list(reversed(ev)), ev == (1, 2, 3)
(3, 3, (2, 3), [3, 2, 1], True)

```
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator, Sequence
from itertools import islice
from typing import Any, TypeVar, overload

E = TypeVar("E")

#: Per reading (a hashable ``tag``: the deal's seats, the reader) and history node (and the reader's
#: own chain): (node, own chain, the shared list, how many of its items are this node's events).
_MEMO: dict[tuple[Hashable, int, int], tuple[Any, Any, list[Any], int]] = {}
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


def shared_events(tag: Hashable, node: Any, own: Any, back: Callable[[tuple[Any, ...], Any], tuple[Any, Any]] | None,
                  make: Callable[[tuple[Any, ...], Any], E]) -> Events[E]:
    """The events of the history ``node`` (newest first, linked) as one reader reads them, oldest first.

    ``tag`` names what ``make`` depends on besides each event (the seats; the reader); ``own`` is the
    reader's own chain of private facts (a Cooncan seat's draws from the pack), or None, and
    ``back(event, own)`` gives the chain before the event and the event's private fact (or None);
    ``make(event, private)`` makes one event value.  Only the events since the newest node remembered
    on this line of play are made (the first time, all of them).
    """
    seg: list[tuple[tuple[Any, ...], Any]] = []
    n, o = node, own
    with _LOCK:
        while True:
            hit = _MEMO.get((tag, id(n), id(o)))
            if hit is not None and hit[0] is n and hit[1] is o:
                items, count = hit[2], hit[3]
                break
            if n is None:
                hit, items, count = None, [], 0
                break
            n, ev = n
            private = None
            if back is not None:
                o, private = back(ev, o)
            seg.append((ev, private))
        if not seg:
            return Events(items, count)
        if len(items) != count:
            items = items[:count]  # another line of play went on from here: this one goes its own way
        elif hit is not None:
            del _MEMO[(tag, id(n), id(o))]  # the list grows past it: its views keep their own Events
        items.extend([make(ev, private) for ev, private in reversed(seg)])
        while len(_MEMO) >= MEMO_MAX:
            del _MEMO[next(iter(_MEMO))]
        _MEMO[(tag, id(node), id(own))] = (node, own, items, len(items))
        return Events(items, len(items))


S = TypeVar("S")

#: Per fold (a hashable ``tag``) and history node: (node, what the fold gave there).
_FOLDS: dict[tuple[Hashable, int], tuple[Any, Any]] = {}


def folded(tag: Hashable, node: Any, start: Callable[[], S], step: Callable[[S, tuple[Any, ...]], None],
           copy: Callable[[S], S]) -> S:
    """What folding the history ``node`` (newest first, linked) from its oldest event gives: ``start()``
    made, then ``step(state, event)`` for each event in turn.  The state reached is remembered for
    the node, and a later node of the same line of play folds only the events added since, from a
    ``copy`` of it.  The state returned is shared: the caller reads it and never changes it."""
    seg: list[tuple[Any, ...]] = []
    n = node
    with _LOCK:
        while True:
            hit = _FOLDS.get((tag, id(n)))
            if hit is not None and hit[0] is n:
                if not seg:
                    return hit[1]  # type: ignore[no-any-return]
                state = copy(hit[1])
                break
            if n is None:
                state = start()
                break
            n, ev = n
            seg.append(ev)
        for ev in reversed(seg):
            step(state, ev)
        while len(_FOLDS) >= MEMO_MAX:
            del _FOLDS[next(iter(_FOLDS))]
        _FOLDS[(tag, id(node))] = (node, state)
        return state


def clear() -> None:
    """Forget every remembered line of play and fold (views made keep their events)."""
    with _LOCK:
        _MEMO.clear()
        _FOLDS.clear()


__all__ = ["MEMO_MAX", "Events", "clear", "folded", "shared_events"]
