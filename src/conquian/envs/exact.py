"""Exact solving of a research preset with OpenSpiel's tools (optional: ``pip install 'conquian[rl]'``).

A research preset (:data:`conquian.engine.rules.RESEARCH_PRESETS`) has a game tree small enough
to walk whole.  :func:`walk` walks it once through the OpenSpiel game of
:mod:`conquian.envs.openspiel` (every chance outcome, every legal action) and keeps it as an
extensive-form game in Gambit's text format, each information set named by the game's
information-state string and each action by its index in the game, so that
``pyspiel.load_efg_game`` gives OpenSpiel's C++ solvers (``CFRSolver``, ``CFRPlusSolver``,
``exploitability``) the same tree at C++ speed.  :func:`tabular` turns a policy given per
information-state string of the Python game (the uniform one, a bot's choices, a solver's
average) into a policy of that tree.  ``docs/research.md`` gives the figures and
``benchmarks/tiny_exploitability.py`` reproduces them.

A walk takes about a minute (``tests/test_tiny.py`` checks a part of it; the whole in the benchmark):

    import pyspiel
    tree = walk(pyspiel.load_game("python_conquian_tiny", {"dealer": 1}))
    tree.histories, tree.terminals                 # 41,833 and 15,456
    game = tree.efg()
    sets = efg_infosets(game)
    pyspiel.exploitability(game, tabular(game, sets, uniform(tree)))          # 0.4186
    pyspiel.exploitability(game, tabular(game, sets, bot_policy(tree, "foster")))

A learned policy that reads the observation tensor (a network: ``examples/train_nfsp.py``) is
asked once for every information set, in one batch a player, after a walk that keeps each set's
observation (``walk(game, observations=True)``, then :func:`batch_policy`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from conquian.bots import make_bot
from conquian.engine.conquian.mexicano_view import MexicanoView

#: A policy per information-state string of the Python game: (action, probability) pairs.
Policy = dict[str, list[tuple[int, float]]]


@dataclass
class Infoset:
    """One information set of the walked tree: its player, legal actions and the seat's view
    (the same at every state of the set: it is all a bot is given)."""

    player: int
    actions: list[int]
    view: Any
    observation: Any = None
    """The player's observation tensor at the set (a float32 array), where the walk kept it:
    the same at every state of the set, the information-state string being perfect recall."""


@dataclass
class Tree:
    """The whole game tree of a game, walked once (:func:`walk`)."""

    game: Any
    histories: int = 0
    """Every state: chance, decision and terminal."""
    chance: int = 0
    decisions: int = 0
    terminals: int = 0
    infosets: list[dict[str, Infoset]] = field(default_factory=list)
    """Each player's information sets, by information-state string."""
    lines: list[str] = field(default_factory=list)
    """The tree in Gambit's extensive-form text, one node a line, depth first."""

    def efg(self) -> Any:
        """The tree as an OpenSpiel game (``pyspiel.load_efg_game``): its information-state
        strings are ``"p-p-k-name"``, ``name`` the Python game's string (:func:`python_name`)."""
        players = " ".join(f'"p{i + 1}"' for i in range(self.game.num_players()))
        head = f'EFG 2 R "{self.game.get_type().short_name}" {{ {players} }}\n'
        return pyspiel.load_efg_game(head + "\n".join(self.lines) + "\n")


