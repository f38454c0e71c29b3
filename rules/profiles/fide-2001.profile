# FIDE Laws of Chess 2001 (valid from 1 July 2001), standard games. 2001 defines no rapid
# or blitz. Sources: docs/profiles.md.
name = fide-2001
title = FIDE Laws of Chess 2001, standard game
edition = 2001
category = standard

draw.claim.repetitions = 3                 # 9.2
draw.claim.moves = 50                      # 9.3
draw.automatic.repetitions = 0
draw.automatic.moves = 0
draw.automatic.mate-prevails = yes
repetition.castling = temporary-or-permanent   # 9.2: the right to castle "now or later"

# 7.4: restore the position; a penalty only in the quickplay finish (10.3).
illegal.actor = arbiter
illegal.stands-if-unclaimed = no
illegal.ladder = none
illegal.ladder-quickplay = +2min, +2min, loss  # 10.3
illegal.loss-draw-if-cannot-mate = no
illegal.press-without-move = no
illegal.unpromoted-pawn-becomes-queen = no
illegal.visible-to-players = yes

claim.incorrect.opponent-minutes = 0       # 9.5: no penalty stated
claim.incorrect.cut-claimant = no

flag.actor = arbiter                       # 6.8
flag.visible-to-players = yes
flag.draw-if-cannot-mate = yes             # 6.9
flag.cannot-win-with = none
flag.both = draw-in-quickplay              # 6.11 play on; 10.4 draw in the quickplay finish

game.next-move-completes = no
game.players-take-back = no                # only the arbiter takes completed moves back
game.resignation-draw-if-cannot-mate = no
game.agreement-min-moves = 0
quickplay.allowed = yes                    # Art. 10
recording.required = yes

time.category-minutes = any                # 2001 defines no categories
time.control = none

article.checkmate = 5.1 a
article.stalemate = 5.2 a
article.dead-position = 5.2 b
article.threefold = 9.2
article.fifty-moves = 9.3
article.fivefold = -
article.seventy-five-moves = -
article.illegal-move = 7.4
article.illegal-move-quickplay = 10.3
article.press-without-move = -
article.unpromoted-pawn = 7.4
article.illegal-penalty = 10.3
article.incorrect-claim = 9.5
article.flag = 6.9
article.both-flags = 10.4
article.touch-move = 4.3
article.displaced = 7.3
article.wrong-squares = 7.4
article.category = -
