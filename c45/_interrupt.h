/* Signal arrival as a plain C flag (c45/_interrupt.pyx).
 *
 * While a long compiled call runs on Python's main thread, each signal that
 * Python handles gets this module's handler in front of Python's own: it sets
 * c45_signal_seen and then calls Python's handler, so Python's state is exactly
 * what it would have been. The compiled loops read the flag (no GIL); only when
 * it is set does the calling thread take the GIL to run the Python handlers.
 * Handlers are put back when the outermost call ends. Without sigaction
 * (Windows) nothing is wrapped and the caller polls on a timer instead.
 */
#ifndef C45_INTERRUPT_H
#define C45_INTERRUPT_H

#include <signal.h>
#include <string.h>

#if defined(_WIN32) || !defined(SA_SIGINFO)
#define C45_HAVE_SIGACTION 0
static volatile int c45_signal_seen = 0;
static int c45_signal_wrap(int sig) { (void)sig; return 0; }
static void c45_signal_unwrap_all(void) {}
#else
#define C45_HAVE_SIGACTION 1
#ifndef NSIG
#define NSIG 65
#endif
static volatile sig_atomic_t c45_signal_seen = 0;
static struct sigaction c45_signal_prev[NSIG];
static volatile sig_atomic_t c45_signal_wrapped[NSIG];

static void c45_signal_handler(int sig, siginfo_t *info, void *context)
{
    struct sigaction *prev;
    c45_signal_seen = 1;
    if (sig <= 0 || sig >= NSIG)
        return;
    prev = &c45_signal_prev[sig];
    if (prev->sa_flags & SA_SIGINFO) {
        if (prev->sa_sigaction != NULL)
            prev->sa_sigaction(sig, info, context);
    } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN
               && prev->sa_handler != NULL) {
        prev->sa_handler(sig);
    }
}

static int c45_is_ours(const struct sigaction *sa)
{
    return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == c45_signal_handler;
}

/* Put our handler in front of sig's; 1 if wrapped, 0 if sig has no handler
 * to chain to (default or ignored) or is wrapped already, -1 on error. */
static int c45_signal_wrap(int sig)
{
    struct sigaction cur, ours;
    if (sig <= 0 || sig >= NSIG || c45_signal_wrapped[sig])
        return 0;
    if (sigaction(sig, NULL, &cur) != 0)
        return -1;
    if (c45_is_ours(&cur))
        return 0;
    if (!(cur.sa_flags & SA_SIGINFO)
        && (cur.sa_handler == SIG_DFL || cur.sa_handler == SIG_IGN))
        return 0;
    c45_signal_prev[sig] = cur;
    memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = c45_signal_handler;
    ours.sa_mask = cur.sa_mask;
    ours.sa_flags = (cur.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
    if (sigaction(sig, &ours, NULL) != 0)
        return -1;
    c45_signal_wrapped[sig] = 1;
    return 1;
}

/* Give every wrapped signal its handler back (unless somebody replaced ours). */
static void c45_signal_unwrap_all(void)
{
    int sig;
    struct sigaction cur;
    for (sig = 1; sig < NSIG; sig++) {
        if (!c45_signal_wrapped[sig])
            continue;
        if (sigaction(sig, NULL, &cur) == 0 && c45_is_ours(&cur))
            sigaction(sig, &c45_signal_prev[sig], NULL);
        c45_signal_wrapped[sig] = 0;
    }
}
#endif

#endif