def _quoted(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def python_name(efg_infostate: str) -> str:
    """The Python game's information-state string of one of the tree's (``"p-p-k-name"``)."""
    return efg_infostate.split("-", 3)[3]


def walk(game: Any, root: Any = None, observations: bool = False) -> Tree:
    """Walk the whole tree of ``game`` (an OpenSpiel game with perfect-recall information-state
    strings), counting its states and keeping it for :meth:`Tree.efg`; or only the subtree
    below the state ``root`` (a game of its own, whose chance has already drawn what led
    there).  With ``observations`` each information set keeps the player's observation tensor
    (:attr:`Infoset.observation`, for :func:`batch_policy`).  Meant for research presets: the
    tree of a game preset is astronomically large."""
    n = game.num_players()
    tree = Tree(game=game, infosets=[{} for _ in range(n)])
    numbers: list[dict[str, int]] = [{} for _ in range(n)]
    lines = tree.lines
    count = [0, 0]  # chance nodes and terminals, numbered from 1 as Gambit wants

    def visit(state: Any) -> None:
        tree.histories += 1
        if state.is_terminal():
            tree.terminals += 1
            count[1] += 1
            lines.append(f't "" {count[1]} "" {{ {" ".join(repr(float(x)) for x in state.returns())} }}')
            return
        if state.is_chance_node():
            tree.chance += 1
            count[0] += 1
            outcomes = state.chance_outcomes()
            probs = " ".join(f'"{a}" {p!r}' for a, p in outcomes)
            lines.append(f'c "" {count[0]} "" {{ {probs} }} 0')
            actions = [a for a, _ in outcomes]
        else:
            tree.decisions += 1
            player = state.current_player()
            name = state.information_state_string(player)
            actions = state.legal_actions()
            known = tree.infosets[player].get(name)
            if known is None:
                seat = player + 1
                seen = np.asarray(state.observation_tensor(player), dtype=np.float32) if observations else None
                tree.infosets[player][name] = Infoset(player, actions, state.deal.view(seat), seen)
                numbers[player][name] = len(numbers[player]) + 1
            labels = " ".join(f'"{a}"' for a in actions)
            lines.append(f'p "" {player + 1} {numbers[player][name]} {_quoted(name)} {{ {labels} }} 0')
        for a in actions:
            visit(state.child(a))

    visit(game.new_initial_state() if root is None else root.clone())
    return tree


def uniform(tree: Tree) -> Policy:
    """The uniform random policy: every legal action alike."""
    return {name: [(a, 1.0 / len(s.actions)) for a in s.actions]
            for sets in tree.infosets for name, s in sets.items()}


def bot_policy(tree: Tree, bot: str, seed: int = 0) -> Policy:
    """A project bot as a deterministic policy: at every information set, the action a new bot
    ``bot`` made with ``seed`` chooses from the seat's view (so the choice is a function of the
    information set alone), with probability one (where one action is legal it is not asked)."""
    enc = tree.game.data.enc
    out: Policy = {}
    for sets in tree.infosets:
        for name, s in sets.items():
            if len(s.actions) == 1:  # nothing to choose: the bot would play it too
                out[name] = [(s.actions[0], 1.0)]
                continue
            view = s.view
            assert isinstance(view, MexicanoView)
            action = make_bot(bot, seed=seed).choose(view)
            index = enc.index_of(action, view)
            if index is None or index not in s.actions:
                raise ValueError(f"{bot} chose {action}, which is not listed at {name!r}")
            out[name] = [(a, 1.0 if a == index else 0.0) for a in s.actions]
    return out


def batch_policy(tree: Tree, probabilities: Callable[[int, Any, Any], Any]) -> Policy:
    """A policy that reads the observation tensor (a network's, say) at every information set of
    ``tree``, walked with ``observations=True``: ``probabilities(player, observations, masks)``
    is called once a player with the stacked observation tensors of the player's information
    sets (float32, one row a set) and their legal-action masks (bool, one column an action of
    the game) and returns one row of action probabilities a set.  Each set's probabilities are
    those of its legal actions, renormalised (a policy that puts weight outside them is refused)."""
    out: Policy = {}
    size = tree.game.num_distinct_actions()
    for player, sets in enumerate(tree.infosets):
        if not sets:
            continue
        names = list(sets)
        if any(sets[name].observation is None for name in names):
            raise ValueError("the tree was walked without its observations: walk(game, observations=True)")
        obs = np.stack([sets[name].observation for name in names])
        masks = np.zeros((len(names), size), dtype=bool)
        for row, name in enumerate(names):
            masks[row, sets[name].actions] = True
        probs = np.asarray(probabilities(player, obs, masks), dtype=np.float64)
        if probs.shape != masks.shape:
            raise ValueError(f"expected probabilities of shape {masks.shape}, got {probs.shape}")
        for row, name in enumerate(names):
            actions = sets[name].actions
            legal = probs[row, actions]
            total = float(legal.sum())
            if not np.isfinite(total) or total <= 0 or float(probs[row].sum()) - total > 1e-4:
                raise ValueError(f"the policy puts no weight, or weight off the legal actions, at {name!r}")
            out[name] = [(a, float(p) / total) for a, p in zip(actions, legal, strict=True)]
    return out


def efg_infosets(game: Any) -> dict[str, list[tuple[int, int]]]:
    """Every information set of the tree's extensive-form game (:meth:`Tree.efg`) with its legal
    actions, each as (its id in that game, its index in the Python game: the action's label)."""
    sets: dict[str, list[tuple[int, int]]] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        name = state.information_state_string()
        actions = state.legal_actions()
        if name not in sets:
            sets[name] = [(a, int(state.action_to_string(a))) for a in actions]
        stack.extend(state.child(a) for a in actions)
    return sets


def tabular(game: Any, sets: dict[str, list[tuple[int, int]]], policy: Policy) -> Any:
    """``policy`` (per information-state string of the Python game) as a ``pyspiel.TabularPolicy``
    of the tree's extensive-form game ``game`` whose information sets are ``sets``
    (:func:`efg_infosets`)."""
    table: dict[str, list[tuple[int, float]]] = {}
    for name, actions in sets.items():
        efg_id = {index: a for a, index in actions}
        table[name] = [(efg_id[a], p) for a, p in policy[python_name(name)]]
    return pyspiel.TabularPolicy(table)


def from_efg(sets: dict[str, list[tuple[int, int]]], efg_policy: Any) -> Policy:
    """A policy of the extensive-form game (a ``pyspiel.Policy``, e.g. a solver's average policy)
    per information-state string of the Python game."""
    out: Policy = {}
    for name, actions in sets.items():
        index = dict(actions)
        out[python_name(name)] = [(index[a], p) for a, p in efg_policy.get_state_policy(name)]
    return out
