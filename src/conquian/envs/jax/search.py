"""The listed uses of the card in play (R3.4) as pure JAX functions of one deal's arrays.

The same listing as the engine's :func:`~conquian.engine.conquian.listing.use_forms`, form for
form and in its order (the docstring there is the contract), so that the uses get the same
indices as :meth:`~conquian.envs.encoding.Encoding.number_uses` gives them.  The engine's
recursive searches (``MeldTable.partition``, ``MeldTable.cover``, the walk of
``layable_sets``) become one depth-first search over a fixed stack (:func:`dfs`) in a
``lax.while_loop``: one step of the loop pushes the next child of the node on top, or pops
it; the children are tried in the engine's order, so the first leaf found is the engine's.
Where a search is small it has a closed form, taken instead of the loop: the cover of one or
two cards (:func:`cover_small`) and the partition of five cards or fewer (:func:`partition_small`).

Card sets are ``uint32[2]`` (:mod:`conquian.envs.jax.tables`).  Every function here works on
one deal; the environment maps them over a batch with ``jax.vmap``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
from jax import Array, lax

from conquian.engine.conquian.listing import FORCED
from conquian.envs.jax.tables import DEPTH, Tables

LAYS = 1024  # the block of further uses: a bit per card of a hand of ten
#: the rows a closed form answers at a time in a batch (of a deal's threes): at least
#: ``SHARE_MIN``, else one in ``SHARE_PART`` (about one in thirty needs one); the rest, searched
SHARE_MIN = 64
SHARE_PART = 16


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
        ptr = _write(_write(ptr, mine, j + 1), nxt, jnp.int32(0))
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


def cover_small(T: Tables, left: Array, opt: Array) -> Search:
    """``MeldTable.cover(left, opt)`` for ``left`` of one or two cards, in closed form over a
    batch of rows (``left``, ``opt``: ``[rows, 2]``): what :func:`first_leaf` with ``cover=True``
    gives them (the first two levels of its path; the rest ``n_melds``), without its loop.

    The search places the lowest card ``l1`` in the first combination holding it (in
    ``by_card``'s order) of the cards at hand after which the rest can be covered: the rest is
    nothing, if that combination holds ``l2`` too, else ``l2`` alone, covered by the first
    combination holding it of ``l2`` and the optional cards that combination left.  So the
    answer is the first ``m1`` of ``l1``'s combinations for which some of ``l2``'s is disjoint
    from it, and that one's first: a test over the pairs of the two cards' combinations (about
    31 each), no search.  Rows with more than two cards to cover are not for this function."""
    n, k = T.n_cards, T.n_melds
    meld = jnp.asarray(T.meld)
    card_bit = jnp.asarray(T.card_bit)
    by_card = jnp.asarray(T.by_card)
    l1 = lowest(left, n)
    l2 = lowest(left & ~card_bit[l1], n)
    has2 = l2 < n
    b2 = card_bit[l2]
    c1 = by_card[jnp.minimum(l1, n - 1)]  # [rows, W]
    m1 = meld[c1]  # [rows, W, 2]
    v1 = (c1 < k) & subset(m1, (left | opt)[:, None, :]) & (l1 < n)[:, None]
    holds2 = ~empty(m1 & b2[:, None, :])
    c2 = by_card[jnp.minimum(l2, n - 1)]
    m2 = meld[c2]
    v2 = (c2 < k) & subset(m2, (b2 | opt)[:, None, :])
    pair = v2[:, None, :] & empty(m1[:, :, None, :] & m2[:, None, :, :])  # [rows, W, W]
    ok1 = v1 & (~has2[:, None] | holds2 | jnp.any(pair, axis=2))
    i = jnp.argmax(ok1, axis=1)
    stopped = jnp.any(ok1, axis=1)
    first = jnp.take_along_axis(c1, i[:, None], axis=1)[:, 0]
    j = jnp.argmax(jnp.take_along_axis(pair, i[:, None, None], axis=1)[:, 0], axis=1)
    two = has2 & ~jnp.take_along_axis(holds2, i[:, None], axis=1)[:, 0]
    second = jnp.where(two, jnp.take_along_axis(c2, j[:, None], axis=1)[:, 0], k)
    rows = left.shape[0]
    path = jnp.full((rows, DEPTH), k, jnp.int32)
    path = path.at[:, 0].set(jnp.where(stopped, first, k)).at[:, 1].set(jnp.where(stopped, second, k))
    return Search(stopped, path, ())


def partition_small(T: Tables, left: Array) -> Search:
    """``MeldTable.partition(left)`` for ``left`` of three to five cards, in closed form over a
    batch of rows (``[rows, 2]``): what :func:`first_leaf` with ``cover=False`` gives them.
    Every combination has three cards or more, so five cards or fewer split into combinations
    only as one: the partition is ``left`` itself if it is a combination (one of those whose
    lowest card is ``left``'s), else there is none."""
    n, k = T.n_cards, T.n_melds
    l1 = lowest(left, n)
    cands = jnp.asarray(T.by_low)[jnp.minimum(l1, n - 1)]  # [rows, W]
    same = (cands < k) & jnp.all(jnp.asarray(T.meld)[cands] == left[:, None, :], axis=-1)
    stopped = jnp.any(same, axis=1)
    m = jnp.take_along_axis(cands, jnp.argmax(same, axis=1)[:, None], axis=1)[:, 0]
    path = jnp.full((left.shape[0], DEPTH), k, jnp.int32).at[:, 0].set(jnp.where(stopped, m, k))
    return Search(stopped, path, ())


def _gathered(fn: Callable[..., Search], active: Array, args: tuple[Array, ...], size: int, default: Search
              ) -> tuple[Search, Array]:
    """``fn`` (a function of whole rows) run on the first ``size`` rows ``active`` marks, gathered;
    the others keep ``default``.  Returns the results and the rows it ran on."""
    b = active.shape[0]
    rank = jnp.cumsum(active.astype(jnp.int32)) - 1
    done = active & (rank < size)
    idx = jnp.nonzero(done, size=size, fill_value=0)[0]
    valid = jnp.arange(size) < jnp.sum(done.astype(jnp.int32))
    res = fn(*(x[idx] for x in args))
    rows = jnp.where(valid, idx, b)
    out: Search = jax.tree_util.tree_map(lambda o, r: o.at[rows].set(r, mode="drop"), default, res)
    return out, done


def _closed_or_searched(T: Tables, cover: bool, closed: Callable[..., Search], wanted: Array, small: Array,
                        closed_args: tuple[Array, ...], search_args: tuple[Array, ...], share: int, cap: int | None
                        ) -> Search:
    """The first leaf of the partition (``cover`` False) or the cover search for the rows ``wanted``
    marks: ``closed`` (its closed form) on the first ``share`` of those that are ``small`` enough
    for it, the search (:func:`first_leaf`, gathered ``cap`` rows at a time) on the rest."""
    b = wanted.shape[0]
    quick, done = _gathered(closed, wanted & small, closed_args, share, _inactive(T, (), b))
    slow = run_rows(_first_row(T, cover), wanted & ~done, search_args, _inactive(T, (), b), cap)
    return Search(quick.stopped | slow.stopped, jnp.where(done[:, None], quick.path, slow.path), ())


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


def run_rows(fn: Callable[..., Any], active: Array, args: tuple[Any, ...], default: Any, cap: int | None) -> Any:
    """``jax.vmap(fn)(active, *args)`` over a batch, ``fn`` run only on the rows ``active`` marks:
    they are gathered ``cap`` at a time (as many times as they need), the others keep
    ``default`` (what ``fn`` gives an inactive row).  A search's loop runs as long as its
    longest row: rows that need no search then cost it nothing.  ``cap`` ``None``: no gathering."""
    b = active.shape[0]
    if cap is None or cap >= b:
        return jax.vmap(fn)(active, *args)
    rank = jnp.cumsum(active.astype(jnp.int32)) - 1
    count = jnp.sum(active.astype(jnp.int32))

    def body(c: tuple[Array, Any]) -> tuple[Array, Any]:
        off, out = c
        take = active & (rank >= off) & (rank < off + cap)
        idx = jnp.nonzero(take, size=cap, fill_value=0)[0]
        valid = jnp.arange(cap) < count - off
        res = jax.vmap(fn)(valid, *jax.tree_util.tree_map(lambda x: x[idx], args))
        rows = jnp.where(valid, idx, b)
        out = jax.tree_util.tree_map(lambda o, r: o.at[rows].set(r, mode="drop"), out, res)
        return off + cap, out

    _, out = lax.while_loop(lambda c: c[0] < count, body, (jnp.int32(0), default))
    return out


def _inactive(T: Tables, acc: Any, b: int) -> Search:
    """What a search gives a row it does not run on."""
    return Search(jnp.zeros(b, jnp.bool_), jnp.full((b, DEPTH), T.n_melds, jnp.int32), acc)


def _first_row(T: Tables, cover: bool) -> Callable[..., Search]:
    def row(active: Array, req: Array, opt: Array) -> Search:
        return first_leaf(T, req, opt, cover=cover, active=active)
    return row


class _Walk(NamedTuple):
    """What the listing's walk needs of a row besides the search's own inputs."""

    weights: Array
    weights_f: Array
    laid13: Array
    walk: Array
    place: Array


def _record(place: Array, acc: Any, ok: Array, hb: Array, cm: Array) -> Any:
    found, mof, seen, lay, first = acc
    at = jnp.maximum(place[cm], 0).astype(jnp.uint32)
    before = ((seen >> at) & 1) == 1
    first = jnp.where((jnp.arange(32) == at) & ok & ~before, hb, first)
    lay = set_bit(lay, hb, ok & before)
    seen = seen | jnp.where(ok, jnp.left_shift(jnp.uint32(1), at), jnp.uint32(0))
    return found, mof, seen, lay, first


def _walk_row(T: Tables) -> Callable[..., Search]:
    n = T.n_cards

    def row(active: Array, req: Array, opt: Array, side: Array, hand: Array, card: Array, acc: Any,
            ctx: _Walk) -> Search:
        def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
            found, mof, seen, lay, first = acc
            hb = _hb(laid, ctx.weights, n)
            new = is_leaf & ~get_bit(found, hb)
            found = set_bit(found, hb, new)
            hf = _hb(laid, ctx.weights_f, n)
            mof = jnp.where((jnp.arange(8) == hf) & new, cm, mof)
            acc = _record(ctx.place, (found, mof, seen, lay, first), new & ~get_bit(ctx.laid13, hb) & ctx.walk, hb, cm)
            return acc, jnp.bool_(False)

        return dfs(T, req, opt, side, hand, card, cover=False, leaf_fn=leaf, acc=acc, active=active)

    return row


def _target_row(T: Tables) -> Callable[..., Search]:
    n = T.n_cards

    def row(active: Array, req: Array, opt: Array, side: Array, hand: Array, card: Array, weights: Array,
            target: Array) -> Search:
        def leaf(acc: Any, is_leaf: Array, laid: Array, cm: Array) -> tuple[Any, Array]:
            return acc, is_leaf & (_hb(laid, weights, n) == target)

        return dfs(T, req, opt, side, hand, card, cover=False, leaf_fn=leaf, acc=(), active=active)

    return row


def list_uses(T: Tables, stage: Array, card: Array, hand: Array, side: Array, down: Array,
              cap: int | None = None) -> Uses:
    """:func:`~conquian.engine.conquian.listing.use_forms` and its numbering (see :class:`Uses`),
    for a batch of rows (every argument with a leading batch axis); ``cap``: the searches run on
    the rows that need one, that many at a time (:func:`run_rows`)."""
    n, k = T.n_cards, T.n_melds
    b = stage.shape[0]
    meld = jnp.asarray(T.meld)

    def prep(stage: Array, card: Array, hand: Array, side: Array, down: Array) -> dict[str, Array]:
        c = jnp.maximum(card, 0)
        cb = jnp.asarray(T.card_bit)[c]
        avail = down | hand
        th = jnp.asarray(T.threes)[c]
        tm = meld[th]
        rest = tm & ~cb
        gate = (stage <= FORCED) & (card >= 0) & jnp.any((th < k) & subset(rest, avail))
        hand_f = hand & joinable(T, avail | cb)
        avail_f = down | hand_f
        # 1: the player's combinations the card fits as they lie
        ext = jnp.asarray(T.ext)[side, c]
        f1 = gate & (side < k) & (ext < k)
        # 2 and 3: the three-card combinations of the card and two cards, hand or (borrowed) down
        live = gate & (th < k)
        s2 = live & subset(rest, hand_f)
        s3 = live & ~s2 & subset(rest, avail_f)
        side_m = meld[side]
        meets = ~empty(side_m[None, :, :] & tm[:, None, :])  # [threes, side]
        left = union(jnp.where(meets[:, :, None], side_m[None], jnp.uint32(0))) & ~tm
        return dict(c=c, cb=cb, th=th, tm=tm, gate=gate, hand_f=hand_f, ext=ext, f1=f1, s2=s2, s3=s3, left=left,
                    some=~empty(left), place=jnp.asarray(T.place)[:, c])

    p = jax.vmap(prep)(stage, card, hand, side, down)
    nt = p["th"].shape[1]

    def flat(x: Array) -> Array:
        return x.reshape((b * nt, *x.shape[2:]))
    zeros = jnp.zeros((b * nt, 2), jnp.uint32)
    want = flat(p["s3"] & p["some"])
    # a partition of fewer than three cards into combinations is none: no search for it
    left_f, opt_f = flat(p["left"]), flat(p["hand_f"][:, None] & ~p["tm"])
    count = jnp.sum(lax.population_count(left_f).astype(jnp.int32), axis=-1)
    three = count >= 3
    # the rows a closed form answers are gathered, a share of them at a time; the others, and
    # any past the share, go to the search
    share = b * nt if cap is None else max(SHARE_MIN, b * nt // SHARE_PART)
    part = _closed_or_searched(T, False, lambda lf: partition_small(T, lf), want & three, count <= 5, (left_f,),
                               (left_f, zeros), share, cap)
    want_c = want & ~part.stopped
    # a cover of one or two cards (most of them: a card borrowed from a three) in closed form
    cov = _closed_or_searched(T, True, lambda lf, op: cover_small(T, lf, op), want_c, ~three, (left_f, opt_f),
                              (left_f, opt_f), share, cap)
    part_ok = part.stopped.reshape(b, nt)
    cov_ok = cov.stopped.reshape(b, nt)
    part_path = part.path.reshape(b, nt, DEPTH)
    cov_path = cov.path.reshape(b, nt, DEPTH)

    def mid(p: dict[str, Array], hand: Array, down: Array, part_ok: Array, cov_ok: Array, part_path: Array,
            cov_path: Array) -> tuple[Any, ...]:
        some, s3, th, place = p["some"], p["s3"], p["th"], p["place"]
        f3 = s3 & (~some | part_ok | cov_ok)
        extra = jnp.where(part_ok[:, None], part_path[:, :4], cov_path[:, :4])
        extra = jnp.where(some[:, None], extra, k)
        forms = jnp.full((4 + nt, 5), k, jnp.int32)
        forms = forms.at[:4, 0].set(jnp.where(p["f1"], p["ext"], k))
        forms = forms.at[4:, 0].set(jnp.where(p["s2"] | f3, th, k))
        forms = forms.at[4:, 1:].set(jnp.where(f3[:, None], extra, k))
        form_meld = forms[:, 0]
        listed = form_meld < k
        weights = hand_weights(hand, n)
        laid3 = union(meld[forms[4:]]) & p["hand_f"]
        lays = jnp.concatenate([jnp.zeros(4, jnp.int32), jax.vmap(lambda w: _hb(w, weights, n))(laid3)])
        laid13 = jnp.zeros(32, jnp.uint32)
        for i in range(lays.shape[0]):
            laid13 = set_bit(laid13, lays[i], listed[i])
        # 4: every further set of hand cards some use lays, each once, in one partition
        kk = jnp.sum(bits(p["hand_f"], n).astype(jnp.int32))
        step4 = p["gate"] & ~((kk <= 2) & (empty(down) | ((kk == 0) & get_bit(laid13, jnp.int32(0)))))
        # the places are distinct: their sum is their union
        seen = jnp.sum(jnp.where(listed, jnp.left_shift(jnp.uint32(1), place[form_meld].astype(jnp.uint32)),
                                 jnp.uint32(0)), dtype=jnp.uint32)
        acc0 = (jnp.zeros(32, jnp.uint32), jnp.full(8, k, jnp.int32), seen, jnp.zeros(32, jnp.uint32),
                jnp.full(32, -1, jnp.int32))
        ctx = _Walk(weights, hand_weights(p["hand_f"], n), laid13, kk >= 4, place)
        return forms, step4, kk, acc0, ctx

    forms, step4, kk, acc0, ctx = jax.vmap(mid)(p, hand, down, part_ok, cov_ok, part_path, cov_path)
    res = run_rows(_walk_row(T), step4, (p["cb"] | down, p["hand_f"], side, hand, card, acc0, ctx),
                   _inactive(T, acc0, b), cap)

    def post(acc: Any, ctx: _Walk, kk: Array, step4: Array, place: Array) -> tuple[Array, Array, Array]:
        # three hand cards or fewer: each set of them, from the largest number down
        to_full = jnp.stack([jnp.sum(jnp.where(ctx.weights_f == (1 << i), ctx.weights, 0)) for i in range(3)])
        useful = (1 << jnp.minimum(kk, 3)) - 1
        sub = useful
        done = jnp.bool_(False)
        for _ in range(8):
            found, mof = acc[0], acc[1]
            hb = jnp.sum(jnp.where((sub >> jnp.arange(3)) & 1 == 1, to_full, 0))
            ok = ~done & get_bit(found, hb) & ~get_bit(ctx.laid13, hb) & ~ctx.walk & step4
            acc = _record(place, acc, ok, hb, jnp.sum(jnp.where(jnp.arange(8) == sub, mof, 0)))
            done = done | (sub == 0)
            sub = (sub - 1) & useful
        _, _, seen, lay, first = acc
        use = (place[:k] >= 0) & (((seen >> jnp.maximum(place[:k], 0).astype(jnp.uint32)) & 1) == 1)
        lay_bits = ((lay[:, None] >> jnp.arange(32, dtype=jnp.uint32)) & 1).astype(jnp.bool_).reshape(-1)
        return use, lay_bits, first

    use, lay, first = jax.vmap(post)(res.acc, ctx, kk, step4, p["place"])
    return Uses(use, lay, forms, forms[:, :, 0], first)


def use_melds(T: Tables, uses: Uses, index: Array, card: Array, hand: Array, side: Array,
              down: Array, cap: int | None = None, ordered: bool = False) -> Array:
    """The new combinations (``int32[NEW]``, ``n_melds`` for none) of the listed use with action
    ``index`` (``A_USE`` or later), for a batch of rows (as :func:`list_uses`); ``ordered``:
    in the order of the engine's listed form (:func:`~conquian.engine.conquian.listing.use_forms`:
    steps 1 to 3 as they list them, step 4 in the order its walk places them), else in no order."""
    k, n = T.n_melds, T.n_cards

    def prep(uses: Uses, index: Array, card: Array, hand: Array, side: Array, down: Array) -> tuple[Any, ...]:
        m = index - T.a_use
        is_use = m < k
        row = jnp.argmax(uses.form_meld == m)
        listed = is_use & jnp.any(uses.form_meld == m)
        c = jnp.maximum(card, 0)
        at = jnp.maximum(jnp.asarray(T.place)[jnp.clip(m, 0, k), c], 0)
        target = jnp.where(is_use, uses.first_lay[at], index - T.a_lay)
        cb = jnp.asarray(T.card_bit)[c]
        hand_f = hand & joinable(T, down | hand | cb)
        active = (index >= T.a_use) & ~listed
        from_form = jnp.concatenate([uses.forms[row], jnp.full(3, k, jnp.int32)])
        return active, cb | down, hand_f, hand_weights(hand, n), target, listed, from_form

    active, req, hand_f, weights, target, listed, from_form = jax.vmap(prep)(uses, index, card, hand, side, down)
    res = run_rows(_target_row(T), active, (req, hand_f, side, hand, card, weights, target),
                   _inactive(T, (), index.shape[0]), cap)

    def post(path: Array, side: Array, listed: Array, from_form: Array) -> Array:
        kept = (path >= 0) & (path < k) & ~jnp.any(path[:, None] == side[None, :], axis=1)
        if ordered:  # the walk's order: the kept places first, as they come
            at = jnp.argsort(~kept, stable=True)
            walked = jnp.where(kept[at], path[at], k)[:8]
        else:
            walked = jnp.sort(jnp.where(kept, path, k))[:8]
        return jnp.where(listed, from_form, walked)

    out: Array = jax.vmap(post)(res.path, side, listed, from_form)
    return out


__all__ = ["LAYS", "Search", "Uses", "cover_small", "dfs", "first_leaf", "get_bit", "joinable", "list_uses", "lowest",
           "partition_small", "run_rows", "set_bit", "use_melds"]
