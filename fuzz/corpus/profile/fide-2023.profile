# FIDE Laws of Chess 2023 (valid from 1 January 2023), standard games.
# The root of the 2023 profiles: sets every key. Sources: docs/profiles.md.
name = fide-2023
title = FIDE Laws of Chess 2023, standard game
edition = 2023
category = standard

# Draws and the end of the game (Art. 5, 9).
draw.claim.repetitions = 3                 # 9.2.1
draw.claim.moves = 50                      # 9.3 (completed moves, 9.3.2)
draw.automatic.repetitions = 5             # 9.6.1
draw.automatic.moves = 75                  # 9.6.2
draw.automatic.mate-prevails = yes         # 9.6.2: if the last move mates, mate prevails
repetition.castling = permanent            # 9.2.2.2: only a right lost by a king/rook move

# Illegal moves (Art. 7.5).
illegal.actor = arbiter
illegal.stands-if-unclaimed = no
illegal.ladder = +2min, loss               # 7.5.5
illegal.ladder-quickplay = +2min, loss     # Guidelines III: Art. 7.5 applies
illegal.loss-draw-if-cannot-mate = yes     # 7.5.5, last sentence
illegal.press-without-move = yes           # 7.5.3
illegal.unpromoted-pawn-becomes-queen = yes  # 7.5.2
illegal.visible-to-players = yes

# Incorrect draw claims (9.5.3).
claim.incorrect.opponent-minutes = 2
claim.incorrect.cut-claimant = no

# Flag fall (6.8, 6.9; Guidelines III.3).
flag.actor = arbiter
flag.visible-to-players = yes
flag.draw-if-cannot-mate = yes             # 6.9
flag.cannot-win-with = none
flag.both = draw-in-last-period-without-increment   # III.3.1

# Other differences from earlier editions.
game.next-move-completes = yes             # 6.2.1
game.resignation-draw-if-cannot-mate = yes # 5.1.2
game.agreement-min-moves = 1               # 5.2.3
quickplay.allowed = yes                    # Guidelines III (games without increment)
recording.required = yes                   # 8.1

# Time: standard = 60 minutes or more per player (index), allotted time + 60 x increment.
time.category-minutes = [60, inf)
time.control = none

article.checkmate = 5.1.1
article.stalemate = 5.2.1
article.dead-position = 5.2.2
article.threefold = 9.2
article.fifty-moves = 9.3
article.fivefold = 9.6.1
article.seventy-five-moves = 9.6.2
article.illegal-move = 7.5.1
article.illegal-move-quickplay = 7.5.1
article.press-without-move = 7.5.3
article.unpromoted-pawn = 7.5.2
article.illegal-penalty = 7.5.5
article.incorrect-claim = 9.5.3
article.flag = 6.9
article.both-flags = III.3.1
article.touch-move = 4.3
article.displaced = 7.4
article.wrong-squares = 7.6
article.category = index
