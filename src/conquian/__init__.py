"""conquian: the original Rummy, exactly.

An engine for Conquian (two hands, forty cards, "eleven down") built on int
bitmasks, with records, replay and simulation.  See ``README.md`` and the rule
book (``conquian rules``; its R-numbers are named in every refusal).

```pycon
>>> from conquian import ConquianDeal, get_rules
>>> deal = ConquianDeal(get_rules("conquian"), seed=42, dealer=2)
>>> deal.to_act
1

```
"""

from conquian import _aliases
from conquian.engine.actions import Action, Discard, Force, Pass, Use, parse_action
from conquian.engine.cards import JOKER, CardSet, card_str, parse_card, parse_cards
from conquian.engine.conquian.deal import ConquianDeal, Event
from conquian.engine.conquian.melds import MeldTable, meld_table
from conquian.engine.conquian.view import ConquianView
from conquian.engine.deck import seeded_deck
from conquian.engine.errors import ConquianError, IllegalActionError, NotationError, RecordError
from conquian.engine.match import Match
from conquian.engine.rules import PRESETS, Rules, get_rules

_aliases.install()

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "PRESETS",
    "Action",
    "CardSet",
    "ConquianDeal",
    "ConquianError",
    "ConquianView",
    "Discard",
    "Event",
    "Force",
    "IllegalActionError",
    "Match",
    "MeldTable",
    "NotationError",
    "Pass",
    "RecordError",
    "Rules",
    "Use",
    "__version__",
    "card_str",
    "get_rules",
    "meld_table",
    "parse_action",
    "parse_card",
    "parse_cards",
    "seeded_deck",
]
