"""``conquian site``: the offline app (the engine in the page) as static files, and its runtime.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conquian.cli.options import Subparsers, say
from conquian.i18n import _


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    s = sub.add_parser("site", help=_("the offline app: the engine plays in the page, with no server"),
                       description=_("'build DIR' writes the offline app (play against the bots in the browser, "
                                     "with no network) as static files any static host serves; 'fetch' fetches "
                                     "the Pyodide runtime it runs on once (with npm, at a pinned version) into "
                                     "the user's cache, where 'build' and 'conquian serve' find it."))
    s.add_argument("action", choices=("build", "fetch"))
    s.add_argument("dir", nargs="?", default=None, metavar="DIR", help=_("the folder to write the site into (build)"))


def site_command(args: argparse.Namespace) -> int:
    """Run ``conquian site``."""
    from conquian.web import site

    try:
        if args.action == "fetch":
            folder = site.fetch_runtime()
            print(_("the Pyodide runtime {version} is in {folder}").format(version=site.PYODIDE_VERSION, folder=folder))
            return 0
        if not args.dir:
            print("conquian site: " + _("build needs the folder to write into: conquian site build DIR"),
                  file=sys.stderr)
            return 2
        target = Path(args.dir)
        if target.exists() and not target.is_dir():
            print("conquian site: " + _("{path} is not a folder").format(path=target), file=sys.stderr)
            return 2
        written = site.build_site(target)
    except site.SiteError as e:
        print(f"conquian site: {say(e)}", file=sys.stderr)
        return 1
    except OSError as e:
        print("conquian site: " + _("cannot write the site: {reason}").format(reason=e.strerror or e), file=sys.stderr)
        return 1
    print(_("wrote {n} files into {folder}: serve the folder with any static web server and open "
            "offline/ (for example: python3 -m http.server -d {folder})").format(n=len(written), folder=target))
    return 0
