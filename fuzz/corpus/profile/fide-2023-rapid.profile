# FIDE Laws 2023, Appendix A: rapid games (more than 10 and less than 60 minutes per player,
# A.1). A.6: the regulations choose A.4 (supervised) or A.5 (unsupervised): `--supervised`.
inherit = fide-2023
name = fide-2023-rapid
title = FIDE Laws of Chess 2023, rapid game (Appendix A)
category = rapid
time.category-minutes = (10, 60)
article.category = A.1

# A.3: the penalties of Art. 7 and 9 are one minute instead of two.
illegal.ladder = +1min, loss
illegal.ladder-quickplay = +1min, loss
claim.incorrect.opponent-minutes = 1
article.illegal-penalty = 7.5.5, A.3
article.incorrect-claim = 9.5.3, A.3

[supervised]
# A.4: the Competition Rules apply in full (one arbiter per at most three games).
illegal.actor = arbiter
illegal.stands-if-unclaimed = no

[unsupervised]
# A.5.2: the arbiter applies 7.5.5 if he sees the illegal move before the opponent's next
# move; else the opponent may claim before it; else the move stands.
illegal.actor = arbiter-or-claim
illegal.stands-if-unclaimed = yes
article.illegal-move = 7.5.1, A.5.2
# A.5.3: the claimant may stop the clock; A.5.5: the arbiter shall announce a flag fall.
flag.actor = arbiter
article.flag = 6.9, A.5.5
