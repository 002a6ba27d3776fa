"""The listed uses of the card in play (R3.4) as pure JAX functions of one deal's arrays.

The same listing as the engine's :func:`~conquian.engine.conquian.listing.use_forms`, form for
form and in its order (the docstring there is the contract), so that the uses get the same
indices as :meth:`~conquian.envs.encoding.Encoding.number_uses` gives them.  The engine's
recursive searches (``MeldTable.partition``, ``MeldTable.cover``, the walk of
``layable_sets``) become one depth-first search over a fixed stack (:func:`dfs`) in a
``lax.while_loop``: one step of the loop pushes the next child of the node on top, or pops
it; the children are tried in the engine's order, so the first leaf found is the engine's.

Card sets are ``uint32[2]`` (:mod:`conquian.envs.jax.tables`).  Every function here works on
one deal; the environment maps them over a batch with ``jax.vmap``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from jax import lax

from conquian.engine.conquian.listing import FORCED
from conquian.envs.jax.tables import DEPTH, Tables

Array = jax.Array
LAYS = 1024  # the block of further uses: a bit per card of a hand of ten


def ctz(x: Array) -> Array:
    """The number of trailing zero bits of a nonzero ``uint32``."""
    low = x & (~x + jnp.uint32(1))
    return 31 - lax.clz(low).astype(jnp.int32)


def lowest(w: Array, none: int) -> Array:
    """The lowest card of a set (``none`` if it is empty)."""
    a, b = w[..., 0], w[..., 1]
    return jnp.where(a != 0, ctz(a), jnp.where(b != 0, 32 + ctz(b), none))


def empty(w: Array) -> Array:
    """Whether a set (or each of a stack of sets) is empty."""
    return jnp.all(w == 0, axis=-1)


def subset(a: Array, b: Array) -> Array:
    """Whether ``a`` is a subset of ``b`` (broadcasting over leading axes)."""
    return jnp.all((a & ~b) == 0, axis=-1)


def bits(w: Array, n: int) -> Array:
    """A set as ``bool[n]``, card by card."""
    lo = (w[..., 0:1] >> jnp.arange(32, dtype=jnp.uint32)) & 1
    hi = (w[..., 1:2] >> jnp.arange(n - 32, dtype=jnp.uint32)) & 1
    return jnp.concatenate([lo, hi], axis=-1).astype(jnp.bool_)


def pack(b: Array) -> Array:
    """``bool[n]`` back to a set's two words."""
    u = b.astype(jnp.uint32)
    lo = jnp.sum(u[..., :32] << jnp.arange(32, dtype=jnp.uint32), axis=-1, dtype=jnp.uint32)
    hi = jnp.sum(u[..., 32:] << jnp.arange(b.shape[-1] - 32, dtype=jnp.uint32), axis=-1, dtype=jnp.uint32)
    return jnp.stack([lo, hi], axis=-1)


def union(ws: Array) -> Array:
    """The union of a stack of sets ``[..., k, 2]``."""
    out: Array = lax.reduce(ws, jnp.uint32(0), lax.bitwise_or, (ws.ndim - 2,))
    return out


def hand_weights(hand: Array, n: int) -> Array:
    """Bit ``2**i`` at the ``i``-th card of the hand (:func:`~conquian.envs.encoding.hand_bits`)."""
    b = bits(hand, n)
    rank = jnp.cumsum(b.astype(jnp.int32)) - 1
    return jnp.where(b, jnp.left_shift(1, jnp.maximum(rank, 0)), 0).astype(jnp.int32)


def get_bit(ws: Array, i: Array) -> Array:
    """Bit ``i`` of a bit set held in ``uint32`` words (read by a one-hot sum: no gather)."""
    word = jnp.sum(jnp.where(jnp.arange(ws.shape[-1]) == (i >> 5), ws, jnp.uint32(0)), axis=-1, dtype=jnp.uint32)
    return ((word >> (i & 31).astype(jnp.uint32)) & 1) == 1


