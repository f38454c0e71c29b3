# FIDE Laws 2023, Appendix B: blitz games (10 minutes or less per player, B.1).
# B.4: the regulations choose B.2 (supervised) or B.3 (unsupervised): `--supervised`.
inherit = fide-2023-rapid
name = fide-2023-blitz
title = FIDE Laws of Chess 2023, blitz game (Appendix B)
category = blitz
time.category-minutes = [0, 10]
article.category = B.1
# Guidelines III.2: no quickplay finish in blitz, hence no III.3 for both flags.
quickplay.allowed = no
flag.both = play-on
article.both-flags = -

[supervised]
# B.2: the Competition Rules apply; B.2 does not name A.3, so the penalties of Art. 7 and 9
# stay two minutes (an open question, docs/profiles.md).
illegal.ladder = +2min, loss
illegal.ladder-quickplay = +2min, loss
claim.incorrect.opponent-minutes = 2
article.illegal-penalty = 7.5.5
article.incorrect-claim = 9.5.3

[unsupervised]
# B.3: A.2, A.3 and A.5 apply (inherited from fide-2023-rapid).
article.illegal-move = 7.5.1, A.5.2, B.3
article.flag = 6.9, A.5.5, B.3
