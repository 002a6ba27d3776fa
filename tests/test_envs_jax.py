"""The accelerated (JAX) environment: in lockstep with the engine's batched environment (every
observation, action mask, seat to act, reward and end equal at every step of random deals),
under ``jax.vmap`` and ``jax.jit``; skipped without the ``jax`` extra."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from conquian.envs.jax import ConquianJax, dense_deck  # noqa: E402
from conquian.envs.jax.check import Mismatch, lockstep  # noqa: E402


@pytest.mark.parametrize(("variant", "scoring", "envs", "steps"), [
    ("conquian", "games", 96, 260),
    # the Spanish pack (the same tables over its own cards), and R2.4: the loser pays his hand's pips
    ("conquian-spanish", "pips", 64, 160),
])
def test_lockstep_with_the_engine(variant: str, scoring: str, envs: int, steps: int) -> None:
    """R3: hundreds of random deals, every step's arrays equal to the engine's (uses listed by
    the engine's R3.4 listing, further uses by the hand cards they lay, included)."""
    res = lockstep(variant, num_envs=envs, steps=steps, seed=3, scoring=scoring)
    assert res.deals >= envs * steps // 60
    assert res.uses > res.deals * 3 and res.further > 20  # the listing's every step was exercised


def test_lockstep_with_closed_forms_past_their_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """R3.4: the rows past the share the closed forms answer at a time go to the search: with a
    share of one row, every step's arrays still equal to the engine's."""
    from conquian.envs.jax import search

    monkeypatch.setattr(search, "SHARE_MIN", 1)
    monkeypatch.setattr(search, "SHARE_PART", 1 << 20)
    res = lockstep("conquian", num_envs=48, steps=120, seed=9)
    assert res.uses > res.deals * 3


def test_the_check_sees_a_difference() -> None:
    """The lockstep comparison fails on one float apart (so that its passing means something)."""
    from conquian.envs.jax.check import _same

    want = np.zeros((3, 609), dtype=np.float32)
    got = want.copy()
    got[2, 604] = np.float32(0.45)

    class Deals:
        deals = ("deal 0", "deal 1", "deal 2")

    with pytest.raises(Mismatch, match=r"step 7, environment 2: observation differs at \[604\]"):
        _same(7, "observation", want, got, Deals())


def test_a_deal_from_its_deck_and_an_illegal_action() -> None:
    """R3.1: the deal of a given deck; a masked action ends the deal, the seat that played it
    rewarded with ``illegal_reward`` and nothing played (as the batched environment's keyword)."""
    from conquian import ConquianDeal, get_rules

    env = ConquianJax("conquian", illegal_reward=-5.0)
    deal = ConquianDeal(get_rules("conquian"), seed=11, dealer=2)
    state = jax.jit(env.init_from_deck)(dense_deck(env.T.enc.cards, deal.deck), 2)
    assert int(state.to_act) == deal.to_act == 1
    assert np.flatnonzero(state.legal_action_mask).tolist() == sorted(env.T.enc.listed(deal.view(1)))
    masked = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = jax.jit(env.step)(state, masked)
    assert bool(after.terminated) and np.asarray(after.rewards).tolist() == [-5.0, 0.0]
    assert not np.asarray(after.legal_action_mask).any()
    assert np.array_equal(after.hands, state.hands) and int(after.card) == int(state.card)
    again = jax.jit(env.step)(after, 0)  # a finished deal stays as it is
    assert bool(again.terminated) and np.asarray(again.rewards).tolist() == [0.0, 0.0]


def test_autoreset_under_vmap_and_jit() -> None:
    """Deals that end start again in the same step; the finished deal's last observation is given."""
    env = ConquianJax("conquian")
    keys = jax.random.split(jax.random.PRNGKey(1), 16)
    state = jax.jit(jax.vmap(env.init))(keys)
    step = jax.jit(jax.vmap(env.step_autoreset))
    rng = np.random.default_rng(0)
    ended = 0
    for t in range(150):
        mask = np.asarray(state.legal_action_mask)
        assert mask.any(axis=1).all()  # a live deal everywhere, always something legal
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        keys = jax.random.split(jax.random.PRNGKey(100 + t), 16)
        state, final = step(state, actions, keys)
        term = np.asarray(state.terminated)
        rewards = np.asarray(state.rewards)
        assert (rewards[~term] == 0).all() and (rewards.sum(axis=1) == 0).all()
        # the finished deal's last observation: the "over" phase set, nothing to act
        assert (np.asarray(final)[term, 603] == 1.0).all() and (np.asarray(final)[term, 607] == 0.0).all()
        ended += int(term.sum())
    assert ended > 16


@pytest.mark.parametrize("variant", ["conquian", "conquian-mexicano"])
def test_the_batch_autoreset_deals_only_for_the_deals_that_ended(variant: str) -> None:
    """The batch method deals new deals only where deals ended (a share of the batch, or every
    row when more ended): the same states as the one-deal step mapped over the batch, which
    deals for every row, a step ending more deals than the share included."""
    from conquian.envs.jax.mexicano import MexicanoJax

    env = ConquianJax("conquian") if variant == "conquian" else MexicanoJax(3)
    n = 64
    state = jax.jit(env.batch_init)(jax.random.split(jax.random.PRNGKey(2), n))
    batch = jax.jit(env.batch_step_autoreset)
    one = jax.jit(jax.vmap(env.step_autoreset))
    rng = np.random.default_rng(1)
    ended = 0
    for t in range(120):
        mask = np.asarray(state.legal_action_mask)
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        if t == 50:  # twenty masked actions: twenty deals end at once, more than the share of 8
            actions[:20] = [int(np.flatnonzero(~row)[0]) for row in mask[:20]]
        keys = jax.random.split(jax.random.PRNGKey(200 + t), n)
        got, got_final = batch(state, actions, keys)
        want, want_final = one(state, actions, keys)
        for field in want._fields:
            for a, b in zip(jax.tree_util.tree_leaves(getattr(want, field)),
                            jax.tree_util.tree_leaves(getattr(got, field)), strict=True):
                assert np.array_equal(np.asarray(a), np.asarray(b)), (t, field)
        assert np.array_equal(np.asarray(want_final), np.asarray(got_final))
        ended += int(np.asarray(got.terminated).sum())
        state = got
    assert ended > 40
# ----------------------------------------------------------------- the conquián mexicano (R8)

@pytest.mark.parametrize(("players", "options", "envs", "steps"), [
    (2, {}, 48, 200),
    # the tercerilla (R8.1): the say round three players, forces naming one of two
    (3, {}, 32, 200),
    # R8.1's options: hands of nine without the exchange, the pack exhausted won by the fewest cards (R8.6)
    (2, {"hand": 9, "exchange": False, "exhausted": "fewest"}, 24, 150),
])
def test_mexicano_lockstep_with_the_engine(players: int, options: dict[str, object], envs: int, steps: int) -> None:
    """R8: random deals of the conquián mexicano, every step's observation, mask, seat to act,
    reward and end equal to the engine's batched environment (the exchange's gives, the say
    round the table, forces on each other player, uses and further uses all played)."""
    res = lockstep("conquian-mexicano", num_envs=envs, steps=steps, seed=4, players=players, **options)
    assert res.deals >= envs * steps // 70
    assert res.uses > res.deals and res.further > 0 and res.forces > res.deals // 2
    if options.get("exchange", True):
        assert res.gives >= res.deals * players  # R8.2: every deal begins with one give a player
    else:
        assert res.gives == 0


def test_mexicano_deal_from_its_deck_and_an_illegal_action() -> None:
    """R8.2: the deal of a given deck, the exchange's gives listed as the engine lists them,
    the swap after the last give; a masked action ends the deal, the seat to act rewarded with
    ``illegal_reward``."""
    from conquian import get_rules
    from conquian.engine.conquian.mexicano import MexicanoDeal
    from conquian.envs.jax.mexicano import MexicanoJax

    env = MexicanoJax(players=3, illegal_reward=-3.0)
    enc = env.T.enc
    deal = MexicanoDeal(get_rules("conquian-mexicano", players=3), seed=21, dealer=2)
    state = jax.jit(env.init_from_deck)(dense_deck(enc.cards, deal.deck), 2)
    step = jax.jit(env.step)
    for _ in range(3):  # p3 (the first after the dealer), p1, p2 give
        seat = deal.to_act
        assert int(state.to_act) == seat and int(state.stage) == 0
        listed = enc.listed(deal.view(seat))
        assert np.flatnonzero(state.legal_action_mask).tolist() == sorted(listed)
        assert np.array_equal(np.asarray(state.observation), enc.observe(deal.view(seat), _public(enc, deal)))
        a = max(listed)
        deal.apply_raw(*listed[a])
        state = step(state, a)
    assert deal.phase == "say" and int(state.stage) == 1 and int(state.card) == enc.dense[deal.card]
    hands = [sum(1 << enc.dense[c] for c in range(64) if h >> c & 1) for h in deal.hands]
    assert [int(w[0]) | int(w[1]) << 32 for w in np.asarray(state.hands)] == hands  # each got the card given him
    masked = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    after = step(state, masked)
    seat = deal.to_act
    assert bool(after.terminated) and np.asarray(after.rewards).tolist() == [-3.0 if s == seat else 0.0
                                                                           for s in (1, 2, 3)]
    assert np.array_equal(after.hands, state.hands) and not np.asarray(after.legal_action_mask).any()


def _public(enc: object, deal: object) -> object:
    from conquian.envs.encoding import Public

    public = Public()
    enc.fold(public, deal)  # type: ignore[attr-defined]
    return public


@pytest.mark.parametrize("players", [2, 3])
def test_mexicano_autoreset_under_vmap_and_jit(players: int) -> None:
    """R8.7: a deal that ends pays the winner one counter from every other player (a draw
    nothing) and starts again in the same step; something is always legal."""
    from conquian.envs.jax.mexicano import MexicanoJax

    env = MexicanoJax(players=players)
    b = 16
    state = jax.jit(env.batch_init)(jax.random.split(jax.random.PRNGKey(2), b))
    step = jax.jit(env.batch_step_autoreset)
    rng = np.random.default_rng(1)
    wins = draws = 0
    for t in range(160):
        mask = np.asarray(state.legal_action_mask)
        assert mask.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        state, final = step(state, actions, jax.random.split(jax.random.PRNGKey(200 + t), b))
        term = np.asarray(state.terminated)
        rewards = np.asarray(state.rewards)
        assert (rewards[~term] == 0).all() and (rewards.sum(axis=1) == 0).all()
        for r in rewards[term]:
            if r.any():
                wins += 1
                assert sorted(r.tolist()) == [-1.0] * (players - 1) + [players - 1.0]
            else:
                draws += 1
        # the finished deal's last observation: the "over" stage set
        c = env.T.n_cards
        over = c * (1 + players * env.slots + 4 + 3 * players) + 4
        assert (np.asarray(final)[term, over] == 1.0).all()
    assert wins >= (8 if players == 2 else 4) and wins + draws >= b // 2


def test_the_cover_of_one_or_two_cards_in_closed_form() -> None:
    """R3.4 step 3: the cover of the cards a borrowing leaves (``MeldTable.cover``), in closed
    form for one or two cards, equal to the search's and the engine's over thousands of random
    positions (found or not, the combinations in the engine's order)."""
    import jax.numpy as jnp

    from conquian import get_rules
    from conquian.engine.conquian.melds import meld_table
    from conquian.envs.jax.search import cover_small, first_leaf
    from conquian.envs.jax.tables import tables, words

    T = tables("conquian")
    tbl = meld_table(get_rules("conquian"))
    melds = T.enc.melds
    rng = np.random.default_rng(7)
    lefts, opts = [], []
    for _ in range(3000):
        a, b = rng.choice(T.n_melds, 2)
        near = sorted(set(T.enc.dense[c] for m in (melds[a], melds[b]) for c in range(64) if m >> c & 1))
        left = set(rng.choice(near, int(rng.integers(1, 3)), replace=False).tolist())
        opt = {c for c in near if c not in left and rng.random() < 0.7}
        opt |= set(rng.choice(T.n_cards, 4).tolist()) - left
        lefts.append(words(sorted(left)))
        opts.append(words(sorted(opt)))
    left_w = jnp.asarray(np.array(lefts, dtype=np.uint32))
    opt_w = jnp.asarray(np.array(opts, dtype=np.uint32))
    got = jax.jit(lambda lf, op: cover_small(T, lf, op))(left_w, opt_w)
    old = jax.jit(jax.vmap(lambda lf, op: first_leaf(T, lf, op, cover=True, active=jnp.bool_(True))))(left_w, opt_w)
    assert np.array_equal(np.asarray(got.stopped), np.asarray(old.stopped))
    assert np.array_equal(np.asarray(got.path), np.asarray(old.path))
    stopped, path = np.asarray(got.stopped), np.asarray(got.path)
    def engine(w: tuple[int, int]) -> int:
        return sum(1 << int(T.cards[j]) for j in range(T.n_cards) if (w[j >> 5] >> (j & 31)) & 1)

    given_up = 0
    for i, (lw, ow) in enumerate(zip(lefts, opts, strict=True)):
        req, opt = engine(lw), engine(ow)
        want = tbl.cover(req, opt)
        assert (want is not None) == bool(stopped[i])
        if want is not None:
            assert list(want) == [melds[m] for m in path[i] if m < T.n_melds]
            low = (req & -req).bit_length() - 1
            given_up += next(m for m in tbl.by_card[low] if m & (req | opt) == m) != want[0]
    # every case was met: none, one combination, two, and a first choice given up for a later one
    two = (path[:, 1] < T.n_melds) & stopped
    assert (~stopped).sum() > 100 and (stopped & ~two).sum() > 100 and two.sum() > 100 and given_up > 10


def test_the_partition_of_five_cards_or_fewer_in_closed_form() -> None:
    """R3.4 step 3: the partition of the cards a borrowing leaves (``MeldTable.partition``), in
    closed form for three to five cards, equal to the search's and the engine's over random
    sets (combinations themselves, some of their cards, and other cards)."""
    import jax.numpy as jnp

    from conquian import get_rules
    from conquian.engine.conquian.melds import meld_table
    from conquian.envs.jax.search import first_leaf, partition_small
    from conquian.envs.jax.tables import tables, words

    T = tables("conquian")
    tbl = meld_table(get_rules("conquian"))
    melds = T.enc.melds
    rng = np.random.default_rng(11)
    sets = []
    for _ in range(2000):
        a, b = rng.choice(T.n_melds, 2)
        near = sorted(set(T.enc.dense[c] for m in (melds[a], melds[b]) for c in range(64) if m >> c & 1))
        size = int(rng.integers(3, 6))
        if rng.random() < 0.4 and 3 <= melds[a].bit_count() <= 5:
            chosen = [T.enc.dense[c] for c in range(64) if melds[a] >> c & 1]  # a combination whole
        elif len(near) >= size:
            chosen = rng.choice(near, size, replace=False).tolist()
        else:
            chosen = rng.choice(T.n_cards, size, replace=False).tolist()
        sets.append(words(sorted(chosen)))
    left = jnp.asarray(np.array(sets, dtype=np.uint32))
    got = jax.jit(lambda lf: partition_small(T, lf))(left)
    zero = jnp.zeros_like(left)
    old = jax.jit(jax.vmap(lambda lf, z: first_leaf(T, lf, z, cover=False, active=jnp.bool_(True))))(left, zero)
    assert np.array_equal(np.asarray(got.stopped), np.asarray(old.stopped))
    assert np.array_equal(np.asarray(got.path), np.asarray(old.path))
    stopped, path = np.asarray(got.stopped), np.asarray(got.path)
    for i, w in enumerate(sets):
        mask = sum(1 << int(T.cards[j]) for j in range(T.n_cards) if (w[j >> 5] >> (j & 31)) & 1)
        want = tbl.partition(mask)
        assert (want is not None) == bool(stopped[i])
        if want is not None:
            assert list(want) == [melds[m] for m in path[i] if m < T.n_melds]
    assert stopped.sum() > 300 and (~stopped).sum() > 300
