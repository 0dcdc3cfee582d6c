/* run_target.c — the managed target of `fsbench run` (--image, --device, --fs,
 * --mount-opts, --mkfs-opts): the configuration matrix, and the checks made before anything
 * is touched: the image's size for each file system, a device that is a block device, named
 * on this command line and consented to there (run_consent.h: never by a job file or a
 * stored set), and a resumed set's device.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"
#include "base/text.h"
#include "run/run_consent.h"
#include "run/run_resume.h"
#include "run/run_target.h"
#include "target/fsopts.h"
#include "target/target.h"

/* The device a run would mkfs: a block device (a regular file is refused now, with --dry-run
 * too), named on this command line (--device DEV or --destroy-data=DEV: a device that only a
 * job file or a stored set names is not destroyed by bare consent), and consented to on this
 * command line (run_consent(): never from the arguments this run was given by a job file or
 * a stored set). Sets spec->destroy_data and spec->force from that consent alone. With
 * dry_run a device without consent is shown, not refused. 0, or -1 after error(). */
static int check_device(struct target_spec *spec, bool dry_run)
{
    const char *dev = spec->device;
    const struct run_consent *cs = run_consent();
    const char *named = run_consent_device();
    struct stat st;
    spec->destroy_data = false;
    spec->force = false;
    if (stat(dev, &st) == 0 && S_ISREG(st.st_mode))
        return error("--device %s: a regular file, not a block device (--image SIZE makes an "
                     "image fsbench owns)",
                     dev);
    if (stat(dev, &st) == 0 && !S_ISBLK(st.st_mode))
        return error("--device %s: not a block device", dev);
    const struct run_set *resumed = run_resuming(NULL);
    if (resumed && cs->device && !run_consent_same_device(cs->device, dev))
        return error("--resume: '%s' runs on the device %s, not %s: the plan changed, so it "
                     "cannot be finished",
                     resumed->label, dev, cs->device);
    if (named && !run_consent_same_device(named, dev))
        return error("%s %s on the command line, but mkfs would destroy %s (named by %s): "
                     "refusing a device the command line does not name",
                     cs->destroy_dev ? "--destroy-data=" : "--device", named, dev,
                     resumed ? "the stored set" : "the job file");
    if (resumed && (!cs->destroy_data || !named) && !dry_run)
        return error("--resume: '%s' runs on the device %s, whose data mkfs destroys: name it "
                     "and consent again on the command line (--device %s --destroy-data%s)",
                     resumed->label, dev, dev, cs->force ? " --force" : "");
    if (!cs->destroy_data) {
        if (dry_run)
            return 0;
        return error("--device %s: refusing to use it without --destroy-data on the command "
                     "line: mkfs would destroy its data",
                     dev);
    }
    if (!named) {
        if (dry_run)
            return 0;
        return error("--destroy-data: the command line does not name %s, the device the job "
                     "file names: name it there (--device %s or --destroy-data=%s) to destroy "
                     "its data",
                     dev, dev, dev);
    }
    spec->destroy_data = true;
    spec->force = cs->force;
    return 0;
}

/* Builds the configuration matrix (file systems x mount option sets) and checks the target
 * options. 0, or an exit status after error(). */
