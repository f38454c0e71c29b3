# FIDE Laws 2005, Appendix C: blitz (less than 15 minutes per player, C1). Appendix B
# applies except B6 and 10.2 (C2).
inherit = fide-2005-rapid
name = fide-2005-blitz
title = FIDE Laws of Chess 2005, blitz (Appendix C)
category = blitz
time.category-minutes = [0, 15)
article.category = C1

# C3: after an illegal move the opponent may claim a win before his own move (a draw if he
# cannot mate the offender); once he has moved, the illegal move stands.
illegal.ladder = win-claim
illegal.ladder-quickplay = win-claim
illegal.loss-draw-if-cannot-mate = yes
article.illegal-move = C3
article.illegal-penalty = C3
quickplay.allowed = no                     # C2: 10.2 does not apply
