#!/bin/bash
# The layout of src/: no include from a lower stage to a higher one, no include circle,
# private headers kept private (tools/layering), and Linux-only calls only in src/os/ and
# the io_uring engine (tools/linux-calls), on the real tree and on made-up trees that break
# each rule, so the checkers are shown to catch what they claim to.
. "$(dirname "$0")/../lib/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECK="$ROOT/tools/layering"

out=$("$CHECK" "$ROOT/src" 2>&1); rc=$?
is "$rc" 0 "src/ has no layering violation"
like "$out" "^layering: [0-9]+ modules, [0-9]+ includes, 0 violations$" "summary line"

# A made-up tree: tree/ includes run/ (upward), a circle between two tree modules, a private
# header used by another module, an unknown folder, an include without its folder.
fake="$SCRATCH/src"
mkdir -p "$fake/tree" "$fake/run" "$fake/base" "$fake/extra"
printf '#include "run/runner.h"\n' >"$fake/tree/tree.c"
: >"$fake/run/runner.h"
printf '#include "tree/b.h"\n' >"$fake/tree/a.h"
printf '#include "tree/a.h"\n' >"$fake/tree/b.h"
: >"$fake/base/err_internal.h"
printf '#include "base/err_internal.h"\n#include "err.h"\n' >"$fake/base/other.c"
: >"$fake/extra/x.c"
out=$("$CHECK" "$fake" 2>&1); rc=$?
is "$rc" 1 "violations give exit status 1"
like "$out" "tree/tree.c:1: upward include of \"run/runner.h\"" "upward include named with file:line"
like "$out" "include circle: (a -> b -> a|b -> a -> b)" "circle named"
like "$out" "base/other.c:1: \"base/err_internal.h\" is private" "private header named"
like "$out" "base/other.c:2: include \"err.h\" does not name its folder" "include without folder"
like "$out" "extra/x.c: folder 'extra' is not a known stage" "unknown folder named"
like "$out" "5 violations$" "every violation counted"

out=$("$ROOT/tools/linux-calls" "$ROOT/src" 2>&1); rc=$?
is "$rc" 0 "no Linux-only call outside src/os/ and the io_uring engine"
like "$out" "^linux-calls: 0 outside src/os/$" "linux-calls summary line"

fake="$SCRATCH/src2"
mkdir -p "$fake/phase" "$fake/os"
cat >"$fake/phase/walk.c" <<'C'
/* getdents64(fd, buf, len) in a comment does not count */
static long f(int fd, void *b) { return getdents64(fd, b, 4096); }
static const char *io = "/proc/self/io";
static int g(struct eng *e, int fd) { return e->syncfs(fd); }
C
printf 'long os_getdents(int fd, void *b) { return getdents64(fd, b, 4096); }\n' >"$fake/os/linux_dirent.c"
out=$("$ROOT/tools/linux-calls" "$fake" 2>&1); rc=$?
is "$rc" 1 "a Linux-only call outside src/os/ gives exit status 1"
like "$out" "phase/walk.c:2:" "the call is named with file:line"
like "$out" "phase/walk.c:3:" "a /proc path is named"
like "$out" "^linux-calls: 2 outside src/os/$" "comments, os/ and engine operations are not counted"

done_testing
