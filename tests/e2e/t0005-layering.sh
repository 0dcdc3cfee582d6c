#!/bin/bash
# The layout of src/: no include from a lower stage to a higher one, no include circle,
# private headers kept private (tools/layering), and Linux-only calls only in src/os/ and
# the io_uring engine (tools/linux-calls), on the real tree and on made-up trees that break
# each rule, so the checkers are shown to catch what they claim to.
. "$(dirname "$0")/../lib/tap.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECK="$ROOT/tools/layering"

out=$("$CHECK" "$ROOT/src" 2>&1); rc=$?
is "$rc" 0 "src/ has no layering violation and no file circle"
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

# File circles inside a folder: two files that call each other (directly, and through a
# third), a function pointer in an initializer, a global used by another file; static
# names and the linux_/posix_ twins of os/ make none; a prototype alone is no definition.
fake="$SCRATCH/src3"
mkdir -p "$fake/phase" "$fake/os" "$fake/trace"
cat >"$fake/phase/a.c" <<'C'
/* a_run(); in a comment does not count, nor "b_helper()" in a string */
static int a_local(void) { return 1; }
int b_helper(void);
int a_run(void)
{
    return b_helper() + a_local();
}
C
cat >"$fake/phase/b.c" <<'C'
static int a_local(void) { return 2; }
int b_helper(void) { return a_local(); }
int b_more(void) { return c_count; }
C
cat >"$fake/phase/c.c" <<'C'
int c_count = 3;
const struct ops c_ops = {.run = a_run};
C
cat >"$fake/os/linux_x.c" <<'C'
int os_x(void) { return 1; }
int os_y(void) { return os_x(); }
C
cat >"$fake/os/posix_x.c" <<'C'
int os_x(void) { return 2; }
int os_y(void) { return os_x(); }
C
cat >"$fake/trace/p.c" <<'C'
int p_one(void) { return q_two(); }
C
cat >"$fake/trace/q.c" <<'C'
int q_two(void) { return p_one(); }
C
out=$("$CHECK" "$fake" 2>&1); rc=$?
is "$rc" 1 "a file circle gives exit status 1"
like "$out" "file circle: phase/a.c -> phase/b.c -> phase/c.c -> phase/a.c \\(phase/a.c uses b_helper; phase/b.c uses c_count; phase/c.c uses a_run\\)" \
    "a circle through three files is named with what each uses"
like "$out" "file circle: trace/p.c -> trace/q.c -> trace/p.c" "a two-file circle is named"
! grep -q "os/" <<<"$out"; ok $? "os/linux_x.c and os/posix_x.c are alternatives, not a circle"
like "$out" "2 violations$" "each circle counted once"
out=$("$CHECK" --except trace/ "$fake" 2>&1); rc=$?
! grep -q "trace/p.c" <<<"$out"; ok $? "--except leaves out a circle all of whose files have the prefix"
like "$out" "1 violations$" "the others stay"
rm "$fake/phase/c.c"
out=$("$CHECK" --except trace/ "$fake" 2>&1); rc=$?
is "$rc" 0 "one-way use is no circle (a.c uses b.c; b.c names no function of a.c's)"

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
