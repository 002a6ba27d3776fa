"""How long a quick match's pairing takes: ``python -m benchmarks.quick_pairing``.

    python -m benchmarks.quick_pairing            # 100 to 10,000 waiting players, 2 and 4 a table
    python -m benchmarks.quick_pairing --quick

The players of one game and size wait with ratings drawn around 1000 (standard deviation 300)
and waits of 0 to 30 seconds; a figure is the median of 5 runs of
:func:`conquian.web.platform.quickmatch.service.groups` (one pairing round's choice, without the database), in
milliseconds.  Each server process runs a round a second over the whole queue.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from conquian.web.platform.quickmatch.service import Waiting, groups


def run(sizes: tuple[int, ...], counts: tuple[int, ...], rounds: int = 5) -> None:
    print(f"{'waiting':>8} {'a table':>8} {'groups':>7} {'ms':>9}")
    for size in sizes:
        for n in counts:
            rng = random.Random(n * 10 + size)
            queue = [Waiting(f"a{i}", int(rng.gauss(1000, 300)), rng.uniform(0, 30)) for i in range(n)]
            times, made = [], 0
            for _ in range(rounds):
                began = time.perf_counter()
                made = len(groups(queue, size, 30.0))
                times.append((time.perf_counter() - began) * 1000)
            print(f"{n:>8} {size:>8} {made:>7} {statistics.median(times):>9.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run")
    args = parser.parse_args()
    run((2, 4), (100, 1000) if args.quick else (100, 1000, 10_000), 1 if args.quick else 5)


if __name__ == "__main__":
    main()
