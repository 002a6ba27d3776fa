"""Pip values and settlement (R2.4, R5).

```pycon
>>> from conquian.engine.cards import parse_card
>>> [pip_value(parse_card(c)) for c in ("Ah", "Kd", "Ts", "7c", "X")]
[11, 10, 10, 7, 15]
>>> [conquian_pip_value(parse_card(c)) for c in ("Ah", "Ts", "7c", "Kd")]
[1, 10, 7, 10]

```
"""

from __future__ import annotations

from conquian.engine.cards import JOKER


def pip_value(card: int) -> int:
    """R2.4: joker 15, ace 11, K Q J 10, other cards their face value."""
    if card == JOKER:
        return 15
    rank = card & 15
    if rank == 1:
        return 11
    return 10 if rank >= 10 else rank


def conquian_pip_value(card: int) -> int:
    """R2.4, conquian ``pips``: "the number of pips left in the hand": ace 1, 2 to 10 their face
    value; the Spanish pack's J Q K 10 each (a Decision: the sources give them no value)."""
    rank = card & 15
    return 10 if rank >= 10 else rank


class Washbook:
    """Running plus and minus per player over the deals of a match (R5.4).

    Every deal's scores must sum to zero, so the book always balances: the sum
    of the pluses equals the sum of the minuses.  The seeds' worked check:

    ```pycon
    >>> book = Washbook(["A", "B", "C", "D", "E"])
    >>> book.add([-20, -46, 105, -30, -9])   # C wins 105
    >>> book.add([87, -24, -24, -28, -11])   # A wins 87
    >>> book.totals
    [67, -70, 81, -58, -20]
    >>> book.pluses, book.minuses, book.balanced
    (148, 148, True)
    >>> print(book)
    deal  value      A      B      C      D      E
       1    105    -20    -46   +105    -30     -9
       2     87    +67    -70    +81    -58    -20

    ```
    """

    def __init__(self, players: list[str]) -> None:
        self.players = list(players)
        self.rows: list[tuple[int, list[int]]] = []
        """One row a deal: the points won in it and the running totals after it."""

    def add(self, scores: list[int]) -> None:
        """Enter one deal's scores (one integer per player, summing to zero)."""
        if len(scores) != len(self.players):
            raise ValueError(f"a deal's scores have one number per player ({len(self.players)})")
        if sum(scores) != 0:
            raise ValueError(f"a deal's scores must balance (R5.2): {scores} sums to {sum(scores)}")
        before = self.totals
        self.rows.append((sum(s for s in scores if s > 0), [b + s for b, s in zip(before, scores, strict=True)]))

    @property
    def totals(self) -> list[int]:
        """Each player's running total."""
        return list(self.rows[-1][1]) if self.rows else [0] * len(self.players)

    @property
    def pluses(self) -> int:
        """The sum of the players who are up."""
        return sum(t for t in self.totals if t > 0)

    @property
    def minuses(self) -> int:
        """The sum of the players who are down (as a positive number)."""
        return -sum(t for t in self.totals if t < 0)

    @property
    def balanced(self) -> bool:
        """Whether the book balances (it always does)."""
        return self.pluses == self.minuses

    def __str__(self) -> str:
        width = max(6, *(len(p) + 1 for p in self.players))
        head = "deal  value" + "".join(f"{p:>{width + 1}}" for p in self.players)
        lines = [head]
        for i, (value, totals) in enumerate(self.rows, 1):
            lines.append(f"{i:>4} {value:>6}" + "".join(f"{t:>+{width + 1}d}" if t else f"{0:>{width + 1}}"
                                                        for t in totals))
        return "\n".join(lines)