def set_bit(ws: Array, i: Array, flag: Array) -> Array:
    """``ws`` with bit ``i`` set where ``flag``."""
    one = jnp.left_shift(jnp.uint32(1), (i & 31).astype(jnp.uint32))
    return ws | jnp.where((jnp.arange(ws.shape[-1]) == (i >> 5)) & flag, one, jnp.uint32(0))


def _read(a: Array, sel: Array) -> Array:
    """Row ``sel`` (one-hot) of a stack."""
    return jnp.sum(jnp.where(sel.reshape(sel.shape + (1,) * (a.ndim - 1)), a, 0), axis=0, dtype=a.dtype)


def _write(a: Array, sel: Array, v: Array) -> Array:
    return jnp.where(sel.reshape(sel.shape + (1,) * (a.ndim - 1)), v, a)


class Search(NamedTuple):
    """The end of a search: whether it stopped at a leaf, the path to it (the combinations
    chosen, ``-1`` for a hand card left, ``n_melds`` past the leaf) and what the leaves made."""

    stopped: Array
    path: Array
    acc: Any


LeafFn = Callable[[Any, Array, Array, Array], tuple[Any, Array]]


def dfs(T: Tables, req: Array, opt: Array, side: Array, hand: Array, card: Array, *, cover: bool,
        leaf_fn: LeafFn, acc: Any, active: Array) -> Search:
    """Depth-first search for partitions of ``req`` and some cards of ``opt`` into combinations.

    ``cover=False`` is the engine's walk (``_walk``; with no side and nothing optional,
    ``MeldTable.partition``): the lowest card left is placed or, if optional, left first; a
    required card goes first into the player's own combination holding it (``side``) if that
    lies whole and starts there, then into each combination starting there.  ``cover=True`` is
    ``MeldTable.cover``: the lowest required card goes into each combination holding it, of
    the required and optional cards.  At each leaf ``leaf_fn(acc, is_leaf, laid, card_meld)``
    gives the new ``acc`` and whether to stop (``laid``: the cards of ``hand`` laid;
    ``card_meld``: the combination holding ``card``).  The stack is read and written through
    one-hot masks, so that under ``jax.vmap`` every step of the loop is elementwise.
    """
    n, k = T.n_cards, T.n_melds
    meld = jnp.asarray(T.meld)
    card_bit = jnp.asarray(T.card_bit)
    meld_low = jnp.asarray(T.meld_low)
    table = jnp.asarray(T.by_card if cover else T.by_low)
    width = table.shape[1] + (0 if cover else 2)
    cbit = card_bit[jnp.maximum(card, 0)]
    zero = jnp.zeros((DEPTH, 2), dtype=jnp.uint32)
    stack = (zero.at[0].set(req), zero.at[0].set(opt), zero, jnp.full(DEPTH, k, jnp.int32),
             jnp.zeros(DEPTH, jnp.int32), jnp.full(DEPTH, k, jnp.int32))
    side_m = meld[side]
    levels = jnp.arange(DEPTH)

    def cond(c: tuple[Any, ...]) -> Array:
        go: Array = (c[0] >= 0) & ~c[1]
        return go

    def body(c: tuple[Any, ...]) -> tuple[Any, ...]:
        d, _, (rq, op, ld, cm, ptr, ch), acc = c
        here = levels == d
        r, o, laid, cmd, p0 = _read(rq, here), _read(op, here), _read(ld, here), _read(cm, here), _read(ptr, here)
        rest = r | o
        if cover:
            leaf = empty(r)
            low = lowest(r, n)
        else:
            leaf = empty(rest)
            low = lowest(rest, n)
        lowbit = card_bit[low]
        cl = table[jnp.minimum(low, n - 1)]
        cval = (cl < k) & subset(meld[cl], rest)
        if cover:
            cands, valid = cl, cval
        else:
            low_req = ~empty(r & lowbit)
            holds = ~empty(side_m & lowbit) & (side < k)
            sm = jnp.max(jnp.where(holds, side, -1))
            sm = jnp.where(sm >= 0, sm, k)
            side_ok = low_req & (sm < k) & subset(meld[sm], rest) & (meld_low[sm] == low)
            cval = cval & ~(side_ok & (cl == sm))
            cands = jnp.concatenate([jnp.array([-1], jnp.int32), sm[None], cl])
            valid = jnp.concatenate([(~low_req & (low < n))[None], side_ok[None], cval])
        valid = valid & (jnp.arange(width) >= p0) & ~leaf
        go = jnp.any(valid)
        j = jnp.argmax(valid)
        m = cands[j]
        mm = meld[jnp.where(m >= 0, m, k)]
        removed = jnp.where(m >= 0, mm, lowbit)
        acc, stop = leaf_fn(acc, leaf, laid, cmd)
        stop = stop & leaf
        nxt = (levels == d + 1) & go
        mine = here & go
        ptr = _write(_write(ptr, mine, j + 1), nxt, 0)
        ch = _write(ch, mine, m)
        rq = _write(rq, nxt, r & ~removed)
        op = _write(op, nxt, o & ~removed)
        ld = _write(ld, nxt, laid | (mm & hand))
        cm = _write(cm, nxt, jnp.where((m >= 0) & ~empty(mm & cbit), m, cmd))
        d = jnp.where(stop, d, jnp.where(go, d + 1, d - 1))
        return d, stop, (rq, op, ld, cm, ptr, ch), acc

    init = (jnp.where(active, 0, -1).astype(jnp.int32), jnp.bool_(False), stack, acc)
    d, stopped, st, acc = lax.while_loop(cond, body, init)
    path = jnp.where(levels < d, st[5], k)
    return Search(stopped, path, acc)


