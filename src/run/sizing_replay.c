/* sizing_replay.c — what aging by replay (--age-replay T.fsbt) will write, for a dry run's
 * space check: the trace's own bytes written a repetition times the repetitions its stops
 * allow (sizing.h, struct sizing_replay), instead of --age-written's multiple of the file
 * system, which a small trace never reaches.
 */
#include "run/sizing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "phase/workload.h"

/* Lowers r->reps to n (with its basis) when n is fewer. */
static void cap(struct sizing_replay *r, double n, const char *basis)
{
    if (n < 1)
        n = 1;
    if (r->reps && n >= (double)r->reps)
        return;
    r->reps = n > WL_AGE_REPLAY_MOST ? WL_AGE_REPLAY_MOST : (unsigned)n;
    snprintf(r->basis, sizeof r->basis, "%s", basis);
}

void sizing_age_replay(const struct phase_params *p, double until_x, uint64_t fs_bytes,
                       uint64_t rep_written, uint64_t rep_state, struct sizing_replay *r)
{
    memset(r, 0, sizeof *r);
    r->rep_written = rep_written;
    r->rep_state = rep_state;
    double fs = (double)fs_bytes, w = (double)rep_written;
    char b[96];
    r->reps = WL_AGE_REPLAY_MOST;
    snprintf(r->basis, sizeof r->basis, "the repetition limit");
    if (until_x > 0) { /* steps: no cap on the times, no convergence; the last step's total */
        snprintf(b, sizeof b, "the last step, %gx", until_x);
        if (w > 0)
            cap(r, ceil(until_x * fs / w), b);
    } else {
        unsigned times = p ? p->age_replay_times : 1;
        bool prof = p && p->age_profile;
        if (!times && !prof)
            times = 1;
        if (times) {
            if (p && p->age_replay_times)
                snprintf(b, sizeof b, "--age-replay-times %u", times);
            else
                snprintf(b, sizeof b, "no --age-replay-times or --age-profile");
            cap(r, times, b);
        }
        double want = p ? p->age_written : WL_DEFAULT_AGE_WRITTEN;
        if (want > 0 && w > 0) {
            snprintf(b, sizeof b, "--age-written %gx", want);
            cap(r, ceil(want * fs / w), b);
        }
        r->may_converge = prof && p->age_converge > 0;
    }
    if (w > 0) {
        snprintf(b, sizeof b, "the safety limit, %gx", WL_AGE_SAFETY);
        cap(r, ceil(WL_AGE_SAFETY * fs / w), b);
    } else {
        cap(r, 1, "a repetition that writes nothing stops it");
    }
    r->written = (uint64_t)r->reps * rep_written;
    r->laid = (uint64_t)r->reps * (rep_written + rep_state);
}

const char *sizing_age_replay_text(const struct sizing_replay *r, const char *trace,
                                   uint64_t fs_bytes, char *buf, size_t len)
{
    char w[32], st[32], all[32], laid[32], fs[32];
    units_bytes(w, sizeof w, (double)r->rep_written);
    units_bytes(st, sizeof st, (double)r->rep_state);
    units_bytes(all, sizeof all, (double)r->written);
    units_bytes(laid, sizeof laid, (double)r->laid);
    units_bytes(fs, sizeof fs, (double)fs_bytes);
    const char *base = trace ? strrchr(trace, '/') : NULL;
    base = base && base[1] ? base + 1 : trace ? trace : "the trace";
    char times[48], state[64] = "";
    if (r->reps == 1)
        snprintf(times, sizeof times, "once");
    else
        snprintf(times, sizeof times, "up to %u times", r->reps);
    if (r->rep_state)
        snprintf(state, sizeof state, " and lays %s of initial state first", st);
    int n = snprintf(buf, len,
                     "replays %s %s (%s); a repetition writes %s (the trace's bytes written)%s: "
                     "%s%s in all (%.2fx its %s)",
                     base, times, r->basis, w, state, r->reps > 1 ? "up to " : "", all,
                     fs_bytes ? (double)r->written / (double)fs_bytes : 0, fs);
    if (n >= 0 && (size_t)n < len && r->rep_state)
        n += snprintf(buf + n, len - (size_t)n, ", %s with the initial states", laid);
    if (n >= 0 && (size_t)n < len && r->may_converge)
        snprintf(buf + n, len - (size_t)n, "; fewer if it converges to the profile");
    return buf;
}
