"""Ratings: the rated matches, the players' ratings, the leaderboards and a player's page.

Its modules: ``service`` (its rules), ``storage`` (its tables and queries), ``routes`` (its HTTP handlers)."""
