"""``conquian serve``: the web table, its limits and its database, under uvicorn.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from conquian.cli.options import (
    Subparsers,
    bounded,
    delay,
    say,
)
from conquian.engine.errors import quote
from conquian.i18n import N_, _

#: The server's limits: option, least, most, default, and what it limits (the words ``--help`` shows).
_LIMITS: tuple[tuple[str, int, int, int | None, str], ...] = (
    ("--max-spectators", 0, 100_000, 50,
     N_("spectators a table takes in each server process (default 50)")),
    ("--connections-per-address", 1, 100_000, 20,
     N_("WebSockets one client address may hold open in each server process (default 20)")),
    ("--messages-per-address", 1, 100_000, 20,
     N_("messages a second one client address may send over all its connections (default 20)")),
    ("--tables-per-minute", 1, 100_000, 3,
     N_("new tables one client address may make a minute, in bursts of five (default 3)")),
    ("--accounts-per-hour", 1, 100_000, 10,
     N_("new player accounts one client address may make an hour (default 10)")),
    ("--account-requests-per-minute", 1, 100_000, 20,
     N_("account requests one client address may make a minute, half as many from one account (default 20)")),
    ("--replays-per-minute", 1, 100_000, 30,
     N_("replays, records and reviews one client address may have made a minute, in bursts of six (default "
         "30; what is made already is not counted)")),
    ("--learn-per-minute", 1, 100_000, 120,
     N_("Learn requests (lessons, puzzles) one client address may make a minute, in bursts of ten seconds' "
         "worth, at least twenty (default 120)")),
    ("--lobby-per-address", 1, 100_000, 5,
     N_("waiting tables the lobby lists from one client address (default 5; behind a proxy, see the "
         "deployment guide on client addresses)")),
    ("--unjoined-after", 1, 10**7, 600,
     N_("seconds after which the lobby stops listing a waiting table nobody has sat at (default 600)")),
    ("--chat-chars", 1, 1000, 200,
     N_("characters a line of chat at a table may hold (default 200)")),
    ("--chat-per-minute", 1, 6000, 60,
     N_("lines of chat and reactions each connection may send a minute on average (default 60)")),
    ("--chat-burst", 1, 100, 3,
     N_("lines of chat and reactions a connection may send at once before that rate holds (default 3)")),
    ("--request-timeout", 1, 3600, 10,
     N_("seconds a client has to send a whole HTTP request (default 10)")),
    ("--max-connections", 1, 10**6, 2000,
     N_("connections and requests each server process holds at once (at most its open-file limit, less 100); "
         "a tenth is kept for HTTP requests, and when the WebSockets fill the rest, a player's connection "
         "closes the longest idle spectator's and a new spectator is refused (default 2000)")),
)

#: The move clock and the quick match's waits: option, least, most, default, help.
_CLOCKS: tuple[tuple[str, int, int, int | None, str], ...] = (
    ("--rated-clock", 1, 3600, 60,
     N_("seconds a person has for each move at a rated or quick-match table before the expert moves for him "
         "(the move clock; default 60)")),
    ("--quick-bot-after", 1, 86400, 30,
     N_("seconds a player waits for a quick match before bots may fill the empty seats (default 30)")),
    ("--quick-gone-after", 5, 86400, 90,
     N_("seconds a player waiting for a quick match may go without his page asking how things stand before he "
         "is taken out of the queue (default 90)")),
    ("--quick-deals", 1, 50, None,
     N_("the deals of a quick match (default: the game's own)")),
)


def add_parsers(sub: Subparsers) -> None:
    """Add this module's commands to the ``conquian`` parser."""
    w = sub.add_parser("serve", help=_("the web table: play in a browser with friends and bots"),
                       description=_("Serve the web table: open the address it prints, create a table, share the "
                                     "invitation link.  Tables are kept in a database (by default SQLite in the "
                                     "user's data folder) and survive a restart."))
    w.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1: this machine only)"))
    w.add_argument("--lan", nargs="?", const="auto", default=None, metavar="ADDRESS",
                   help=_("play on the home network: listen on this computer's address there (found by itself, or "
                          "ADDRESS), answer to it, and print the lobby's address with a QR code for phones "
                          "(instead of --host)"))
    w.add_argument("--port", type=bounded(1, 65535), default=8000, help=_("port (default 8000)"))
    w.add_argument("--db", metavar="URL", default=None,
                   help=_("database URL (SQLAlchemy), e.g. postgresql+psycopg://user@host/db "
                          "(default: SQLite in the user's data folder)"))
    w.add_argument("--open", action="store_true", help=_("open the lobby in the browser"))
    w.add_argument("--bot-workers", type=bounded(0, 64), default=None,
                   help=_("processes that play the bots (default: the cores, at most 4; 0: in the server process)"))
    w.add_argument("--bot-delay", type=delay, default=0.9, help=_("seconds between the bots' moves (default 0.9)"))
    w.add_argument("--bot-answer-step", type=delay, default=0.25, metavar="SECONDS",
                   help=_("a bot's answer at a table with people comes at a multiple of this many seconds from its "
                          "turn, and never before its pace, so that how long it thought does not show (default "
                          "0.25; 0: at once)"))
    w.add_argument("--origin", action="append", default=[],
                   help=_("another origin a browser may connect from (behind a proxy), e.g. https://cards.example"))
    w.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                   help=_("a name the server answers to (the Host header; repeat for several; '*': any, "
                          "'*.example.org': its subdomains); always: the --host address, localhost, 127.0.0.1, "
                          "[::1].  Needed with --host 0.0.0.0 or ::, e.g. --allowed-host cards.example"))
    w.add_argument("--health-token", metavar="TOKEN", default=os.environ.get("CONQUIAN_HEALTH_TOKEN") or None,
                   help=_("/health answers only ok or not ok; a request with 'Authorization: Bearer TOKEN' gets "
                          "the detail (database, process, tables, connections) (default: the environment variable "
                          "CONQUIAN_HEALTH_TOKEN; none: no detail)"))
    w.add_argument("--workers", type=bounded(1, 64), default=1,
                   help=_("server processes sharing the port (default 1; more need a PostgreSQL --db: the processes "
                          "tell each other of every move through it)"))
    for flag, least, most, default, words in _LIMITS:
        w.add_argument(flag, type=bounded(least, most), default=default, help=_(words))
    w.add_argument("--turn-timers", type=seconds_list, default=None, metavar="SECONDS",
                   help=_("the turn timers a table may have, in seconds, separated by commas (default "
                          "30,60,120,300)"))
    for flag, least, most, default, words in _CLOCKS:
        w.add_argument(flag, type=bounded(least, most), default=default, help=_(words))
    w.add_argument("--log-level", choices=("critical", "error", "warning", "info", "debug"), default="info")
    w.add_argument("--log-format", choices=("text", "json"), default="text",
                   help=_("log lines as text or as JSON objects (a line per request and per move; never a seat token)"))



