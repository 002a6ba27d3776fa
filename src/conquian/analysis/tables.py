"""Build the package's ``fill_tables.json`` from ``stats.json`` files (``conquian stats`` under
``foster`` play, default options): ``python -m conquian.analysis.tables OUT STATS.json...``.

Each entry keeps what :func:`conquian.bots.fill.chance` needs: the histogram of durations in rounds
and the mean number of unseen cards at the start of each round.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def entry(stats: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The table entry of one ``stats.json``: its key and content."""
    counts = stats["counts"]
    unseen = {r: round(s / counts["unseen_n"][r], 3) for r, s in counts["unseen_sum"].items()
              if counts["unseen_n"].get(r)}
    return f"{stats['variant']}/{stats['players']}", {
        "deals": counts["deals"], "bots": stats["bots"], "rounds": counts["rounds"], "unseen": unseen}


def main(argv: list[str]) -> int:
    """Write the table file from the stats files given."""
    if len(argv) < 2:
        print("usage: python -m conquian.analysis.tables OUT STATS.json...", file=sys.stderr)
        return 2
    table: dict[str, Any] = {}
    for name in argv[1:]:
        data = json.loads(Path(name).read_text())
        if data.get("options") and set(data["options"]) - {"players"}:
            print(f"{name}: skipped (options other than the players)", file=sys.stderr)
            continue
        key, value = entry(data)
        table[key] = value
    Path(argv[0]).write_text(json.dumps(table, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
