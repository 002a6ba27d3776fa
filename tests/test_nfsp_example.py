"""The NFSP example's pieces run (a handful of steps; the curves: examples/train_nfsp.py), where
PyTorch and OpenSpiel are installed; and a policy read from the observation tensor is measured
exactly on a part of conquian-tiny's tree."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
torch = pytest.importorskip("torch")
pytest.importorskip("open_spiel.python.pytorch.nfsp")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_nfsp.py"


@pytest.fixture(scope="module", autouse=True)
def one_thread() -> Any:
    """PyTorch on one thread, as the example runs it: on a busy machine its default threads spin."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_nfsp", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _subgame() -> tuple[Any, Any]:
    """The part of conquian-tiny's tree below p2's first hand (p1 dealing), walked with its observations."""
    import conquian.envs.openspiel  # noqa: F401  (registers the games)
    from conquian.envs.exact import walk

    game = pyspiel.load_game("python_conquian_tiny", {"dealer": 1})
    state = game.new_initial_state()
    state.apply_action(0)
    return game, walk(game, state, observations=True)


def test_batch_policy_of_a_constant_network_is_the_uniform_policy() -> None:
    from conquian.envs.exact import batch_policy, efg_infosets, tabular, uniform

    game, tree = _subgame()
    for sets in tree.infosets:
        for s in sets.values():  # the kept tensor is the player's observation, of the game's size
            assert s.observation.shape == (game.observation_tensor_size(),)
        # here the observation tells every information set apart (docs/research.md: the whole tree too)
        assert len({s.observation.tobytes() for s in sets.values()}) == len(sets) > 100
    flat = batch_policy(tree, lambda player, obs, masks: masks * 3.0)  # any weight, renormalised
    efg = tree.efg()
    sets = efg_infosets(efg)
    assert pyspiel.exploitability(efg, tabular(efg, sets, flat)) == pytest.approx(
        pyspiel.exploitability(efg, tabular(efg, sets, uniform(tree))))


def test_batch_policy_refuses_weight_off_the_legal_actions() -> None:
    from conquian.envs.exact import batch_policy

    _, tree = _subgame()
    with pytest.raises(ValueError, match="off the legal actions"):
        batch_policy(tree, lambda player, obs, masks: np.full(masks.shape, 0.5))
    with pytest.raises(ValueError, match="shape"):
        batch_policy(tree, lambda player, obs, masks: np.ones((1, 1)))


def test_nfsp_steps_and_exact_exploitability_on_tiny(example: ModuleType) -> None:
    from open_spiel.python import rl_environment

    from conquian.envs.exact import batch_policy, efg_infosets, tabular

    args = example.parser().parse_args(["tiny", "--min-buffer", "16", "--reservoir", "500", "--replay", "500",
                                      "--anticipatory", "0.5"])
    game, tree = _subgame()
    env = rl_environment.Environment(game, seed=3)
    agents = example.make_agents(env, [16], 3, args)
    for agent in agents:  # learn every few steps, from the first small batch
        agent._learn_every = agent._rl_agent._learn_every = 8
        agent._batch_size = agent._rl_agent._batch_size = 8
        agent._min_buffer_size_to_learn = agent._rl_agent._min_buffer_size_to_learn = 8
    before = [p.detach().clone() for p in agents[0]._avg_network.parameters()]
    steps = 0
    for _ in range(40):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([agents[player].step(time_step).action])
            steps += 1
        for agent in agents:
            agent.step(time_step)
    assert steps > 80
    after = list(agents[0]._avg_network.parameters())
    assert any(not torch.equal(a, b) for a, b in zip(before, after, strict=True)), "the average network learned"

    # the average policy asked at every information set of the part, and measured exactly
    efg = tree.efg()
    sets = efg_infosets(efg)
    policy = batch_policy(tree, lambda p, obs, masks: example.average_probabilities(agents[p], obs, masks))
    value = pyspiel.exploitability(efg, tabular(efg, sets, policy))
    assert 0 < value <= 1
    # the batch gives what NFSP's own act gives at a state
    name, infoset = next(iter(tree.infosets[0].items()))
    mask = np.zeros(game.num_distinct_actions(), dtype=bool)
    mask[infoset.actions] = True
    _, _, probs = agents[0]._act(infoset.observation, mask)
    assert [p for _, p in policy[name]] == pytest.approx(list(probs[infoset.actions]), abs=1e-6)


def test_versus_bots_and_the_written_curve(example: ModuleType, tmp_path: Path) -> None:
    from open_spiel.python import rl_environment

    args = example.parser().parse_args(["conquian"])
    game = pyspiel.load_game("python_conquian")
    agents = example.make_agents(rl_environment.Environment(game, seed=0), [8], 0, args)
    versus = example.Versus(game, 2, ["random", "foster"], 0)
    figures = versus(agents)
    assert figures == versus(agents)  # the same deals and draws at every checkpoint
    for bot in ("random", "foster"):
        assert -1 <= figures[f"vs_{bot}"] <= 1
        assert figures[f"won_vs_{bot}"] + figures[f"lost_vs_{bot}"] <= 1
    record = {"target": "conquian", "seed": 0, "eval_deals": 2,
              "curve": [{"deals": 0, "steps": 0, "train_seconds": 0.0, **figures}]}
    example.write(tmp_path, "nfsp-conquian-seed0", record)
    assert json.loads((tmp_path / "nfsp-conquian-seed0.json").read_text()) == record
    assert (tmp_path / "nfsp-conquian-seed0.csv").read_text().startswith("deals,steps,train_seconds,vs_random")


def test_main_refuses_bad_arguments(example: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert example.main(["tiny", "--deals", "-1"]) == 2
    assert "must not be negative" in capsys.readouterr().err
