/* sig.c — signal dispositions for a running fsbench (see sig.h).
 *
 * Invariants: the handlers touch only the flag (an atomic int), sigaction() and the
 * registered fatal functions; nothing allocates or takes a lock. The fault signals keep
 * the action they had before (a sanitizer installs its own), so that a real fault is still
 * reported the way it was, after our cleanup.
 */
#include "base/sig.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"

/* Signals that end the process by default and only ask fsbench to stop. */
const int sig_caught[] = {
    SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
    SIGXCPU, SIGXFSZ,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
    0,
};

/* Signals a fault raises; sent by another process they are interrupts too. */
static const int sig_faults[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGSYS, SIGTRAP, 0};

#define SIG_FATAL_MAX 8
static void (*sig_fatal_fns[SIG_FATAL_MAX])(void);
static volatile sig_atomic_t sig_nfatal;
static volatile atomic_int *sig_flag;
static struct sigaction sig_old[65];

static const struct {
    int sig;
    const char *name;
} sig_names[] = {
    {SIGINT, "SIGINT"},       {SIGTERM, "SIGTERM"},   {SIGHUP, "SIGHUP"},
    {SIGQUIT, "SIGQUIT"},     {SIGUSR1, "SIGUSR1"},   {SIGUSR2, "SIGUSR2"},
    {SIGALRM, "SIGALRM"},     {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"},
    {SIGXCPU, "SIGXCPU"},     {SIGXFSZ, "SIGXFSZ"},   {SIGABRT, "SIGABRT"},
    {SIGSEGV, "SIGSEGV"},     {SIGBUS, "SIGBUS"},     {SIGILL, "SIGILL"},
    {SIGFPE, "SIGFPE"},       {SIGSYS, "SIGSYS"},     {SIGTRAP, "SIGTRAP"},
    {SIGPIPE, "SIGPIPE"},
#ifdef SIGPOLL
    {SIGPOLL, "SIGPOLL"},
#endif
#ifdef SIGSTKFLT
    {SIGSTKFLT, "SIGSTKFLT"},
#endif
#ifdef SIGPWR
    {SIGPWR, "SIGPWR"},
#endif
    {0, NULL},
};

const char *sig_name(int sig, char *buf, size_t len)
{
    for (size_t i = 0; sig_names[i].name; i++)
        if (sig_names[i].sig == sig) {
            snprintf(buf, len, "%s", sig_names[i].name);
            return buf;
        }
#ifdef SIGRTMIN
    /* as kill -l names them: the lower half from SIGRTMIN up, the upper from SIGRTMAX down */
    if (sig >= SIGRTMIN && sig <= SIGRTMAX) {
        int up = sig - SIGRTMIN, down = SIGRTMAX - sig;
        if (up == 0)
            snprintf(buf, len, "SIGRTMIN");
        else if (down == 0)
            snprintf(buf, len, "SIGRTMAX");
        else if (up <= (SIGRTMAX - SIGRTMIN) / 2)
            snprintf(buf, len, "SIGRTMIN+%d", up);
        else
            snprintf(buf, len, "SIGRTMAX-%d", down);
        return buf;
    }
#endif
    snprintf(buf, len, "signal %d", sig);
    return buf;
}

static void sig_on_interrupt(int sig)
{
    if (sig_flag)
        atomic_store(sig_flag, sig);
}

static void sig_run_fatal(void)
{
    /* each runs once, even if one of them faults in turn */
    while (sig_nfatal > 0) {
        void (*fn)(void) = sig_fatal_fns[--sig_nfatal];
        if (fn)
            fn();
    }
}

static void sig_on_fault(int sig, siginfo_t *si, void *uc)
{
    /* sent by another process (kill, timeout -s): an interrupt like SIGINT */
    if (si && (si->si_code == SI_USER || si->si_code == SI_QUEUE) && si->si_pid != getpid()) {
        sig_on_interrupt(sig);
        return;
    }
    sig_run_fatal();
    /* the earlier action takes the fault from here: returning re-executes the faulting
     * instruction (or abort() raises again) */
    struct sigaction *old = sig < 65 ? &sig_old[sig] : NULL;
    if (old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        sigaction(sig, old, NULL);
        old->sa_sigaction(sig, si, uc);
        return;
    }
    if (old && old->sa_handler != SIG_IGN && old->sa_handler != SIG_DFL && old->sa_handler) {
        sigaction(sig, old, NULL);
        old->sa_handler(sig);
        return;
    }
    signal(sig, SIG_DFL);
    if (si && si->si_code <= 0) /* raised or sent by ourselves: raise it again */
        raise(sig);
}

int sig_stop_requested(void)
{
    return sig_flag ? atomic_load(sig_flag) : 0;
}

void sig_at_fatal(void (*fn)(void))
{
    for (sig_atomic_t i = 0; i < sig_nfatal; i++)
        if (sig_fatal_fns[i] == fn)
            return;
    if (sig_nfatal < SIG_FATAL_MAX)
        sig_fatal_fns[sig_nfatal++] = fn;
}

static int sig_set(int sig, struct sigaction *sa, struct sigaction *old)
{
    if (sigaction(sig, sa, old) < 0) {
        char name[32];
        return error_errno("cannot handle %s", sig_name(sig, name, sizeof name));
    }
    return 0;
}

int sig_ignore_pipe(void)
{
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    sigemptyset(&ign.sa_mask);
    ign.sa_handler = SIG_IGN;
    return sig_set(SIGPIPE, &ign, NULL);
}

int sig_install(volatile atomic_int *flag)
{
    sig_flag = flag;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = sig_on_interrupt;
    /* a signal ignored when fsbench started stays ignored (nohup's SIGHUP, a shell's
     * background jobs' SIGINT): whoever started it asked for that */
    for (size_t i = 0; sig_caught[i]; i++) {
        struct sigaction cur;
        if (sigaction(sig_caught[i], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN)
            continue;
        if (sig_set(sig_caught[i], &sa, NULL) < 0)
            return -1;
    }
#ifdef SIGRTMIN
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++) {
        struct sigaction cur;
        if (sigaction(s, NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
            sigaction(s, &sa, NULL); /* best effort: some may be the C library's */
    }
#endif
    struct sigaction fa;
    memset(&fa, 0, sizeof fa);
    sigemptyset(&fa.sa_mask);
    fa.sa_sigaction = sig_on_fault;
    fa.sa_flags = SA_SIGINFO | SA_NODEFER;
    for (size_t i = 0; sig_faults[i]; i++) {
        struct sigaction old;
        if (sig_set(sig_faults[i], &fa, &old) < 0)
            return -1;
        /* installing twice must not make our own handler the "earlier" one */
        if (!((old.sa_flags & SA_SIGINFO) && old.sa_sigaction == sig_on_fault))
            sig_old[sig_faults[i]] = old;
    }
    return sig_ignore_pipe();
}

void sig_child_reset(void)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    sigemptyset(&dfl.sa_mask);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGPIPE, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}
