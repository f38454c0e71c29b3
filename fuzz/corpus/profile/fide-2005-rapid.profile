# FIDE Laws 2005, Appendix B: rapidplay (at least 15 and less than 60 minutes, B1).
# 2005 knows no supervised/unsupervised distinction: both cases are the same.
inherit = fide-2005
name = fide-2005-rapid
title = FIDE Laws of Chess 2005, rapidplay (Appendix B)
category = rapid
time.category-minutes = [15, 60)
article.category = B1

# B6: the illegal move is completed when the opponent's clock starts; the opponent may claim
# before his own move; the arbiter acts only on a claim (except both kings in check or an
# unfinished promotion). Penalty: 7.4 b. Unclaimed, it stands.
illegal.actor = claim
illegal.stands-if-unclaimed = yes
illegal.visible-to-players = no            # a public alert would tip off the claimant
article.illegal-move = B6

# B7/B8: a flag falls only on a player's correct claim; the arbiter stays silent.
flag.actor = claim
flag.visible-to-players = no
article.flag = 6.10, B7
# B9: both flags down: draw.
flag.both = draw
article.both-flags = B9
