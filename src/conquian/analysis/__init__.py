"""How long a hand lasts and what it takes to win: ``conquian stats`` (the ``analysis`` extra).

:mod:`~conquian.analysis.collect` plays deals and counts; :mod:`~conquian.analysis.figures`
turns the counts into figures (durations, survival, Foster's table, seats, outcomes);
:mod:`~conquian.analysis.run` spreads a run over processes or a Ray cluster;
:mod:`~conquian.analysis.report` writes the Markdown report with its plots.  The engine
never imports this package.
"""
