/* sig.h — how fsbench meets signals while it runs something (run, cmd).
 *
 * Every signal whose default action ends the process and that can be caught is caught:
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU,
 * SIGXFSZ, SIGPOLL, SIGSTKFLT, SIGPWR, the real-time signals, and SIGABRT, SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGSYS and SIGTRAP when another process sends them (a signal ignored
 * when fsbench started, as nohup does with SIGHUP, stays ignored). The handler only
 * stores the signal's number in the flag given to sig_install(); the phase under way stops
 * at its next check and the cleanup (unmount, detach, remove) runs to its end, so a signal
 * never leaves a mount, a loop device or an image behind. A second signal only stores its
 * number again.
 *
 * A real fault (the kernel's SIGSEGV, SIGBUS, ... or abort() from inside: a bug) cannot
 * continue: the functions registered with sig_at_fatal() run in the handler (they must be
 * async-signal-safe: unmount, detach, unlink), then the signal's earlier action (the
 * default, or a sanitizer's report) takes it from there.
 *
 * SIGPIPE is ignored: a closed standard output is an EPIPE write error that the command
 * reports, after finishing and saving its runs, never a silent death. Children get the
 * default dispositions back (sig_child_reset()), so a program run by fsbench behaves as
 * from a shell.
 */
#ifndef FSBENCH_SIG_H
#define FSBENCH_SIG_H

#include <stdatomic.h>
#include <stddef.h>

/* SIGPIPE ignored (every command, from main): a closed standard output is a write error
 * the command reports in one line, exit 1. 0, or -1 after error(). */
int sig_ignore_pipe(void);
/* Installs the handlers; a caught signal's number goes into *flag. 0, or -1 after error(). */
int sig_install(volatile atomic_int *flag);
/* The number of the signal that asked to stop (what the flag holds), or 0: for code below
 * the phases (decompressing an archive) that must stop too. */
int sig_stop_requested(void);
/* Registers fn to run on a fatal fault (at most 8; the last registered runs first). */
void sig_at_fatal(void (*fn)(void));
/* In a forked child before exec: SIGPIPE (and every signal fsbench ignores) back to its
 * default, and no signal blocked. Async-signal-safe. */
void sig_child_reset(void);
/* "SIGTERM" for 15 (into buf, len bytes): the name a message gives a signal's number. */
const char *sig_name(int sig, char *buf, size_t len);
/* The signals sig_install() catches as interrupts, ending with 0 (for tests and --help). */
extern const int sig_caught[];

#endif
