"""``conquian admin``: what the owner of a ``conquian serve`` reads and does outside the web
page: the reports of chat lines (``reports``) and closing one (``resolve ID``)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from conquian.cli.options import Subparsers, bounded
from conquian.engine.errors import quote
from conquian.i18n import _


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    a = sub.add_parser("admin", help=_("the web server's owner: read the reports of chat lines, and close them"),
                       description=_("'reports' lists the chat lines people reported at the tables of 'conquian "
                                     "serve' (the open ones; --all: the closed too); 'resolve ID' closes one.  "
                                     "--db is the server's database (default: the one 'conquian serve' uses)."))
    a.add_argument("action", choices=("reports", "resolve"))
    a.add_argument("id", nargs="?", type=bounded(1, 2**31 - 1), default=None, metavar="ID",
                   help=_("the report to close (resolve)"))
    a.add_argument("--db", metavar="URL", default=None,
                   help=_("database URL (SQLAlchemy), as given to 'conquian serve --db' (default: SQLite in the "
                          "user's data folder)"))
    a.add_argument("--json", action="store_true", help=_("print JSON (a list of reports) for programs"))
    a.add_argument("--all", action="store_true", help=_("list the closed reports too"))


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(seconds))


def _print(rows: list[dict[str, Any]]) -> None:
    if not rows:
        print(_("no open reports"))
        return
    for r in rows:
        who = r["seat_name"] + (f" ({_('account {name}').format(name=r['account'])})" if r["account"] else "")
        print(_("#{id} [{status}] table {table}, {when}: {who} said {text}").format(
            id=r["id"], status=_("open") if r["status"] == "open" else _("resolved"), table=r["table"],
            when=_when(r["said_at"]), who=who, text=json.dumps(r["text"], ensure_ascii=False)))
        print("    " + _("reported by {reporter} at {when}").format(
            reporter=r["reporter"] or _("a guest or a deleted account"), when=_when(r["created_at"])))


def admin_command(args: argparse.Namespace) -> int:
    """Run ``conquian admin``."""
    try:
        from conquian.web.platform.friends.storage import FriendStore
        from conquian.web.store import Store
    except ImportError:
        print("conquian admin: " + _("the web table needs its extra: pip install 'conquian[web]'"), file=sys.stderr)
        return 2
    if args.action == "resolve" and args.id is None:
        print("conquian admin: " + _("resolve needs the report's number: conquian admin resolve ID"), file=sys.stderr)
        return 2
    if args.action == "reports" and args.id is not None:
        print("conquian admin: " + _("reports takes no number (resolve ID closes one)"), file=sys.stderr)
        return 2
    try:
        store = Store(args.db)
        store.upgrade()
        friends = FriendStore(store.engine)
        if args.action == "resolve":
            found = friends.resolve(args.id)
            rows = []
        else:
            rows = friends.reports(every=args.all)
        store.dispose()
    except Exception as e:  # a bad URL, an unreachable server, a database that is not ours
        print("conquian admin: " + _("cannot use the database {url}: {reason}").format(
            url=quote(args.db, 80) if args.db else quote(_("in the data folder"), 80),
            reason=str(e).splitlines()[0][:200] if str(e) else type(e).__name__), file=sys.stderr)
        return 2
    if args.action == "resolve":
        if not found:
            print("conquian admin: " + _("there is no report {id}").format(id=args.id), file=sys.stderr)
            return 1
        print(json.dumps({"resolved": args.id}) if args.json else _("report {id} resolved").format(id=args.id))
        return 0
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    else:
        _print(rows)
    return 0
