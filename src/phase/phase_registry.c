/* phase_registry.c — the table of every phase: name, description, flags and run function.
 * It sits above the phase families (workload.h declares theirs) so that no family needs to
 * know the others. */
#include "phase/phase_registry.h"

#include <string.h>

#include "phase/replay.h"
#include "phase/workload.h"

const struct phase_def phase_table[] = {
    {"extract", "create the tree: mkdir, create+write every file, symlinks (like tar -x)", 0,
     phase_extract},
    {"sync", "syncfs of the target file system (like sync)", 0, phase_sync},
    {"dropcaches", "sync, then drop page, dentry and inode caches (root only)",
     PHASE_NEEDS_ROOT, phase_dropcaches},
    {"walk", "readdir every directory of the tree (like find)", PHASE_READS_TREE, phase_walk},
    {"statwalk", "readdir and lstat every entry (like find -ls)", PHASE_READS_TREE,
     phase_statwalk},
    {"read", "read every file to the end (like tar -c >/dev/null)",
     PHASE_ASYNC_GAINS | PHASE_READS_TREE, phase_read},
    {"copy", "copy the tree with modes and times to a sibling (like cp -a, cpdup)",
     PHASE_READS_TREE, phase_copy},
    {"delete", "remove the tree and its copy (like rm -rf)", 0, phase_delete},
    {"umount", "unmount the target, including the flush of everything dirty (root)",
     PHASE_NEEDS_ROOT | PHASE_NEEDS_TARGET, phase_umount},
    {"mount", "mount the target with the configuration's options (root)",
     PHASE_NEEDS_ROOT | PHASE_NEEDS_TARGET, phase_mount},
    {"remount", "umount + mount: the phases after it start with cold caches (root)",
     PHASE_NEEDS_ROOT | PHASE_NEEDS_TARGET, phase_remount},
    {"createsync", "create+write+fsync+close every file of the tree (fs_mark -S 1)", 0,
     phase_createsync},
    {"fsyncstorm",
     "rewrite every file as CVS does: new version to ,name,, fsync, rename over the original",
     0, phase_fsyncstorm},
    {"cb_initial", "compilebench's initial create: -i kernel-shaped trees (tree/kernel-N)", 0,
     phase_cb_initial},
    {"cb_random",
     "compilebench's -r random operations: create, patch, compile, clean, read, delete, stat",
     0, phase_cb_random},
    {"age", "churn (create, append, truncate, delete, rename) until the fs is aged; once with "
            "--keep-fs",
     PHASE_KEEPS_TREE, phase_age},
    {"layout", "FIEMAP of every file: extents, layout score, directory locality", 0,
     phase_layout},
    {"cmd", "run a shell command (--cmd) and measure it and its children", 0, phase_cmd},
    {"replay", "replay a trace made by fsbench record (--replay FILE), its initial state laid "
               "down untimed",
     0, phase_replay},
    {NULL, NULL, 0, NULL},
};

/* The phases with an untimed preparation, and it. */
static const struct {
    const char *name;
    int (*setup)(struct phase_ctx *ctx);
} setup_table[] = {
    {"replay", phase_replay_setup},
    {NULL, NULL},
};

int phase_setup(const struct phase_def *ph, struct phase_ctx *ctx)
{
    for (size_t i = 0; setup_table[i].name; i++)
        if (!strcmp(setup_table[i].name, ph->name))
            return setup_table[i].setup(ctx);
    return 0;
}

const struct phase_def *phase_find(const char *name)
{
    for (const struct phase_def *p = phase_table; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}
