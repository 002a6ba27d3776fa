"""Foster's decisions, pinned: every decision of seeded deals played by ``foster`` in every seat,
for every form of the game, hashed into one digest per preset.  Any change of a single decision
changes a digest, so a change meant only to make the policies faster must leave these as they
are (a change of play updates them on purpose, saying why)."""

from __future__ import annotations

import hashlib
import random

import pytest

from conquian import get_rules
from conquian.bots import make_bot
from conquian.bots.foster import state_policy
from conquian.engine.match import new_deal

DEALS = 60

#: (preset, players): digest of every decision of ``DEALS`` deals, through the views (what a
#: player gets) and through the states (what the search's playouts use).  The conquian family's
#: changed when the listing came to offer every set of hand cards a use can lay (going out
#: among them) and foster's rule 3 came to count a hand card laid beyond the three necessary
#: against a use.
PINNED: dict[tuple[str, int], str] = {
    ("conquian", 2):
        "a675d9aa841540d0ca51d57395c0b0599e31a220741352a41566e016af215be5",
    ("conquian-spanish", 2):
        "2b5db7dec243edc6601b81ef4b6ad3c08a90dc2c2204d36d2b18f55574d3ad31",
    ("cooncan", 3):
        "229c718d11601ce8ff403b70842e35f79fa6ceef069ce29c7dd869fe1859853c",
    ("cooncan-double", 5):
        "5ca5dd9c90dbbab8bd06972904d782bf6ca616de98d40338c4e71bbfa341409d",
    ("conquian-mexicano", 2):
        "1da34334f674bb3a4dbb11b4b132e638c50d98081357e9d1b2bc3f492dc686c9",
    ("conquian-mexicano", 3):
        "06db4effe28c75654fe5a47c7103026b7d6616e193e68e39199511229ce5f352",
}


def decisions_digest(variant: str, n: int, deals: int = DEALS) -> tuple[str, int]:
    """The digest of every decision of ``deals`` seeded deals with ``foster`` in every seat, and
    how many decisions there were."""
    rules = get_rules(variant, players=n)
    h = hashlib.sha256()
    count = 0
    for i in range(deals):
        deal = new_deal(rules, seed=1000 + i, dealer=1 + i % n)
        bots = [make_bot("foster", seed=i * 8 + k) for k in range(n)]
        steps = 0
        while not deal.over and steps < 5000:
            seat = deal.to_act
            assert seat is not None
            action = bots[seat - 1].choose(deal.view(seat))
            raw = state_policy(deal, random.Random(0))
            h.update(f"{i}|{seat}|{action}|{raw!r}\n".encode())
            deal.play(action)
            steps += 1
            count += 1
        h.update(f"end {i} {steps}\n".encode())
    return h.hexdigest(), count


@pytest.mark.parametrize(("variant", "n"), list(PINNED))
def test_foster_decides_as_pinned(variant: str, n: int) -> None:
    digest, count = decisions_digest(variant, n)
    assert count > 100 * DEALS // 10
    assert digest == PINNED[(variant, n)], f"{variant} ({n}): foster's decisions changed: {digest}"
