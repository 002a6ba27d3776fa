"""Steps per second of the accelerated (JAX) environment at several batch sizes, beside the
numpy batched environment and RLCard's gin-rummy environment.

Random legal play in self-play, a step being one decision of one seat in one deal, as in
``benchmarks/bench_envs.py``: the JAX environment steps ``batch`` deals at once through
``jax.jit(env.batch_step_autoreset)`` (``jax.vmap`` of the one-deal step, with the listing's
searches run only on the deals that need one), a uniform legal action drawn on the device from the
masks (:func:`uniform_legal`), ``--scan`` steps compiled into one ``lax.scan`` call (the loop never leaves the device);
the numpy batched environment (``ConquianVectorEnv``, self-play, ``copy=False``) steps its
deals with numpy's uniform legal choice; RLCard's environment plays one game at a time.
Compilation is done before the clock starts and reported apart.

    python -m benchmarks.bench_jax_env [--batch 1 64 1024 4096] [--seconds 3] [--device cpu|gpu]
                                       [--variant conquian|conquian-spanish|conquian-mexicano] [--players 2|3]
                                       [--check DEALS] [--cpu] [--quick] [--no-rlcard] [--json]

``--cpu`` times every figure by the process's CPU time (JAX's every thread counted), so that on
a machine busy with other work the share of the cores each side gets weighs on neither.

``--device gpu`` runs the JAX environment on the first GPU (``pip install 'jax[cuda12]'``);
it fails plainly if JAX sees none.  ``--check DEALS`` first plays that many deals (about) in
lockstep with the engine's batched environment, every observation, mask and reward compared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

#: What times the figures: the wall clock, or with ``--cpu`` the process's CPU time (every core's).
_clock: Callable[[], float] = time.perf_counter


def make_env(variant: str, players: int = 2) -> Any:
    """The accelerated environment of a variant (the conquián mexicano for ``players``)."""
    if variant == "conquian-mexicano":
        from conquian.envs.jax.mexicano import MexicanoJax

        return MexicanoJax(players)
    from conquian.envs.jax import ConquianJax

    return ConquianJax(variant)


def uniform_legal(key: Any, mask: Any) -> Any:
    """A uniform legal action of each row of ``mask``: the ``j``-th legal index, ``j`` uniform
    below the row's count (one random number a row: drawing one per action of the space, and
    the highest, cost more than the environment's step at a large batch)."""
    import jax
    import jax.numpy as jnp

    legal = mask.astype(jnp.int32)
    count = legal.sum(axis=1)
    j = jnp.minimum((jax.random.uniform(key, count.shape) * count).astype(jnp.int32), count - 1)
    return jnp.argmax(jnp.cumsum(legal, axis=1) > j[:, None], axis=1)


def jax_steps(variant: str, batch: int, seconds: float, scan: int, device: Any, players: int = 2) -> dict[str, float]:
    """Steps per second of ``batch`` deals stepped at once (random legal actions drawn on the device)."""
    import jax

    env = make_env(variant, players)
    step = env.batch_step_autoreset

    def one(carry: Any, _: Any) -> tuple[Any, Any]:
        state, key = carry
        key, k_act, k_reset = jax.random.split(key, 3)
        actions = uniform_legal(k_act, state.legal_action_mask)
        state, _final = step(state, actions, jax.random.split(k_reset, batch))
        return (state, key), state.terminated.sum()

    @jax.jit
    def many(state: Any, key: Any) -> tuple[Any, Any, Any]:
        (state, key), ends = jax.lax.scan(one, (state, key), None, length=scan)
        return state, key, ends.sum()

    with jax.default_device(device):
        key = jax.random.PRNGKey(0)
        t0 = time.perf_counter()
        state = jax.jit(env.batch_init)(jax.random.split(key, batch))
        state, key, _ = many(state, key)
        jax.block_until_ready(state)
        compile_s = time.perf_counter() - t0
        steps = episodes = 0
        start = _clock()
        while _clock() - start < seconds:
            state, key, ends = many(state, key)
            episodes += int(ends)  # waits for the device
            steps += batch * scan
        el = _clock() - start
    return {"steps_per_second": steps / el, "episodes_per_second": episodes / el, "compile_seconds": compile_s}


def numpy_steps(variant: str, batch: int, seconds: float, players: int = 2) -> dict[str, float]:
    """The numpy batched environment in self-play (``benchmarks.bench_envs.vector_steps``)."""
    from benchmarks import bench_envs
    from benchmarks.bench_envs import vector_steps

    bench_envs._clock = _clock
    vector_steps(variant, players, min(0.2, seconds), batch)  # warm-up
    return vector_steps(variant, players, seconds, batch)