def first_leaf(T: Tables, req: Array, opt: Array, *, cover: bool, active: Array) -> Search:
    """``MeldTable.partition(req)`` (``cover=False``, ``opt`` empty) or ``MeldTable.cover(req, opt)``."""
    none = jnp.full(4, T.n_melds, jnp.int32)

    def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
        return acc, is_leaf

    return dfs(T, req, opt, none, jnp.zeros(2, jnp.uint32), jnp.int32(-1), cover=cover, leaf_fn=leaf,
               acc=(), active=active)


class Uses(NamedTuple):
    """The listed uses of the card in play: the combinations holding it that have an index of
    their own (``use``, ``bool[n_melds]``), the further uses by the hand cards they lay
    (``lay``, ``bool[1024]``), the forms of steps 1 to 3 of the listing (``forms``: one row per
    side place then per three-card combination, its new combinations, ``n_melds`` for none;
    ``form_meld``: the combination holding the card, ``n_melds`` if the row lists nothing), and
    for each combination holding the card (by its place among them, ``Tables.place``) whose
    first form is a further search's, the hand cards it lays (``first_lay``, -1 for none)."""

    use: Array
    lay: Array
    forms: Array
    form_meld: Array
    first_lay: Array


def joinable(T: Tables, mask: Array) -> Array:
    """The cards of ``mask`` that lie in some combination of its cards."""
    meld = jnp.asarray(T.meld)[:T.n_melds]
    inside = subset(meld, mask)
    return union(jnp.where(inside[:, None], meld, jnp.uint32(0)))


def _hb(laid: Array, weights: Array, n: int) -> Array:
    return jnp.sum(jnp.where(bits(laid, n), weights, 0))


