# FIDE Laws of Chess 2005 (valid from 1 July 2005), standard games.
# The root of the 2005 profiles: sets every key. Sources: docs/profiles.md.
name = fide-2005
title = FIDE Laws of Chess 2005, standard game
edition = 2005
category = standard

draw.claim.repetitions = 3                 # 9.2
draw.claim.moves = 50                      # 9.3
draw.automatic.repetitions = 0             # no automatic draws before 2023
draw.automatic.moves = 0
draw.automatic.mate-prevails = yes
repetition.castling = temporary-or-permanent   # 9.2: "temporarily or permanently"

illegal.actor = arbiter
illegal.stands-if-unclaimed = no
illegal.ladder = +2min, +2min, loss        # 7.4 b
illegal.ladder-quickplay = +2min, +2min, loss
illegal.loss-draw-if-cannot-mate = no      # 7.4 b has no such exception
illegal.press-without-move = no            # not regulated before 2023
illegal.unpromoted-pawn-becomes-queen = no # 7.4 a: redo the move, free choice
illegal.visible-to-players = yes

claim.incorrect.opponent-minutes = 3       # 9.5 b
claim.incorrect.cut-claimant = yes         # 9.5 b: half the claimant's time, at most 3 min

flag.actor = arbiter                       # 6.9
flag.visible-to-players = yes
flag.draw-if-cannot-mate = yes             # 6.10
flag.cannot-win-with = none
flag.both = draw-in-last-period            # 6.12 b

game.next-move-completes = no              # 6.8 a: only a game-ending move needs no press
game.resignation-draw-if-cannot-mate = no
game.agreement-min-moves = 0
quickplay.allowed = yes                    # Art. 10
recording.required = yes                   # 8.1

# Rapid is at least 15 and less than 60 minutes (B1), so standard is 60 or more.
time.category-minutes = [60, inf)
time.control = none

article.checkmate = 5.1 a
article.stalemate = 5.2 a
article.dead-position = 5.2 b
article.threefold = 9.2
article.fifty-moves = 9.3
article.fivefold = -
article.seventy-five-moves = -
article.illegal-move = 7.4
article.illegal-move-quickplay = 7.4
article.press-without-move = -
article.unpromoted-pawn = 7.4 a
article.illegal-penalty = 7.4 b
article.incorrect-claim = 9.5 b
article.flag = 6.10
article.both-flags = 6.12 b
article.touch-move = 4.3
article.displaced = 7.3
article.wrong-squares = 7.5
article.category = B1
