"""Ratings per game for rated tables, with openskill's Plackett-Luce model (it rates 2 to 7
players in one result).

A rated table is made with ``"rated": true``; only signed-in players with a name may sit there
(their seats are tied to their accounts), and bots.  When its match is over, the match is rated
once (whichever server process sees it first claims it in the database): the seats ranked by
their totals, equal totals a draw (a match of tableaux only is a draw for all), and a person
who left (away past the table's away rule, :data:`RATED_AWAY` when the host set none) after all
who stayed.  Bots are on the same scale, marked as bots on the leaderboard: a bot whose
rating in the game was fitted on duplicate deals among the bots (:mod:`conquian.bots.levels`,
shipped in ``levels.json``) keeps that rating, the games do not move it, and the people it meets
are rated against it; every fitted bot is listed, whether it has played a rated match or not.  A
bot with no fitted rating in a game never sits at a rated table of that game (the table refuses
it: :func:`check_rated_bot`), a match that holds one anyway is not rated, and no rated match
moves any bot's rating: the leaderboard lists the fitted bots only.

The scale (:func:`rating`), chosen to read like the ratings people know (Elo's, lichess's):

- **The anchor**: 1,500 is openskill's mean of a new player's prior (mu 25), and ``foster`` (the
  book's play, the middle level) is fitted at mu 25 in every game (:mod:`conquian.bots.levels`):
  ``foster`` is 1,500 in each game, and a new player starts there, as strong as the book until his
  games say otherwise.
- **The unit**: :data:`POINTS_PER_MU` points for one unit of mu, so that 400 points are odds of
  10 to 1 between two sure ratings, as in Elo (openskill's Plackett-Luce gives the odds
  ``exp(d / c)`` for a difference ``d`` of mu, ``c = sqrt(2) * beta`` for sure ratings).
- **The number shown is the mean**, not ``mu - 3 sigma``: a new player shows 1,500 (not a figure
  below every bot), and a win or a loss moves him by what the model learnt.
- **A new player's uncertainty** is :data:`NEW_SIGMA` (about 177 points, a 95% interval of
  about +-350 points): large, but not so large that one game throws him far: one loss to the
  weakest bot costs him less than 100 points (86 in conquian), a win over ``foster`` gains 62.
- **Provisional**: a rating of fewer than :data:`PROVISIONAL_GAMES` rated games is marked
  provisional (shown with a "?" after it, like lichess's) on the leaderboard, the player's page
  and the quick match.

```pycon
>>> rating(25.0), rating(25.0 + 400 / POINTS_PER_MU)
(1500, 1900)
>>> provisional(3), provisional(PROVISIONAL_GAMES)
(True, False)
>>> match_ranks([3, -1, -2]), match_ranks([0, 0])
([1, 2, 3], [1, 1])

```
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, String, delete, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection as SqlConnection
from sqlalchemy.engine import Engine
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from conquian.bots.levels import ANCHOR_MU, fixed_rating, rated_bots, scale_rating
from conquian.bots.levels import POINTS_PER_MU as POINTS_PER_MU  # the scale's unit, said here too
from conquian.engine.rules import PRESETS
from conquian.i18n import Msg
from conquian.session import HUMAN
from conquian.web.accounts import FORGET_ACCOUNT, accounts, seat_accounts
from conquian.web.lang import reader
from conquian.web.offline_matches import offline_matches
from conquian.web.pages import shell_page
from conquian.web.store import Store, metadata
from conquian.web.store import tables as store_tables
from conquian.web.table import OPEN, OVER, Table, TableError

#: The subject of a bot's rating: ``bot:`` and its name.
BOT = "bot:"

ratings = SqlTable(
    "ratings", metadata,
    Column("subject", String(40), primary_key=True),
    Column("game", String(30), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    Column("tableaux", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_game", "game"),
)

rating_history = SqlTable(
    "rating_history", metadata,
    Column("subject", String(40), primary_key=True),
    Column("table_id", String(16), primary_key=True),
    Column("game", String(30), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rank", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

rated_tables = SqlTable(
    "rated_tables", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("settled", Boolean, nullable=False),
    Column("settled_at", Float, nullable=True),
)

review_accuracy = SqlTable(
    "review_accuracy", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(30), nullable=False),
    Column("accuracy", Float, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("playouts", Integer, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_review_accuracy_account", "account_id"),
)
"""The accuracy of an account's seat in a deal of a finished match, from the review made on the
server (the one with the most playouts when several were made)."""


def forget_accuracy(conn: SqlConnection, account_id: str) -> None:
    """Delete a deleted account's review accuracies (in the deleting transaction)."""
    conn.execute(delete(review_accuracy).where(review_accuracy.c.account_id == account_id))