def rlcard_steps(seconds: float) -> dict[str, float] | None:
    """RLCard's gin-rummy environment, if installed (the ``bench`` extra)."""
    from benchmarks.peers import Missing, rlcard_env

    try:
        rlcard_env(min(0.2, seconds), _clock)
        return {"steps_per_second": rlcard_env(seconds, _clock)["decisions_per_second"]}
    except Missing:
        return None


def run(variant: str, batches: list[int], seconds: float, scan: int, device_name: str,
        numpy_max: int, check: int, players: int = 2, rlcard: bool = True) -> dict[str, Any]:
    """Every figure of the report (see the module's documentation)."""
    import jax

    if device_name == "gpu":
        try:
            device = jax.devices("gpu")[0]
        except RuntimeError as e:
            raise SystemExit(f"no GPU for JAX here ({e}); install jax[cuda12] on a machine with one") from None
    else:
        device = jax.devices("cpu")[0]
    out: dict[str, Any] = {"variant": variant, "players": players, "device": str(device), "jax": jax.__version__,
                           "scan": scan, "jax_env": {}, "numpy_env": {}}
    if check:
        from conquian.envs.jax.check import lockstep

        envs = min(512, check)
        per = 60 if variant != "conquian-mexicano" else 40 * players  # steps a deal, about
        res = lockstep(variant, num_envs=envs, steps=max(per, check * per // envs), seed=1, players=players)
        out["lockstep"] = {"steps": res.steps, "deals": res.deals, "uses": res.uses, "further_uses": res.further,
                           "gives": res.gives, "forces": res.forces}
    for b in batches:
        out["jax_env"][b] = jax_steps(variant, b, seconds, scan, device, players)
        if b <= numpy_max:
            out["numpy_env"][b] = numpy_steps(variant, b, seconds, players)
    rl = rlcard_steps(seconds) if rlcard else None
    if rl is not None:
        out["rlcard"] = rl
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_jax_env", description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="conquian", choices=["conquian", "conquian-spanish", "conquian-mexicano"])
    ap.add_argument("--players", type=int, default=2, choices=[2, 3], help="the conquián mexicano's players")
    ap.add_argument("--no-rlcard", action="store_true", help="leave RLCard's figure out")
    ap.add_argument("--batch", type=int, nargs="+", default=[1, 64, 1024, 4096])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--scan", type=int, default=16, help="steps compiled into one call")
    ap.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    ap.add_argument("--numpy-max", type=int, default=4096, help="the largest batch the numpy env is timed at")
    ap.add_argument("--check", type=int, default=0, metavar="DEALS", help="a lockstep check first")
    ap.add_argument("--quick", action="store_true", help="a smoke run: one small batch, 0.2 s")
    ap.add_argument("--cpu", action="store_true",
                    help="time by the process's CPU time (all its threads'), not the wall clock (a busy machine)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    global _clock
    _clock = time.process_time if args.cpu else time.perf_counter
    if args.quick:
        args.batch, args.seconds, args.scan = [8], 0.2, 2
    report = run(args.variant, args.batch, args.seconds, args.scan, args.device, args.numpy_max, args.check,
                 args.players, not args.no_rlcard)
    if args.json:
        print(json.dumps(report))
        return 0
    who = f" ({args.players} players)" if args.variant == "conquian-mexicano" else ""
    print(f"  {report['variant']}{who}, JAX {report['jax']} on {report['device']}, {args.scan} steps a call,",
          "timed by CPU time" if args.cpu else "timed by the wall clock")
    if "lockstep" in report:
        ls = report["lockstep"]
        print(f"  lockstep with the engine: {ls['steps']:,} steps, {ls['deals']:,} deals, {ls['uses']:,} uses "
              f"({ls['further_uses']:,} further ones), {ls['forces']:,} forces, {ls['gives']:,} gives: "
              "every observation, mask and reward equal")
    rl = report.get("rlcard", {}).get("steps_per_second")
    for b, fig in report["jax_env"].items():
        line = f"  batch {b:>6}: JAX {fig['steps_per_second']:>12,.0f} steps/s"
        line += f" (compiled in {fig['compile_seconds']:.0f} s)"
        if b in report["numpy_env"]:
            np_fig = report["numpy_env"][b]["steps_per_second"]
            line += f"; numpy {np_fig:>10,.0f} steps/s ({fig['steps_per_second'] / np_fig:.1f} x)"
        if rl:
            line += f"; {fig['steps_per_second'] / rl:.1f} x RLCard"
        print(line)
    if rl:
        print(f"  RLCard gin-rummy env: {rl:,.0f} steps/s")
    else:
        print("  RLCard not installed (the bench extra): no side-by-side ratio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