def list_uses(T: Tables, stage: Array, card: Array, hand: Array, side: Array, down: Array) -> Uses:
    """:func:`~conquian.engine.conquian.listing.use_forms` and its numbering (see :class:`Uses`)."""
    n, k = T.n_cards, T.n_melds
    meld = jnp.asarray(T.meld)
    c = jnp.maximum(card, 0)
    cb = jnp.asarray(T.card_bit)[c]
    place = jnp.asarray(T.place)[:, c]  # [n_melds + 1]
    avail = down | hand
    th = jnp.asarray(T.threes)[c]
    tm = meld[th]
    rest = tm & ~cb
    gate = (stage <= FORCED) & (card >= 0) & jnp.any((th < k) & subset(rest, avail))
    hand_f = hand & joinable(T, avail | cb)
    avail_f = down | hand_f
    weights = hand_weights(hand, n)
    # 1: the player's combinations the card fits as they lie
    ext = jnp.asarray(T.ext)[side, c]
    f1 = gate & (side < k) & (ext < k)
    # 2 and 3: the three-card combinations of the card and two cards, hand or (borrowed) down
    live = gate & (th < k)
    s2 = live & subset(rest, hand_f)
    s3 = live & ~s2 & subset(rest, avail_f)
    side_m = meld[side]
    meets = ~empty(side_m[None, :, :] & tm[:, None, :])  # [threes, side]
    touched = union(jnp.where(meets[:, :, None], side_m[None], jnp.uint32(0)))
    left = touched & ~tm
    some = ~empty(left)
    part = jax.vmap(lambda r, a: first_leaf(T, r, jnp.zeros(2, jnp.uint32), cover=False, active=a))(
        left, s3 & some)
    cov = jax.vmap(lambda r, o, a: first_leaf(T, r, o, cover=True, active=a))(
        left, hand_f & ~tm, s3 & some & ~part.stopped)
    f3 = s3 & (~some | part.stopped | cov.stopped)
    extra = jnp.where(part.stopped[:, None], part.path[:, :4], cov.path[:, :4])
    extra = jnp.where(some[:, None], extra, k)
    forms = jnp.full((4 + th.shape[0], 5), k, jnp.int32)
    forms = forms.at[:4, 0].set(jnp.where(f1, ext, k))
    forms = forms.at[4:, 0].set(jnp.where(s2 | f3, th, k))
    forms = forms.at[4:, 1:].set(jnp.where(f3[:, None], extra, k))
    form_meld = forms[:, 0]
    listed = form_meld < k
    laid3 = union(meld[forms[4:]]) & hand_f
    lays = jnp.concatenate([jnp.zeros(4, jnp.int32), jax.vmap(lambda w: _hb(w, weights, n))(laid3)])
    laid13 = jnp.zeros(32, jnp.uint32)
    for i in range(lays.shape[0]):
        laid13 = set_bit(laid13, lays[i], listed[i])
    # 4: every further set of hand cards some use lays, each once, in one partition
    kk = jnp.sum(bits(hand_f, n).astype(jnp.int32))
    step4 = gate & ~((kk <= 2) & (empty(down) | ((kk == 0) & get_bit(laid13, jnp.int32(0)))))
    walk = kk >= 4
    seen = jnp.sum(jnp.where(listed, jnp.left_shift(jnp.uint32(1), place[form_meld].astype(jnp.uint32)),
                             jnp.uint32(0)), dtype=jnp.uint32)  # the places are distinct: the sum is their union
    weights_f = hand_weights(hand_f, n)
    slots = jnp.arange(32)
    # acc: the sets of hand cards found (1024 bits), the combination holding the card of each set of
    # three hand cards or fewer (by its bits over hand_f), the places used, the further uses' bits,
    # the first further set of each place
    acc0 = (jnp.zeros(32, jnp.uint32), jnp.full(8, k, jnp.int32), seen, jnp.zeros(32, jnp.uint32),
            jnp.full(32, -1, jnp.int32))

    def record(acc: Any, ok: Array, hb: Array, cm: Array) -> Any:
        found, mof, seen, lay, first = acc
        at = jnp.maximum(place[cm], 0).astype(jnp.uint32)
        before = ((seen >> at) & 1) == 1
        first = jnp.where((slots == at) & ok & ~before, hb, first)
        lay = set_bit(lay, hb, ok & before)
        seen = seen | jnp.where(ok, jnp.left_shift(jnp.uint32(1), at), jnp.uint32(0))
        return found, mof, seen, lay, first

    def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
        found, mof, seen, lay, first = acc
        hb = _hb(laid, weights, n)
        new = is_leaf & ~get_bit(found, hb)
        found = set_bit(found, hb, new)
        hf = _hb(laid, weights_f, n)
        mof = jnp.where((jnp.arange(8) == hf) & new, cm, mof)
        acc = record((found, mof, seen, lay, first), new & ~get_bit(laid13, hb) & walk, hb, cm)
        return acc, jnp.bool_(False)

    res = dfs(T, cb | down, hand_f, side, hand, card, cover=False, leaf_fn=leaf, acc=acc0, active=step4)
    # three hand cards or fewer: each set of them, from the largest number down
    to_full = jnp.stack([jnp.sum(jnp.where(weights_f == (1 << i), weights, 0)) for i in range(3)])
    useful = (1 << jnp.minimum(kk, 3)) - 1
    acc = res.acc
    sub = useful
    done = jnp.bool_(False)
    for _ in range(8):
        found, mof = acc[0], acc[1]
        hb = jnp.sum(jnp.where((sub >> jnp.arange(3)) & 1 == 1, to_full, 0))
        ok = ~done & get_bit(found, hb) & ~get_bit(laid13, hb) & ~walk & step4
        acc = record(acc, ok, hb, jnp.sum(jnp.where(jnp.arange(8) == sub, mof, 0)))
        done = done | (sub == 0)
        sub = (sub - 1) & useful
    _, _, seen, lay, first = acc
    holds = place[:k] >= 0
    use = holds & (((seen >> jnp.maximum(place[:k], 0).astype(jnp.uint32)) & 1) == 1)
    lay_bits = ((lay[:, None] >> jnp.arange(32, dtype=jnp.uint32)) & 1).astype(jnp.bool_).reshape(-1)
    return Uses(use, lay_bits, forms, form_meld, first)