FORGET_ACCOUNT.append(forget_accuracy)


def match_accuracy(rows: list[Any]) -> float:
    """A seat's accuracy in a match from its reviewed deals: the mean over their decisions."""
    decisions = sum(r.decisions for r in rows)
    return float(sum(r.accuracy * r.decisions for r in rows) / decisions)


#: A new player's uncertainty (openskill's sigma): large (about 177 points), yet one loss to the
#: weakest bot costs him less than 100 points.
NEW_SIGMA = 6.0
#: Rated games in a game before a player's rating there is no longer provisional.
PROVISIONAL_GAMES = 10


def rating(mu: float) -> int:
    """The rating shown for a mean ``mu``: ``1500 + POINTS_PER_MU * (mu - 25)`` (the scale of the
    module's docstring); the uncertainty is told apart (:func:`provisional`, a bot's interval)."""
    return round(scale_rating(mu))


def provisional(games: int) -> bool:
    """Whether a rating after ``games`` rated games is provisional (shown with a "?")."""
    return games < PROVISIONAL_GAMES


def shown(mu: float, sigma: float) -> int:
    """The rating shown for openskill's ``mu`` and ``sigma`` (the puzzles' ratings,
    :mod:`conquian.web.puzzle_ratings`, are on the same scale): :func:`rating` of the mean."""
    return rating(mu)


def check_rated_bot(game: str, bot: str) -> None:
    """Refuse (:class:`~conquian.web.table.TableError` ``unrated_bot``) ``bot`` at a rated table of
    ``game`` (a preset's name) unless it has a fitted rating there: a bot's rating is never learnt
    from rated games, so an unfitted bot would rate its opponents against a guess."""
    if fixed_rating(game, bot) is None:
        raise TableError("unrated_bot", Msg("a rated table of {game} seats only bots with a measured rating "
                                            "there ({bots}); {bot} has none: seat it at a casual table",
                                            game=game, bot=bot[:40],
                                            bots=", ".join(b for b, _r in rated_bots(game)) or "-"))


def match_ranks(totals: list[int], left: list[bool] | None = None) -> list[int]:
    """Each seat's place by its total (higher is better), equal totals sharing a place; a seat that
    ``left`` (its person away past the away rule when the match ended) is placed after every seat
    that stayed, whatever its total (an abandoned match is a loss for the one who left).

    >>> match_ranks([5, -2, -3], left=[True, False, False])
    [3, 1, 2]
    """
    left = left or [False] * len(totals)
    return [1 + sum(1 for o, lo in zip(totals, left, strict=True) if (lo, -o) < (lt, -t))
            for t, lt in zip(totals, left, strict=True)]


#: Seconds a person may be away at a rated table before a bot plays for him (the away rule), when
#: its host set none: the match goes on, and is a loss for the one who left.
RATED_AWAY = 120.0


def has_left(table: Table, number: int, now: float) -> bool:
    """Whether seat ``number``'s person left: away (no connection in any process, or his move clock
    ran out and he has not moved since: :meth:`~conquian.web.table.Table.away_from`) longer than
    the table's away rule, a bot playing for him."""
    since = table.away_from(number)
    return since is not None and table.away_after is not None and now - since >= table.away_after


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