def _lan_address(text: str) -> str | None:
    """``--lan ADDRESS``: an IP address (IPv4 or IPv6, brackets allowed), or None."""
    import ipaddress

    try:
        return str(ipaddress.ip_address(text.strip().strip("[]")))
    except ValueError:
        return None


def seconds_list(text: str) -> tuple[int, ...]:
    """Whole numbers of seconds from 1 to 86,400 separated by commas, or an argparse error."""
    parse = bounded(1, 86400)
    return tuple(sorted({parse(part.strip()) for part in text.split(",") if part.strip()}))


def serve_command(args: argparse.Namespace) -> int:
    """Run ``conquian serve``.  The web table speaks each reader's language itself; these lines are
    the program's."""
    try:
        import uvicorn

        from conquian.web.app import SETTINGS_ENV, Settings, build_app
        from conquian.web.invite import lan_address, lan_url, terminal_qr
        from conquian.web.logs import configure
        from conquian.web.security import allowed_hosts, needs_names
        from conquian.web.store import Store
    except ImportError:
        print("conquian serve: " + _("the web table needs its extra: pip install 'conquian[web]'"), file=sys.stderr)
        return 2
    if args.lan is not None:
        address = lan_address() if args.lan == "auto" else _lan_address(args.lan)
        if address is None:
            print("conquian serve: " + (_("this computer has no address on a network: connect it to the home "
                                           "network (Wi-Fi or cable), or give its address: --lan 192.168.1.20")
                                         if args.lan == "auto" else
                                         _("--lan wants this computer's IP address on the home network, such as "
                                           "192.168.1.20, not {value}").format(value=quote(args.lan, 40))),
                  file=sys.stderr)
            return 2
        args.host = address
    if needs_names(args.host, args.allowed_host):
        print("conquian serve: " + _("listening on {host}, say the names people reach this server by: "
                                     "--allowed-host cards.example (repeat for several), or --allowed-host '*' for "
                                     "any name").format(host=args.host or _("every address")), file=sys.stderr)
        return 2

    from conquian.web.limits import DatabaseInUse, deadline_protocol, lock_database, sqlite_path

    try:
        store = Store(args.db)
        path = sqlite_path(store.url)
        if path is not None:
            # one server per SQLite file: a second would keep its own tables in memory and disagree
            # with the first (PostgreSQL tells every process of every move instead)
            lock = lock_database(path)  # noqa: F841 - held until this process ends
        store.upgrade()
        store.check()
        store.dispose()
    except DatabaseInUse as e:
        print(f"conquian serve: {say(e)}", file=sys.stderr)
        return 2
    except Exception as e:  # a bad URL, an unreachable server, a database that is not ours
        print("conquian serve: " + _("cannot use the database {url}: {reason}").format(
            url=quote(args.db, 80) if args.db else quote(_("in the data folder"), 80),
            reason=str(e).splitlines()[0][:200] if str(e) else type(e).__name__), file=sys.stderr)
        return 2
    if args.workers > 1 and not store.postgres:
        print("conquian serve: " + _("--workers above 1 needs a PostgreSQL database (--db "
                                     "postgresql+psycopg://...): the processes tell each other of every move "
                                     "through it"), file=sys.stderr)
        return 2
    configure(args.log_level, args.log_format)
    from conquian.web.limits import connection_budget, raise_open_files

    # under the open-file limit (raised where allowed), with room kept for HTTP requests
    concurrency, max_sockets = connection_budget(args.max_connections, raise_open_files())
    settings = Settings(db_url=store.url, bot_workers=args.bot_workers, bot_delay=args.bot_delay,
                        bot_answer_step=args.bot_answer_step, max_sockets=max_sockets,
                        allowed_origins=tuple(args.origin), allowed_hosts=allowed_hosts(args.host, args.allowed_host),
                        health_token=args.health_token, max_spectators=args.max_spectators,
                        connections_per_address=args.connections_per_address,
                        messages_per_address=args.messages_per_address, tables_per_minute=args.tables_per_minute,
                        accounts_per_hour=args.accounts_per_hour,
                        account_requests_per_minute=args.account_requests_per_minute,
                        unjoined_after=args.unjoined_after, chat_chars=args.chat_chars,
                        replays_per_minute=args.replays_per_minute, lobby_per_address=args.lobby_per_address,
                        learn_per_minute=args.learn_per_minute,
                        chat_per_second=args.chat_per_minute / 60, chat_burst=args.chat_burst,
                        quick_bot_after=args.quick_bot_after, quick_deals=args.quick_deals,
                        quick_gone_after=args.quick_gone_after, rated_clock=int(args.rated_clock),
                        **({"turn_timers": args.turn_timers} if args.turn_timers else {}))
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{args.port}/"
    print("conquian serve: " + _("the lobby is at {url} (database {database}); ctrl+c stops it").format(
        url=url, database=store.url.split("@")[-1]), flush=True)
    if args.lan is not None:
        print(_("On the home network, open {url} on a phone, a tablet or another computer, or scan this code "
                "with a phone's camera:").format(url=lan_url(args.host, args.port)))
        print(terminal_qr(lan_url(args.host, args.port)), end="")
        print(_("Only devices on this network reach it. If a phone cannot, allow port {port} in this computer's "
                "firewall.").format(port=args.port), flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    common: dict[str, Any] = dict(host=args.host, port=args.port, log_level=args.log_level, log_config=None,
                                  access_log=False, ws_max_size=64 * 1024, ws_ping_interval=20, ws_ping_timeout=20,
                                  timeout_graceful_shutdown=5,
                                  # slow clients: a request must be all there within --request-timeout
                                  # seconds, an idle connection is closed after 5, headers are at most 16 KB
                                  http=deadline_protocol(args.request_timeout), timeout_keep_alive=5,
                                  h11_max_incomplete_event_size=16 * 1024, limit_concurrency=concurrency)
    try:
        if args.workers > 1:
            # uvicorn's supervisor spawns the processes; each builds its application from the environment
            os.environ[SETTINGS_ENV] = json.dumps({
                "db_url": settings.db_url, "bot_workers": settings.bot_workers, "bot_delay": settings.bot_delay,
                "bot_answer_step": settings.bot_answer_step, "max_sockets": settings.max_sockets,
                "allowed_origins": list(settings.allowed_origins), "allowed_hosts": list(settings.allowed_hosts),
                "health_token": settings.health_token, "max_spectators": settings.max_spectators,
                "connections_per_address": settings.connections_per_address,
                "messages_per_address": settings.messages_per_address,
                "tables_per_minute": settings.tables_per_minute, "accounts_per_hour": settings.accounts_per_hour,
                "account_requests_per_minute": settings.account_requests_per_minute,
                "unjoined_after": settings.unjoined_after,
                "replays_per_minute": settings.replays_per_minute, "lobby_per_address": settings.lobby_per_address,
                "learn_per_minute": settings.learn_per_minute,
                "chat_chars": settings.chat_chars, "chat_per_second": settings.chat_per_second,
                "chat_burst": settings.chat_burst, "turn_timers": list(settings.turn_timers),
                "quick_bot_after": settings.quick_bot_after, "quick_deals": settings.quick_deals,
                "quick_gone_after": settings.quick_gone_after, "rated_clock": settings.rated_clock,
                "request_timeout": args.request_timeout,
                "log_level": args.log_level,
                "log_format": args.log_format})
            uvicorn.run("conquian.web.app:app_from_environment", factory=True, workers=args.workers, **common)
        else:
            uvicorn.run(build_app(settings), **common)
    except OSError as e:
        print("conquian serve: " + _("cannot listen on {host}:{port}: {reason}").format(
            host=args.host, port=args.port, reason=e.strerror or e), file=sys.stderr)
        return 2
    return 0


