"""``conquian speedups``: the hot path compiled with mypyc, or removed.
"""

from __future__ import annotations

import argparse
import sys

from conquian.cli.options import Subparsers, say
from conquian.i18n import _, ngettext


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    sp = sub.add_parser("speedups", help=_("compile the hot path with mypyc (about 3 times as fast), or remove it"),
                        description=_("Compile the legal listing, the meld tables and the foster policies with mypyc "
                                      "into extension modules beside their sources (needs the 'speed' extra and a C "
                                      "compiler); 'remove' returns to pure Python; 'status' says which is in use."))
    sp.add_argument("action", choices=("build", "remove", "status"))


def speedups_command(args: argparse.Namespace) -> int:
    """Run ``conquian speedups``."""
    from conquian import speedups

    if args.action == "status":
        st = speedups.status()
        for name, compiled in st.items():
            print(f"{name:32} " + (_("compiled") if compiled else _("pure Python")))
        return 0
    if args.action == "remove":
        gone = speedups.remove()
        print(ngettext("removed {n} compiled file: pure Python from now on",
                       "removed {n} compiled files: pure Python from now on", len(gone)).format(n=len(gone)))
        return 0
    try:
        written = speedups.build()
    except speedups.SpeedupsError as e:
        print(f"conquian speedups: {say(e)}", file=sys.stderr)
        return 1
    except OSError as e:
        print("conquian speedups: " + _("cannot write into the package: {reason}").format(reason=e.strerror or e),
              file=sys.stderr)
        return 1
    print(_("compiled {n} modules into {folder} ('conquian speedups remove' returns to pure Python)").format(
        n=len(written) - 1, folder=speedups.package_dir()))
    return 0


