#!/bin/bash
# setup.sh — the README's quick start on a fresh Debian machine, as root.
#   ./setup.sh run    install what is missing, build (quietly: errors in full, no command
#                     lines), put fsbench on PATH (links in /usr/local: the binary, the man
#                     page and the bash completion, to this build), run the basic scenario in
#                     a temporary directory and print the results table
#   ./setup.sh test   install what is missing, then build with gcc and clang (-Werror) and pass
#                     the whole test suite, also under AddressSanitizer and UBSan; the
#                     POSIX-only build must build and pass its unit tests, and every parser
#                     of outside input is fuzzed for a fixed time
set -euo pipefail
cd "$(dirname "$0")"

install_packages() {
    local want missing=()
    want=$(grep -v '^#' debian-packages.txt | grep -v '^$')
    for p in $want; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        echo "setup: installing packages needs root (sudo $0 $*)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Links in PREFIX (/usr/local) to this build: fsbench on PATH, `man fsbench` and the bash
# completion, so the README's commands work as written; a rebuild is picked up. Prints
# where fsbench is, or how to get it there when PREFIX is not writable.
link_fsbench() {
    local prefix=${PREFIX:-/usr/local} here=$PWD
    if ! { mkdir -p "$prefix/bin" "$prefix/share/man/man1" \
               "$prefix/share/bash-completion/completions" &&
           ln -sfn "$here/build/fsbench" "$prefix/bin/fsbench" &&
           ln -sfn "$here/docs/fsbench.1" "$prefix/share/man/man1/fsbench.1" &&
           ln -sfn "$here/completion/fsbench.bash" \
               "$prefix/share/bash-completion/completions/fsbench"; } 2>/dev/null; then
        echo "setup: could not link fsbench into $prefix (not root?): run it as $here/build/fsbench, or sudo $0 run"
        return 0
    fi
    echo "setup: fsbench is on PATH: $prefix/bin/fsbench -> $here/build/fsbench"
    echo "setup: also linked: man fsbench, and the bash completion (see the README, \"Bash completion\")"
    case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "setup: $prefix/bin is not on your PATH: add it, or run $here/build/fsbench" ;;
    esac
}

jobs=$(nproc 2>/dev/null || echo 2)
case "${1:-}" in
run)
    install_packages
    echo "setup: building fsbench (make -s -j$jobs)"
    make -s -j"$jobs"
    rc=0
    ./build/fsbench run || rc=$?
    echo
    link_fsbench
    echo "setup: next: fsbench --help, fsbench list, man fsbench; the guide: docs/guide.md"
    exit $rc
    ;;
test)
    install_packages
    # gcc: full suite; the MPI build first, so that its end-to-end tests (t10xx) run too
    make -s -j"$jobs" MPI=1
    make -s -j"$jobs" CC=gcc
    make check CC=gcc
    # clang: must build clean with -Werror; run the unit tests with it too
    make -s -j"$jobs" CC=clang BUILD=build-clang
    make unit CC=clang BUILD=build-clang
    # plain POSIX calls only (where a BSD port starts): must build, unit tests must pass
    make -s -j"$jobs" POSIX_ONLY=1
    make unit POSIX_ONLY=1
    # libFuzzer: every parser of outside input, 20 s each from the seed corpus
    make fuzz FUZZ_SECONDS=20
    # AddressSanitizer + UndefinedBehaviorSanitizer: full suite (last, so the run ends with
    # prove's summary line)
    make -s -j"$jobs" SAN=1
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
        make check SAN=1
    ;;
*)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