class Ratings:
    """The rated tables and the ratings in the server's database (synchronous)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.done: set[str] = set()
        """Tables this process knows are settled (no need to ask the database again)."""
        self.reviews_kept: set[tuple[str, int, int, int]] = set()
        """The reviews' figures this process kept (table, seat, deal, playouts): a second look at
        a review writes nothing."""

    def mark_rated(self, table_id: str) -> None:
        """Record that ``table_id`` is rated."""
        with self.engine.begin() as conn:
            conn.execute(insert(rated_tables).values(table_id=table_id, settled=False, settled_at=None))

    def is_rated(self, table_id: str) -> bool:
        """Whether ``table_id`` is a rated table."""
        with self.engine.begin() as conn:
            return conn.execute(select(rated_tables.c.table_id).where(rated_tables.c.table_id == table_id)
                                ).first() is not None

    def rematch_of(self, table: Table) -> tuple[dict[int, str], bool]:
        """What a rematch of ``table`` keeps: the accounts its seats are tied to (by seat), and
        whether the rematch is rated: ``table`` is rated and every person's seat is still tied
        to an account (none of its players deleted his account since)."""
        with self.engine.begin() as conn:
            tied = {int(r.seat): str(r.account_id) for r in conn.execute(
                select(seat_accounts.c.seat, seat_accounts.c.account_id)
                .where(seat_accounts.c.table_id == table.id)).all()}
            rated = conn.execute(select(rated_tables.c.table_id)
                                 .where(rated_tables.c.table_id == table.id)).first() is not None
        people = [s.number for s in table.seats if s.kind == HUMAN]
        return tied, rated and all(n in tied for n in people)

    def keep_rematch(self, table_id: str, tied: dict[int, str], rated: bool) -> None:
        """Tie a rematch's seats to the accounts of :meth:`rematch_of` and, if ``rated``, mark it
        rated, in one transaction."""
        with self.engine.begin() as conn:
            for seat, account_id in tied.items():
                conn.execute(insert(seat_accounts).values(table_id=table_id, seat=seat, account_id=account_id))
            if rated:
                conn.execute(insert(rated_tables).values(table_id=table_id, settled=False, settled_at=None))

    def settle(self, table: Table) -> bool:
        """Rate ``table``'s finished match, once across every process; whether this call rated it."""
        if table.status != OVER or table.session is None or table.id in self.done:
            return False
        with self.engine.begin() as conn:
            claimed = conn.execute(update(rated_tables).where(rated_tables.c.table_id == table.id,
                                                              rated_tables.c.settled.is_(False))
                                   .values(settled=True, settled_at=time.time())).rowcount
            self.done.add(table.id)
            if not claimed:
                return False
            if table.aborted:
                # a person never made his first move: no rating, and the match is casual from now on
                conn.execute(delete(rated_tables).where(rated_tables.c.table_id == table.id))
                return False
            tied = dict(conn.execute(select(seat_accounts.c.seat, seat_accounts.c.account_id)
                                     .where(seat_accounts.c.table_id == table.id)).all())
            subjects: list[str] = []
            for s in table.seats:
                if s.kind == HUMAN:
                    if s.number not in tied:
                        return False  # a guest's seat (not possible at a rated table): not rated
                    subjects.append(str(tied[s.number]))
                elif s.kind != OPEN:
                    subjects.append(BOT + s.kind)
                else:
                    return False
            game = table.rules.name
            match = table.session.match
            totals = [int(t) for t in match.totals]
            ranks = match_ranks(totals, [has_left(table, s.number, time.time()) for s in table.seats])
            tableaux = sum(1 for r in match.results if not any(r))
            model = _model()
            current = {r.subject: r for r in conn.execute(
                select(ratings).where(ratings.c.game == game, ratings.c.subject.in_(subjects))).all()}
            fixed = {s: f for s in subjects if s.startswith(BOT) and (f := fixed_rating(game, s[len(BOT):]))}
            if any(s.startswith(BOT) and s not in fixed for s in subjects):
                return False  # a bot with no fitted rating here (refused at rated tables): nobody is rated
            before = [model.rating(mu=fixed[s]["mu"], sigma=fixed[s]["sigma"]) if s in fixed else
                      model.rating(mu=current[s].mu, sigma=current[s].sigma) if s in current else
                      model.rating(mu=ANCHOR_MU, sigma=NEW_SIGMA) for s in subjects]
            after = model.rate([[r] for r in before], ranks=ranks)
            # a fitted bot's rating stays as fitted: the people were rated against it, it does not move
            after = [[b] if s in fixed else a for s, a, b in zip(subjects, after, before, strict=True)]
            now = time.time()
            for subject, [r], rank in zip(subjects, after, ranks, strict=True):
                won = int(rank == 1 and ranks.count(1) == 1)
                drew = int(rank == 1 and ranks.count(1) > 1)
                if subject in current:
                    old = current[subject]
                    conn.execute(update(ratings).where(ratings.c.subject == subject, ratings.c.game == game).values(
                        mu=r.mu, sigma=r.sigma, games=old.games + 1, wins=old.wins + won, draws=old.draws + drew,
                        tableaux=old.tableaux + tableaux, updated_at=now))
                else:
                    conn.execute(insert(ratings).values(subject=subject, game=game, mu=r.mu, sigma=r.sigma, games=1,
                                                        wins=won, draws=drew, tableaux=tableaux, updated_at=now))
                conn.execute(insert(rating_history).values(subject=subject, table_id=table.id, game=game, mu=r.mu,
                                                           sigma=r.sigma, rank=rank, at=now))
        return True

    def keep_review(self, table_id: str, review: dict[str, Any], fixed: int | None = None) -> bool:
        """Keep the accuracy of a finished match's review (:meth:`conquian.review.Review.to_json`)
        when its seat is tied to an account; whether it was kept.  ``fixed``: the playouts of the
        server's own review of the game; a review made with any other (anyone may ask for fewer:
        a cheaper, noisier figure) is never kept, so nobody sets another's public accuracy.  A
        review of the same seat and deal with fewer playouts than the one kept does not replace it."""
        summary = review.get("summary") or {}
        accuracy, decisions = summary.get("accuracy"), len(review.get("decisions") or [])
        seat = str(review.get("seat", ""))
        if accuracy is None or not decisions or not seat.startswith("p") or not seat[1:].isdigit():
            return False
        number, deal, playouts = int(seat[1:]), int(review["deal"]), int(review["playouts"])
        if fixed is not None and playouts != fixed:
            return False
        seen = (table_id, number, deal, playouts)
        if seen in self.reviews_kept:
            return False  # a second look at a review this process kept: nothing new
        if len(self.reviews_kept) > 10_000:
            self.reviews_kept.clear()  # a long-lived process: at worst a figure written again
        values = {"game": str(review["variant"]), "accuracy": float(accuracy), "decisions": decisions,
                  "playouts": playouts, "at": time.time()}
        where = (review_accuracy.c.table_id == table_id, review_accuracy.c.seat == number,
                 review_accuracy.c.deal == deal)
        with self.engine.begin() as conn:
            account = conn.execute(select(seat_accounts.c.account_id).where(
                seat_accounts.c.table_id == table_id, seat_accounts.c.seat == number)).scalar()
            if account is None:
                return False
            kept = conn.execute(select(review_accuracy.c.playouts, review_accuracy.c.account_id).where(*where)).first()
            if kept is None:
                conn.execute(insert(review_accuracy).values(table_id=table_id, seat=number, deal=deal,
                                                            account_id=account, **values))
                self.reviews_kept.add(seen)
                return True
            if kept.playouts > playouts and kept.account_id == account:
                return False
            conn.execute(update(review_accuracy).where(*where).values(account_id=account, **values))
        self.reviews_kept.add(seen)
        return True

    def leaderboard(self, game: str, limit: int = 100) -> list[dict[str, Any]]:
        """The game's rated players and bots, best first (bots marked): every bot with a fitted
        rating in the game is there with it (``fixed``, and its 95% ``interval``), played or not,
        and no other bot; a player's rating is marked ``provisional`` (:func:`provisional`)."""
        with self.engine.begin() as conn:
            rows = conn.execute(select(ratings, accounts.c.name).outerjoin(accounts, accounts.c.id == ratings.c.subject)
                                .where(ratings.c.game == game)).all()
        out = []
        listed: set[str] = set()
        for r in rows:
            bot = r.subject.startswith(BOT)
            if not bot and r.name is None:
                continue  # an account without a name (or deleted)
            name = r.subject[len(BOT):] if bot else r.name
            fit = fixed_rating(game, name) if bot else None
            if bot and fit is None:
                continue  # a bot with no fitted rating here is not on the board (rows of older versions)
            mu, sigma = (fit["mu"], fit["sigma"]) if fit else (r.mu, r.sigma)
            out.append({"name": name, "bot": bot, "fixed": fit is not None,
                        "rating": int(fit["rating"]) if fit else rating(mu),
                        "provisional": not bot and provisional(r.games),
                        "mu": round(mu, 3), "sigma": round(sigma, 3),
                        "games": r.games, "wins": r.wins, "draws": r.draws, "tableaux": r.tableaux,
                        **({"interval": list(fit["interval"])} if fit else {})})
            if bot:
                listed.add(name)
        for name, _rating in rated_bots(game):
            if name not in listed:
                fit = fixed_rating(game, name)
                assert fit is not None
                out.append({"name": name, "bot": True, "fixed": True, "rating": int(fit["rating"]),
                            "provisional": False, "mu": round(fit["mu"], 3), "sigma": round(fit["sigma"], 3),
                            "games": 0, "wins": 0, "draws": 0, "tableaux": 0, "interval": list(fit["interval"])})
        out.sort(key=lambda e: (-e["rating"], e["name"]))
        return out[:limit]

    def player(self, name: str, viewer: str | None = None) -> dict[str, Any] | None:
        """A named player's page: his ratings per game with their history, his matches' average
        accuracy and his recent matches, both over the same matches.

        Which matches: his finished matches at seats tied to his account.  The page seen by
        anyone (``viewer`` another account, or None) holds those that anyone may replay: rated
        matches and the matches of public tables; his own page (``viewer`` his account) holds
        his casual private matches too (``own``).  Per game (in ``games`` when rated there, and
        in ``accuracy``): the average accuracy of those matches reviewed on the server and how
        many (absent when none).  ``recent``: the last :data:`RECENT` of those matches, newest
        first, each with ``rated`` (and then its place and the rating after it), ``public``,
        ``offline`` (played in the offline app and sent home: on his own page only, never rated),
        its replay link, and its accuracy when reviewed (its reviewed deals' decisions).  None
        for a name no account has, and alike for an account without a rating or a match anyone
        may see (unless ``viewer`` is its own)."""
        from conquian.web.store import tables

        with self.engine.begin() as conn:
            account = conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.name == name)).first()
            if account is None:
                return None
            own = viewer == account.id
            rows = conn.execute(select(ratings).where(ratings.c.subject == account.id)).all()
            history = conn.execute(select(rating_history).where(rating_history.c.subject == account.id)
                                   .order_by(rating_history.c.at)).all()
            played = conn.execute(
                select(tables.c.id, tables.c.variant, tables.c.public, tables.c.updated_at,
                       rated_tables.c.table_id.label("rated"), offline_matches.c.table_id.label("offline"))
                .join(seat_accounts, seat_accounts.c.table_id == tables.c.id)
                .outerjoin(rated_tables, rated_tables.c.table_id == tables.c.id)
                .outerjoin(offline_matches, offline_matches.c.table_id == tables.c.id)
                .where(seat_accounts.c.account_id == account.id, tables.c.status == OVER)).all()
            reviewed = conn.execute(select(review_accuracy).where(review_accuracy.c.account_id == account.id)).all()
            attempts = metadata.tables.get("puzzle_attempts")  # its puzzles (conquian.web.puzzle_ratings), if in use
            solved = [] if attempts is None else conn.execute(
                select(attempts.c.mu, attempts.c.sigma).where(attempts.c.account_id == account.id)
                .order_by(attempts.c.at)).all()
        # his matches: every rated one (its rating history, kept even if its table is gone) and
        # his finished tables', the casual private ones on his own page only
        listed: dict[str, dict[str, Any]] = {}
        for h in history:
            listed[h.table_id] = {"table": h.table_id, "game": h.game, "rated": True, "public": True,
                                  "place": h.rank, "rating": rating(h.mu), "at": h.at, "offline": False}
        for t in played:
            # an offline match (conquian.web.offline_matches): its player's own page only, never rated
            offline = t.offline is not None
            if t.id in listed or not (own or ((t.public or t.rated is not None) and not offline)):
                continue
            listed[t.id] = {"table": t.id, "game": t.variant, "rated": t.rated is not None and not offline,
                            "public": bool(t.public or t.rated is not None) and not offline, "at": t.updated_at,
                            "offline": offline}
        matches: dict[tuple[str, int], list[Any]] = {}
        for a in reviewed:
            if a.table_id in listed:
                matches.setdefault((a.table_id, a.seat), []).append(a)
        by_table = {table_id: match_accuracy(deals) for (table_id, _), deals in matches.items()}
        by_game: dict[str, list[float]] = {}
        for deals in matches.values():
            by_game.setdefault(deals[0].game, []).append(match_accuracy(deals))
        accuracy = {g: {"accuracy": round(sum(v) / len(v), 4), "reviewed": len(v)} for g, v in sorted(by_game.items())}
        games = {}
        for r in rows:
            puzzles = r.game == PUZZLES
            games[r.game] = {"rating": rating(r.mu), "games": r.games,
                             "wins": r.wins, "draws": r.draws, "tableaux": r.tableaux,
                             "history": ([shown(h.mu, h.sigma) for h in solved] if puzzles else
                                         [rating(h.mu) for h in history if h.game == r.game]),
                             **({} if puzzles else {"provisional": provisional(r.games)})}
        for g, figures in accuracy.items():
            if g in games:
                games[g].update(figures)
        newest = sorted(listed.values(), key=lambda m: (-m["at"], m["table"]))[:RECENT]
        recent = [m | {"replay": f"/r/{m['table']}"}
                  | ({"accuracy": round(by_table[m["table"]], 4)} if m["table"] in by_table else {})
                  for m in newest]
        if not (own or games or listed):
            # an account nobody may see anything of is answered as a name no account has: no
            # endpoint tells whether an account exists (:mod:`conquian.web.accounts`)
            return None
        return {"name": account.name, "own": own, "games": games, "recent": recent, "matches": len(listed),
                "accuracy": accuracy}


