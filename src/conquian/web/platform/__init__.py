"""The players' platform, above the table: accounts and passkeys, ratings and leaderboards, puzzle
ratings, friends, quick match, the learning pages and the matches played offline.

Each feature is a package of up to three modules: ``service`` (its rules, no HTTP and no SQL),
``storage`` (its SQLAlchemy tables and the queries over them) and ``routes`` (its Starlette
handlers).  A feature imports the table's modules below it (:mod:`conquian.web.table`,
:mod:`conquian.web.store`) and the features it builds on; the server and the app above assemble
them (docs/internals.md, "The players' platform").
"""
