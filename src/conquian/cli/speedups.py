"""``conquian speedups``: the hot path compiled with mypyc, or removed.
"""

from __future__ import annotations

import argparse
import sys

from conquian.cli.options import (
    Subparsers,
)


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    sp = sub.add_parser("speedups", help="compile the hot path with mypyc (about 3 times as fast), or remove it",
                        description="Compile the legal listing, the meld tables and the foster policies with mypyc "
                                    "into extension modules beside their sources (needs the 'speed' extra and a C "
                                    "compiler); 'remove' returns to pure Python; 'status' says which is in use.")
    sp.add_argument("action", choices=("build", "remove", "status"))


def speedups_command(args: argparse.Namespace) -> int:
    from conquian import speedups

    if args.action == "status":
        st = speedups.status()
        for name, compiled in st.items():
            print(f"{name:32} {'compiled' if compiled else 'pure Python'}")
        return 0
    if args.action == "remove":
        gone = speedups.remove()
        print(f"removed {len(gone)} compiled file{'s' if len(gone) != 1 else ''}: pure Python from now on")
        return 0
    try:
        written = speedups.build()
    except speedups.SpeedupsError as e:
        print(f"conquian speedups: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"conquian speedups: cannot write into the package: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"compiled {len(written) - 1} modules into {speedups.package_dir()} "
          "('conquian speedups remove' returns to pure Python)")
    return 0


