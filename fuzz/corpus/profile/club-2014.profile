# The Flemish club championship regulation 2014-2015 (docs/profiles.md), on top of the
# FIDE Laws 2005 for standard games (club Art. 20). Laws.md section 16.
inherit = fide-2005
name = club-2014
title = Club championship regulation 2014-2015 on the FIDE Laws 2005

# Art. 3: 1 h 30 min per player plus 10 s per move.
time.control = 5400+10
# Art. 3: a player left with only a king, king and knight, or king and bishop cannot win on
# the opponent's time: draw. On top of the FIDE test of 6.10 (draw-if-cannot-mate).
flag.cannot-win-with = K, KN, KB
article.flag = 6.10, club 3

# Art. 6: an illegal move is taken back if the opponent or the director points it out before
# the next move; otherwise it stands. Whether the 7.4 b penalty applies on top (through
# Art. 20) is open (docs/profiles.md); this profile keeps it. A club that wants no
# penalty writes a profile with `inherit = club-2014` and `illegal.ladder = none`.
illegal.actor = arbiter-or-claim
illegal.stands-if-unclaimed = yes
article.illegal-move = 7.4, club 6

# Art. 4: recording is not required.
recording.required = no
