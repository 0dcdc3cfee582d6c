#!/bin/bash
# The README's front door stays true (issue 32): its two quick-start commands exist in
# setup.sh, and each of "The ten commands" names a command of this fsbench with options
# that command's --help lists; the run lines plan with --dry-run (nothing runs); the guide
# it points to is there.
. "$(dirname "$0")/../lib/tap.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
README=$ROOT/README.md
[ -r "$README" ] || skip_all "no README.md"

like "$(cat "$README")" "\./setup\.sh run" "the quick start names ./setup.sh run"
like "$(cat "$README")" "\./setup\.sh test" "and ./setup.sh test"
like "$(sed -n '/^case/,/^esac/p' "$ROOT/setup.sh")" "^run\)" "setup.sh has run"
like "$(sed -n '/^case/,/^esac/p' "$ROOT/setup.sh")" "^test\)" "setup.sh has test"
ok $([ -r "$ROOT/docs/guide.md" ] && echo 0 || echo 1) "the guide the README points to is there"

# the block under "## The ten commands": indented lines starting with fsbench
CMDS=$(awk '/^## The ten commands/ { on = 1; next } on && /^## / { exit }
            on && /^    fsbench / { sub(/^    /, ""); sub(/ +#.*$/, ""); print }' "$README")
is "$(printf '%s\n' "$CMDS" | grep -c .)" 10 "ten commands"
while IFS= read -r line; do
    read -r -a w <<<"$line"
    sub=${w[1]}
    help=$("$FSBENCH" "$sub" --help 2>&1)
    is "$?" 0 "'$line': $sub is a command"
    bad=""
    for a in "${w[@]:2}"; do
        case $a in
        --) ;;
        --*) printf '%s\n' "$help" | grep -q -- "${a%%=*}\b" || bad="$bad $a" ;;
        esac
    done
    is "$bad" "" "'$line': every option is one of $sub's"
done <<<"$CMDS"

# the run lines plan (a directory of its own instead of /mnt/test; no root needed to plan)
mkdir -p "$SCRATCH/d"
while IFS= read -r line; do
    read -r -a w <<<"$line"
    [ "${w[1]}" = run ] || continue
    args=("${w[@]:2}")
    for i in "${!args[@]}"; do [ "${args[$i]}" = /mnt/test ] && args[$i]=$SCRATCH/d; done
    run_fsbench run "${args[@]}" --dry-run --no-save
    is "$RC" 0 "'$line' --dry-run: plans (exit 0)"
    [ "$RC" -eq 0 ] || diag "$ERR"
done <<<"$CMDS"
done_testing