int run_target_setup(struct target_args *ta, struct runner_opts *ro, bool dry_run)
{
    bool managed = ta->image || ta->spec.device;
    const struct run_set *resumed = run_resuming(NULL);
    if (resumed && run_consent()->device && !ta->spec.device)
        return error("--resume: '%s' does not run on a device (--device %s): the plan changed, "
                     "so it cannot be finished",
                     resumed->label, run_consent()->device),
               EXIT_USAGE;
    if (!managed) {
        if (ta->fs_list || ta->nmount || ta->spec.mkfs_opts || ro->keep_fs)
            return error("--fs, --mkfs-opts, --mount-opts and --keep-fs need --image SIZE or "
                         "--device DEV"), EXIT_USAGE;
        for (size_t i = 0; i < ro->nphases; i++)
            if (ro->phases[i]->flags & PHASE_NEEDS_TARGET)
                return error("phase %s needs a managed target (--image SIZE or --device DEV)",
                             ro->phases[i]->name), EXIT_USAGE;
        return 0;
    }
    if (ta->image && ta->spec.device)
        return error("--image and --device exclude each other"), EXIT_USAGE;
    if (ro->dir)
        return error("--dir and --image/--device exclude each other: fsbench mounts the "
                     "target itself"), EXIT_USAGE;
    if (ta->image && target_parse_size(ta->image, &ta->spec.image_bytes) < 0)
        return error("--image: '%s' is not a size (e.g. 512M, 4G)", ta->image), EXIT_USAGE;
    if (ta->spec.device && check_device(&ta->spec, dry_run) < 0)
        return EXIT_USAGE;
    snprintf(ta->fs_buf, sizeof ta->fs_buf, "%s", ta->fs_list ? ta->fs_list : "ext4");
    for (char *save = NULL, *f = strtok_r(ta->fs_buf, ",", &save); f;
         f = strtok_r(NULL, ",", &save)) {
        if (ta->nfs == MAX_FS)
            return error("--fs: at most %d file systems", MAX_FS), EXIT_USAGE;
        ta->fs[ta->nfs++] = f;
    }
    if (!ta->nfs)
        return error("--fs: no file system named"), EXIT_USAGE;
    for (size_t i = 0; ta->image && i < ta->nfs; i++) {
        uint64_t min = target_min_image(ta->fs[i]);
        bool mib = min >= (1u << 20);
        if (ta->spec.image_bytes < min)
            return error("--image %s: too small for %s: mkfs.%s needs at least %" PRIu64
                         " %s (give --image %" PRIu64 "%s or more)",
                         ta->image, ta->fs[i], ta->fs[i], mib ? min >> 20 : min >> 10,
                         mib ? "MiB" : "KiB", mib ? min >> 20 : min >> 10, mib ? "M" : "K"),
                   EXIT_USAGE;
    }
    /* mkfs and mount options are data: only what the file system's allow-list takes. An
     * option no file system named takes is bad usage; one that some take fails only the
     * configurations of the others, in the pre-flight (--skip-bad runs the rest). */
    char why[1024], first[1024] = "";
    bool mkfs_ok = false;
    for (size_t i = 0; i < ta->nfs; i++) {
        if (fsopts_check_mkfs(ta->fs[i], ta->spec.mkfs_opts, why, sizeof why) == 0)
            mkfs_ok = true;
        else if (!first[0])
            snprintf(first, sizeof first, "%s", why);
    }
    if (!mkfs_ok)
        return error("--mkfs-opts: %s", first), EXIT_USAGE;
    for (size_t j = 0; j < ta->nmount; j++) {
        bool ok = false;
        first[0] = '\0';
        for (size_t i = 0; i < ta->nfs; i++) {
            if (fsopts_check_mount(ta->fs[i], ta->mount_opts[j], why, sizeof why) == 0)
                ok = true;
            else if (!first[0])
                snprintf(first, sizeof first, "%s", why);
        }
        if (!ok)
            return error("--mount-opts: %s", first), EXIT_USAGE;
    }
    if (geteuid() != 0)
        return error("--image and --device need root (mkfs, loop devices, mount)"), EXIT_USAGE;
    /* a missing mkfs is the pre-flight's to say, with every other failure at once */
    if (ro->keep_fs && ta->nfs > 1 && !ro->no_interleave)
        return error("--keep-fs with several --fs needs --no-interleave: there is one image, "
                     "so interleaved rounds would mkfs it before every run"), EXIT_USAGE;
    if (!ta->nmount)
        ta->mount_opts[ta->nmount++] = "defaults";
    /* a configuration is named fs:mount-opts, a name others print and type */
    struct text_flaw fl;
    for (size_t j = 0; j < ta->nmount; j++)
        if (text_check(ta->mount_opts[j], strlen(ta->mount_opts[j]), 0, &fl) < 0)
            return error("--mount-opts: '%s' holds %s", ta->mount_opts[j], fl.what), EXIT_USAGE;
    for (size_t i = 0; i < ta->nfs; i++)
        if (text_check(ta->fs[i], strlen(ta->fs[i]), 0, &fl) < 0)
            return error("--fs: '%s' holds %s", ta->fs[i], fl.what), EXIT_USAGE;
    for (size_t i = 0; i < ta->nfs; i++)
        for (size_t j = 0; j < ta->nmount; j++) {
            if (ro->nconfigs == RUNNER_MAX_CONFIGS)
                return error("too many configurations (at most %d)", RUNNER_MAX_CONFIGS),
                       EXIT_USAGE;
            struct runner_config *c = &ro->configs[ro->nconfigs++];
            c->fstype = ta->fs[i];
            c->mount_opts = ta->mount_opts[j];
            snprintf(c->name, sizeof c->name, "%s:%s", ta->fs[i], ta->mount_opts[j]);
            /* the same set twice (an A/A check) gets a distinct name */
            for (size_t k = 0; k + 1 < ro->nconfigs; k++)
                if (!strcmp(ro->configs[k].name, c->name)) {
                    char base[RES_NAME_MAX];
                    snprintf(base, sizeof base, "%s", c->name);
                    snprintf(c->name, sizeof c->name, "%.58s#%zu", base, ro->nconfigs);
                    break;
                }
        }
    ro->tspec = &ta->spec;
    return 0;
}
