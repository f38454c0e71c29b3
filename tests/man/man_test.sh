#!/bin/sh
# The manual pages (man/*.[158], mdoc) against the linters and against the binaries:
# - `mandoc -T lint -W warning` (when mandoc is installed) and `man --warnings` (groff via
#   man-db) must print nothing;
# - every long option in a binary's --help is documented in its page (`Fl -NAME`), and every
#   option the page's OPTIONS section lists (`.It Fl -NAME`) exists in --help;
# - eboardctl: every command of --help has an `.It Cm` entry in COMMANDS, and the reverse;
# - eboardd.conf(5): every option of eboardd (but config/help/version) and every [board.NAME]
#   key the daemon lists when it refuses an unknown one appears as `Cm KEY`.
# usage: man_test.sh MAN_SOURCE_DIR BIN_DIR          exit 0 pass, 1 fail, 77 skip
set -eu
MAN=$1 BIN=$2
command -v man >/dev/null || { echo "SKIP: man (man-db) is missing"; exit 77; }
T=$(mktemp -d /tmp/eboard-man-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 1. Linters.
for page in "$MAN"/*.[158]; do
    if command -v mandoc >/dev/null; then
        mandoc -T lint -W warning "$page" >"$T/lint" 2>&1 || true
        [ -s "$T/lint" ] && { fail "mandoc -T lint: $(basename "$page")"; cat "$T/lint"; }
    fi
    MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>"$T/groff" >/dev/null || fail "man -l $(basename "$page") failed"
    [ -s "$T/groff" ] && { fail "man --warnings: $(basename "$page")"; cat "$T/groff"; }
done
command -v mandoc >/dev/null || echo "note: mandoc not installed, only groff's warnings checked"

# Long options of a --help text, one per line.
options_of() { grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }
# The `.It Fl -NAME` options of the OPTIONS section of a page, as --NAME (mdoc's Fl adds the
# first dash).
page_options() {
    sed -n '/^\.Sh OPTIONS/,/^\.Sh /p' "$1" | grep '^\.It ' | grep -oE 'Fl -[a-z][a-z0-9-]*' | sed 's/^Fl /-/' | sort -u
}

# 2. Each binary against its page.
for pair in eboardd:eboardd.8 eboardctl:eboardctl.1 eboard-emu:eboard-emu.1 \
            eboard-perft:eboard-perft.1 eboard-winnable:eboard-winnable.1 \
            eboard-standings:eboard-standings.1 eboard-hub:eboard-hub.8; do
    bin=${pair%%:*} page=$MAN/${pair#*:}
    [ -x "$BIN/$bin" ] || { fail "$BIN/$bin is not built"; continue; }
    "$BIN/$bin" --help >"$T/help" 2>&1 || fail "$bin --help exited $?"
    options_of <"$T/help" >"$T/help.opts"
    [ -s "$T/help.opts" ] || fail "$bin --help lists no option"
    while read -r opt; do
        grep -qE -- "Fl ${opt#-}( |\$)" "$page" || fail "$(basename "$page") does not document $opt of '$bin --help'"
    done <"$T/help.opts"
    page_options "$page" >"$T/page.opts"
    while read -r opt; do
        # --help itself is proven above (exit 0), whether or not the usage line names it.
        [ "$opt" = --help ] || grep -qxF -- "$opt" "$T/help.opts" || fail "$(basename "$page") documents $opt, which '$bin --help' does not have"
    done <"$T/page.opts"
done

# 3. eboardctl commands, both ways.
"$BIN/eboardctl" --help | sed -n '/^Commands:/,/^Options:/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' | sort -u >"$T/cmds"
sed -n '/^\.Sh COMMANDS/,/^\.Sh /p' "$MAN/eboardctl.1" | sed -n 's/^\.It Cm \([a-z]*\).*/\1/p' | sort -u >"$T/page.cmds"
[ -s "$T/cmds" ] || fail "no command found in 'eboardctl --help'"
cmp -s "$T/cmds" "$T/page.cmds" || { fail "eboardctl commands: --help (<) and eboardctl.1 (>) differ"; diff "$T/cmds" "$T/page.cmds" || true; }

# 4. eboardd.conf(5): the keys.
"$BIN/eboardd" --help | options_of | sed 's/^--//' | grep -vxE 'config|help|version' >"$T/keys"
printf '[board.x]\nno-such-key = 1\n' >"$T/bad.conf"
"$BIN/eboardd" --config "$T/bad.conf" >/dev/null 2>"$T/err" && fail "eboardd accepted an unknown [board.NAME] key"
sed -n 's/.*has no setting [^(]*(\(.*\)).*/\1/p' "$T/err" | tr ',' '\n' | tr -d ' ' >>"$T/keys"
grep -q '^uri$' "$T/keys" || fail "could not read the [board.NAME] keys from eboardd's message: $(cat "$T/err")"
while read -r key; do
    grep -qE -- "Cm $key( |\$)" "$MAN/eboardd.conf.5" || fail "eboardd.conf.5 does not document the key $key"
done <"$T/keys"

[ $failures -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "man pages: all checks passed"
