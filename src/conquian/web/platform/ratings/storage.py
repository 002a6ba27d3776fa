"""The ratings' and leaderboards' storage: the SQLAlchemy tables of :data:`conquian.web.store.metadata`
and the queries over them (the rules they apply are in the service module beside this one)."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, delete, insert, select, update
from sqlalchemy import Table as SqlTable
from sqlalchemy.engine import Connection as SqlConnection
from sqlalchemy.engine import Engine

from conquian.bots.levels import ANCHOR_MU, fixed_rating, rated_bots
from conquian.session import HUMAN
from conquian.web.platform.accounts.service import FORGET_ACCOUNT
from conquian.web.platform.accounts.storage import accounts, seat_accounts
from conquian.web.platform.offline_matches.storage import offline_matches
from conquian.web.platform.ratings.service import (
    BOT,
    NEW_SIGMA,
    PUZZLES,
    RECENT,
    has_left,
    match_accuracy,
    match_ranks,
    provisional,
    rating,
    rating_model,
    shown,
)
from conquian.web.store import Store, account_key, metadata, optional, required
from conquian.web.store import tables as store_tables
from conquian.web.table import OPEN, OVER, Table

ratings = SqlTable(
    "ratings", metadata,
    Column("subject", String(40), primary_key=True),
    Column("game", String(30), primary_key=True),
    *required(mu=Float, sigma=Float, games=Integer, wins=Integer, draws=Integer, tableaux=Integer,
              updated_at=Float),
    Index("ix_ratings_game", "game"),
)

rating_history = SqlTable(
    "rating_history", metadata,
    Column("subject", String(40), primary_key=True),
    Column("table_id", String(16), primary_key=True),
    *required(game=String(30), mu=Float, sigma=Float, rank=Integer, at=Float),
)

rated_tables = SqlTable(
    "rated_tables", metadata,
    Column("table_id", String(16), primary_key=True),
    *required(settled=Boolean),
    *optional(settled_at=Float),
)

review_accuracy = SqlTable(
    "review_accuracy", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("deal", Integer, primary_key=True),
    account_key("account_id"),
    *required(game=String(30), accuracy=Float, decisions=Integer, playouts=Integer, at=Float),
    Index("ix_review_accuracy_account", "account_id"),
)


def forget_accuracy(conn: SqlConnection, account_id: str) -> None:
    """Delete a deleted account's review accuracies (in the deleting transaction)."""
    conn.execute(delete(review_accuracy).where(review_accuracy.c.account_id == account_id))


FORGET_ACCOUNT.append(forget_accuracy)


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
            model = rating_model()
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
            attempts = metadata.tables.get("puzzle_attempts")  # its puzzles (platform.puzzle_ratings), if in use
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
            # an offline match (conquian.web.platform.offline_matches): its player's own page only, never rated
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
            # endpoint tells whether an account exists (:mod:`conquian.web.platform.accounts`)
            return None
        return {"name": account.name, "own": own, "games": games, "recent": recent, "matches": len(listed),
                "accuracy": accuracy}


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
