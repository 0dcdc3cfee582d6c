/* phase_tarextract.h — the extract phase for a real archive (a tarsrc): streamed on one
 * thread (phase_tarextract.c) or from the archive's index on several (phase_tarextract_par.c).
 */
#ifndef FSBENCH_PHASE_TAREXTRACT_H
#define FSBENCH_PHASE_TAREXTRACT_H

#include "phase/phase.h"
#include "tree/tarsrc.h"

/* The extract phase for an archive: creates each entry through ctx->eng below root_fd (an
 * fd of ctx->eng's, owned by the caller, an empty directory): mkdir, open(O_CREAT|O_EXCL)
 * + write of the data (pwrite for sparse parts, ftruncate for a trailing hole) + close,
 * symlink, link, with the calls on each entry that phase_extract_calls(ctx) names
 * (tarcalls.h: tar -x's times, and as root owner and mode, a directory's when the archive
 * has left it; or none); with ENG_CREATE_FSYNC in ctx->create_flags an fsync before each
 * file's close. root_fd gets its own from a "./" entry. With tar's calls on one thread the
 * archive is streamed, so the calls come in tar's order; else an indexed archive runs on
 * phase_threads(ctx) threads (phase_tarextract_par.c), and another is streamed on one,
 * saying so once in a warning when more were asked for. Counts ctx->res->files (regular
 * files and hard links), dirs and symlinks. Refused entries each get a warning (the first
 * 10; then one "N more entries refused"). Returns 0, or -1 after phase_fail() (an engine
 * error, a signal, or a read error of the archive with the reason in res->note as
 * "read tar:PATH: ..."); what was created so far is left for the caller to remove. */
int phase_extract_tar(struct phase_ctx *ctx, struct tarsrc *src, int root_fd);

/* The two ways phase_extract_tar extracts (the tests compare them): from the index on
 * phase_threads(ctx) threads (phase_tarextract_par.c; only for an indexed archive), and
 * streaming on the calling thread (phase_tarextract.c; any archive). */
int phase_extract_tar_par(struct phase_ctx *ctx, struct tarsrc *src, int root_fd);
int phase_extract_tar_stream(struct phase_ctx *ctx, struct tarsrc *src, int root_fd);

#endif