def use_melds(T: Tables, uses: Uses, index: Array, card: Array, hand: Array, side: Array,
              down: Array) -> Array:
    """The new combinations (``int32[NEW]``, ``n_melds`` for none, in no order) of the listed use
    with action ``index`` (``A_USE`` or later)."""
    k = T.n_melds
    m = index - T.a_use
    is_use = m < k
    row = jnp.argmax(uses.form_meld == m)
    listed = is_use & jnp.any(uses.form_meld == m)
    c = jnp.maximum(card, 0)
    at = jnp.maximum(jnp.asarray(T.place)[jnp.clip(m, 0, k), c], 0)
    target = jnp.where(is_use, uses.first_lay[at], index - T.a_lay)
    cb = jnp.asarray(T.card_bit)[c]
    hand_f = hand & joinable(T, down | hand | cb)
    weights = hand_weights(hand, T.n_cards)

    def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
        return acc, is_leaf & (_hb(laid, weights, T.n_cards) == target)

    active = (index >= T.a_use) & ~listed
    res = dfs(T, cb | down, hand_f, side, hand, card, cover=False, leaf_fn=leaf, acc=(), active=active)
    path = res.path
    kept = (path >= 0) & (path < k) & ~jnp.any(path[:, None] == side[None, :], axis=1)
    walked = jnp.sort(jnp.where(kept, path, k))[:8]
    from_form = jnp.concatenate([uses.forms[row], jnp.full(3, k, jnp.int32)])
    return jnp.where(listed, from_form, walked)


__all__ = ["LAYS", "Search", "Uses", "dfs", "first_leaf", "get_bit", "joinable", "list_uses", "lowest", "set_bit",
           "use_melds"]
