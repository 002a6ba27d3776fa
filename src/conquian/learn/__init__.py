"""Learn the game by doing: short lessons on prepared deals (:mod:`~conquian.learn.lessons`), a
runner that accepts the move each lesson's idea calls for and refuses anything else naming the rule
(:mod:`~conquian.learn.runner`), and the learner's progress (:mod:`~conquian.learn.progress`)."""
