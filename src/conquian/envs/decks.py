"""Many decks shuffled at once with numpy, exactly as the engine shuffles each one
(:func:`~conquian.engine.deck.seeded_deck`): the batched environment's fast deal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from conquian.engine.deck import pack_order, seeded_deck

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def shuffled_decks(rules: Any, seeds: Sequence[int]) -> list[tuple[int, ...]]:
    """The decks :func:`~conquian.engine.deck.seeded_deck` gives for ``seeds``, shuffled all at
    once with numpy (the same SplitMix64 numbers and Fisher-Yates swaps, 64-bit arithmetic
    wrapping as the engine masks it; a deck whose draw would be rejected, about once in
    ``2**58`` decks, is made by the engine itself)."""
    cards = pack_order(rules)
    b, size = len(seeds), len(cards)
    decks = np.tile(np.array(cards, dtype=np.int64), (b, 1))
    state = np.array([x & 0xFFFFFFFFFFFFFFFF for x in seeds], dtype=np.uint64)
    rows = np.arange(b)
    redo = np.zeros(b, dtype=np.bool_)
    with np.errstate(over="ignore"):
        for i in range(size - 1, 0, -1):
            n = i + 1
            state += _GOLDEN
            z = state ^ (state >> np.uint64(30))
            z *= _MIX1
            z ^= z >> np.uint64(27)
            z *= _MIX2
            z ^= z >> np.uint64(31)
            if (1 << 64) % n:  # else every draw is accepted
                redo |= z >= np.uint64((1 << 64) - (1 << 64) % n)
            j = (z % np.uint64(n)).astype(np.int64)
            picked = decks[rows, j]
            decks[rows, j] = decks[:, i]
            decks[:, i] = picked
    out = [tuple(d) for d in decks.tolist()]
    for k in np.flatnonzero(redo).tolist():
        out[k] = seeded_deck(rules, seeds[k])
    return out


__all__ = ["shuffled_decks"]