#: The matches listed on a player's page (the newest).
RECENT = 20


#: The game key of the players' puzzle ratings (:mod:`conquian.web.puzzle_ratings`): one
#: attempt a puzzle is one of its "games", a solve one of its "wins".
PUZZLES = "puzzles"


def check_game(game: str | None) -> str | None:
    """``game`` if it is a preset's name or :data:`PUZZLES`, else None."""
    return game if game in PRESETS or game == PUZZLES else None



def routes(board: Ratings, viewer_of: Callable[[Request], Awaitable[str | None]] | None = None) -> list[BaseRoute]:
    """``GET /api/leaderboard?game=``, ``GET /api/players/{name}``, and their pages (``viewer_of``:
    the account id of the request's signed-in player, who sees his own page whole)."""

    def refuse(request: Request, code: str, message: Msg, status: int) -> JSONResponse:
        tr = reader(request.query_params.get("lang"), request.headers.get("accept-language"))
        return JSONResponse({"error": {"code": code, "rule": None, "message": tr.render(message)[:300]}},
                            status_code=status)

    async def leaderboard(request: Request) -> Response:
        game = check_game(request.query_params.get("game", "conquian"))
        if game is None:
            return refuse(request, "bad_variant", Msg("there is no game {variant} (games: {games})",
                                                      variant=repr(request.query_params.get("game", "")[:30]),
                                                      games=", ".join(PRESETS)), 400)
        rows = await run_in_threadpool(board.leaderboard, game)
        return JSONResponse({"game": game, "players": rows, "provisional_games": PROVISIONAL_GAMES},
                            headers={"Cache-Control": "no-cache"})

    async def player(request: Request) -> Response:
        # the page differs for its own player (his casual private matches too): not kept by caches
        viewer = await viewer_of(request) if viewer_of is not None else None
        found = await run_in_threadpool(board.player, request.path_params["name"][:40], viewer)
        if found is None:
            return refuse(request, "no_player", Msg("there is no player of that name"), 404)
        return JSONResponse(found, headers={"Cache-Control": "private, no-store", "Vary": "Cookie"})

    async def page(request: Request) -> Response:
        return shell_page("ratings.js")

    return [
        Route("/leaderboard", page),
        Route("/p/{name}", page),
        Route("/api/leaderboard", leaderboard),
        Route("/api/players/{name}", player),
    ]


def shared_finished(store: Store) -> list[str]:
    """The ids of the finished matches that anyone may see, oldest first: those of public tables
    (their players chose to publish) and of rated ones (a rated match is listed when it is over,
    the privacy rule of the lobby); a casual private table's never (what the puzzles mined from
    the server's matches read, ``benchmarks/make_puzzles.py --from-db``)."""
    rated = select(rated_tables.c.table_id)
    with store.engine.connect() as conn:
        return list(conn.execute(
            select(store_tables.c.id)
            .where((store_tables.c.status == "over") & (store_tables.c.public | store_tables.c.id.in_(rated)))
            .order_by(store_tables.c.updated_at, store_tables.c.id)).scalars().all())
