#!/bin/bash
# The bash completion (completion/fsbench.bash, installed as
# /usr/share/bash-completion/completions/fsbench): a command, an option, a phase, a tree
# profile, a shipped job and a label from a temporary store, each completed in a fresh bash
# with COMP_WORDS/COMP_CWORD set as readline sets them; the listings it calls
# (fsbench list --names, fsbench runs --labels); and that it stays quiet on errors.
. "$(dirname "$0")/../lib/tap.sh"

COMPLETION=$(cd "$(dirname "$0")/../.." && pwd)/completion/fsbench.bash
[ -r "$COMPLETION" ] || skip_all "no completion/fsbench.bash"

# complete WORD... : the completions of the last word, one a line (stderr to $SCRATCH/cerr);
# the first word is the binary, as typed. Run in an empty directory, so that no file name
# is offered beside the words.
mkdir "$SCRATCH/empty"
complete_words() {
    (cd "$SCRATCH/empty" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _fsbench; printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$@" 2>"$SCRATCH/cerr")
}
has() { printf '%s\n' "$1" | grep -qx -- "$2"; }
has_not() { ! has "$@"; }

# a store with two labels (one of them twice) and the default store with a third
DB=$SCRATCH/c.db
for l in alpha-1 beta-2 alpha-1; do
    "$FSBENCH" cmd --runs 1 --db "$DB" --label "$l" --cmd true >/dev/null 2>&1 </dev/null
done
"$FSBENCH" cmd --runs 1 --label default-3 --cmd true >/dev/null 2>&1 </dev/null

run_fsbench runs --labels --db "$DB"
is "$RC" 0 "runs --labels exits 0"
is "$OUT" "$(printf 'alpha-1\nbeta-2')" "runs --labels: each label once, oldest first, nothing else"
run_fsbench runs --labels --db "$SCRATCH/none.db"
is "$RC:$OUT:$ERR" "0::" "runs --labels of a missing store: nothing, exit 0"
run_fsbench list --names phases
is "$OUT" "$("$FSBENCH" list -v | sed -n '/^phases:/,/^$/p' | awk 'NF && !/:$/ {print $1}')" \
    "list --names phases: the phases list shows"
run_fsbench list --names scenarios
is "$OUT" "$(cd "$(dirname "$0")/../../jobs" && ls *.ini | sed 's/\.ini$//')" \
    "list --names scenarios: the shipped jobs"
run_fsbench list --names nothing
ok $([ "$RC" -eq 2 ] && [ "$(printf '%s\n' "$ERR" | wc -l)" -eq 1 ] && echo 0 || echo 1) \
    "list --names of an unknown kind: one line, exit 2 ($RC)"

got=$(complete_words "$FSBENCH" co)
is "$got" "compare" "command: co -> compare"
got=$(complete_words "$FSBENCH" "")
ok $(has "$got" run && has "$got" forget && has "$got" cleanup && echo 0 || echo 1) \
    "command: every command offered"
got=$(complete_words "$FSBENCH" run --tr)
is "$got" "--tree" "option: run --tr -> --tree"
got=$(complete_words "$FSBENCH" runs --)
ok $(has "$got" --labels && has "$got" --db && echo 0 || echo 1) "option: runs -- offers --db and --labels"
got=$(complete_words "$FSBENCH" run --phases extract,st)
is "$got" "extract,statwalk" "phase: the last element of --phases extract,st"
got=$(complete_words "$FSBENCH" compare --phase dro)
is "$got" "dropcaches" "phase: compare --phase dro"
got=$(complete_words "$FSBENCH" run --tree ti)
is "$got" "tiny" "profile: run --tree ti -> tiny"
got=$(complete_words "$FSBENCH" run --tree = pk)
is "$got" "pkgsrc" "profile: run --tree=pk (readline splits at =)"
got=$(complete_words "$FSBENCH" run seed-00)
is "$(printf '%s\n' "$got" | grep -c '^seed-00[0-4]-')" 5 "shipped job: run seed-00 -> the five seed jobs"
got=$(complete_words "$FSBENCH" list --names "")
is "$got" "$(printf 'scenarios\nphases\nprofiles\nengines')" "list --names <Tab>: the four kinds, no file names"
got=$(complete_words "$FSBENCH" list --names = pro)
is "$got" "profiles" "list --names=pro -> profiles"
got=$(complete_words "$FSBENCH" list --)
ok $(has "$got" --names && has "$got" --help && echo 0 || echo 1) "option: list -- offers --names"
got=$(complete_words "$FSBENCH" help exp)
is "$got" "export" "help exp<Tab> -> export (help CMD is CMD --help)"
got=$(complete_words "$FSBENCH" run --job comp)
is "$got" "compilebench" "shipped job: run --job comp -> compilebench"
touch "$SCRATCH/empty/my-job.ini" "$SCRATCH/empty/my-notes.txt"
got=$(complete_words "$FSBENCH" run my)
is "$got" "my-job.ini" "run my<TAB>: a job file here, not other files"
rm "$SCRATCH/empty/my-job.ini" "$SCRATCH/empty/my-notes.txt"
got=$(complete_words "$FSBENCH" run --engine u)
is "$got" "uring" "engine: --engine u -> uring"
got=$(complete_words "$FSBENCH" compare --metric dev-w)
is "$(printf '%s' "$got" | tr '\n' ' ')" "dev-writes dev-write-mb" "compare --metric dev-w"

for c in compare show export report forget; do
    got=$(complete_words "$FSBENCH" "$c" --db "$DB" "")
    ok $(has "$got" alpha-1 && has "$got" beta-2 && has_not "$got" default-3 && echo 0 || echo 1) \
        "label: $c --db DB <TAB> gives that store's labels"
done
got=$(complete_words "$FSBENCH" show --db "$DB" b)
is "$got" "beta-2" "label: show --db DB b -> beta-2"
got=$(complete_words "$FSBENCH" forget "")
is "$got" "default-3" "label: forget <TAB> reads the default store"
got=$(complete_words "$FSBENCH" run "")
ok $(has_not "$got" alpha-1 && has "$got" basic && echo 0 || echo 1) "run <TAB>: scenarios, not labels"

# quiet on errors: a store that is not one, a missing binary
printf 'not a database' >"$SCRATCH/bad.db"
got=$(complete_words "$FSBENCH" show --db "$SCRATCH/bad.db" "")
is "$got:$(cat "$SCRATCH/cerr")" ":" "a broken store: no completions, nothing on stderr"
got=$(complete_words "$SCRATCH/no-such-fsbench" show "")
is "$got:$(cat "$SCRATCH/cerr")" ":" "a missing binary: no completions, nothing on stderr"

# with bash-completion itself loaded (as an interactive shell has it)
BC=/usr/share/bash-completion/bash_completion
if [ -r "$BC" ]; then
    got=$(bash -c '. "$1"; . "$2"; shift 2; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _fsbench; printf "%s\n" "${COMPREPLY[@]}"' _ "$BC" "$COMPLETION" "$FSBENCH" show --db "$DB" al 2>&1)
    is "$got" "alpha-1" "with bash-completion loaded: show --db DB al -> alpha-1"
else
    skip "bash-completion is not installed" 1
fi

# a series (issue 33): history takes labels, bisect its verdict and labels, run --meta
got=$(complete_words "$FSBENCH" history --db "$DB" al)
is "$got" "alpha-1" "history: a label from the store"
got=$(complete_words "$FSBENCH" history --by k)
is "$got" "kernel" "history --by k -> kernel"
got=$(complete_words "$FSBENCH" history --fa)
is "$got" "--fail-on" "history --fa -> --fail-on"
got=$(complete_words "$FSBENCH" bisect ver)
is "$got" "verdict" "bisect ver -> verdict"
got=$(complete_words "$FSBENCH" bisect verdict --db "$DB" --good be)
is "$got" "beta-2" "bisect verdict --good: a label"
got=$(complete_words "$FSBENCH" run --me)
is "$got" "--meta" "run --me -> --meta"
got=$(complete_words "$FSBENCH" run --db "$DB" --bisect-good be)
is "$got" "beta-2" "run --bisect-good: a label"
got=$(complete_words "$FSBENCH" cmd --db "$DB" --bisect-bad al)
is "$got" "alpha-1" "cmd --bisect-bad: a label"
got=$(complete_words "$FSBENCH" run --bisect-e)
is "$got" "--bisect-exit" "run --bisect-e -> --bisect-exit"
done_testing
