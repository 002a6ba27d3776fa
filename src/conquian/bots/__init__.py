"""Computer opponents.  A bot sees only a seat's view and returns a legal action.

Every bot implements :class:`Bot`: ``choose(view) -> Action``.  It is handed a
:class:`~conquian.engine.conquian.view.ConquianView`,
:class:`~conquian.engine.cooncan.view.CooncanView` or
:class:`~conquian.engine.conquian.mexicano_view.MexicanoView` and nothing else;
:func:`check_view` refuses anything that is not a view, so a bot cannot be given a deal
(and its hidden cards) by mistake.  Bots are made by
name from a registry:

```pycon
>>> from conquian import ConquianDeal, get_rules
>>> from conquian.bots import make_bot, bot_names
>>> bot_names()
['apprentice', 'beginner', 'casual', 'exit', 'expert', 'foster', 'master', 'random', 'skilled']
>>> deal = ConquianDeal(get_rules("conquian"), seed=1, dealer=2)
>>> bot = make_bot("foster", seed=1)
>>> deal.play(bot.choose(deal.view(deal.to_act)))
parse_action('p1 use 6c 6d 6s')
>>> bot.choose(deal)
Traceback (most recent call last):
...
TypeError: a bot is given a seat's view, never ConquianDeal: it would see hidden cards

```
"""

from __future__ import annotations

from typing import Any

# the built-in bots register themselves on import
from conquian.bots import apprentice, expert, foster, levels, random_bot  # noqa: F401
from conquian.bots.base import _REGISTRY, Bot, View, check_view, register


def make_bot(name: str, seed: int = 0, **params: Any) -> Bot:
    """A new bot by registered name; ``seed`` makes its choices reproducible."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (bots: {', '.join(bot_names())})") from None
    return factory(seed=seed, **params)


def bot_names() -> list[str]:
    """The registered bots' names."""
    return sorted(_REGISTRY)


__all__ = ["Bot", "View", "bot_names", "check_view", "make_bot", "register"]
