/* Signal handlers: see signals.h. Everything the handler calls is
 * async-signal-safe; the log's buffers and compressor exist beforehand. */
#include "signals.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include "ending.h"
#include "writer.h"

static const int term_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGUSR1, SIGUSR2};
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NTERM (sizeof term_signals / sizeof term_signals[0])
#define NCRASH (sizeof crash_signals / sizeof crash_signals[0])

static struct sigaction previous[NSIG];
static _Atomic int ours[NSIG];

static int is_crash(int sig)
{
    for (size_t i = 0; i < NCRASH; i++)
        if (crash_signals[i] == sig)
            return 1;
    return 0;
}

/* The instruction a fault interrupted, from the signal context; 0 when
 * unknown. */
static uint64_t fault_pc(void *ctx)
{
    const ucontext_t *uc = ctx;
    if (!uc)
        return 0;
#if defined(__x86_64__)
    return (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uint64_t)uc->uc_mcontext.pc;
#else
    return 0;
#endif
}

/* The caller of abort(), for a SIGABRT the process sent itself: the
 * return address past the last frame inside abort() (within 4 KiB of its
 * entry), less one so that it lies in the call. Walked from the handler,
 * as a crash handler does: abort() runs no loader code a walk could wait
 * for. 0 when not found. */
typedef struct abort_walk {
    uintptr_t lo, hi, after;
    int in_abort, frames;
} abort_walk;

static _Unwind_Reason_Code abort_frame(struct _Unwind_Context *uc, void *arg)
{
    abort_walk *w = arg;
    uintptr_t pc = (uintptr_t)_Unwind_GetIP(uc);
    if (++w->frames > 32 || !pc)
        return _URC_END_OF_STACK;
    if (pc > w->lo && pc <= w->hi) {
        w->in_abort = 1;
        return _URC_NO_REASON;
    }
    if (w->in_abort) {
        w->after = pc - 1;
        return _URC_END_OF_STACK;
    }
    return _URC_NO_REASON;
}

static uint64_t abort_caller(void)
{
    abort_walk w = {.lo = (uintptr_t)abort, .hi = (uintptr_t)abort + 4096};
    _Unwind_Backtrace(abort_frame, &w);
    return (uint64_t)w.after;
}

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    int saved_errno = errno;
    int crash = is_crash(sig);
    ms_ending_record e;
    ms_ending_fill(&e, MS_ENDING_SIGNAL, ms_tls_thread);
    e.signal = sig;
    e.code = info ? info->si_code : 0;
    if (crash && info && info->si_code > 0)
        e.fault_pc = fault_pc(ctx);
    else if (sig == SIGABRT && info && info->si_code <= 0 && info->si_pid == getpid())
        e.fault_pc = abort_caller();
    if (ms_runtime_flush_from_signal(!crash, &e) && crash)
        ms_ending_linger();
    if (atomic_exchange(&ours[sig], 0))
        sigaction(sig, &previous[sig], NULL);
    /* A fault the kernel raised recurs when the instruction runs again; a
     * signal that was sent (kill, raise, abort) is sent again. It is blocked
     * until this handler returns, then meets the previous disposition. */
    if (!crash || !info || info->si_code <= 0)
        raise(sig);
    errno = saved_errno;
}

static void install(int sig, int only_default)
{
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) != 0)
        return;
    int is_default = !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL;
    int ignored = !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_IGN;
    if (ignored || (only_default && !is_default))
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    previous[sig] = cur;
    if (sigaction(sig, &sa, NULL) == 0)
        atomic_store(&ours[sig], 1);
}

void ms_signals_install(void)
{
    for (size_t i = 0; i < NTERM; i++)
        install(term_signals[i], 1);
    for (size_t i = 0; i < NCRASH; i++)
        install(crash_signals[i], 0);
}

static void restore(int sig)
{
    struct sigaction cur;
    if (!atomic_load(&ours[sig]) || sigaction(sig, NULL, &cur) != 0)
        return;
    /* The application replaced ours: leave its handler alone. */
    if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_signal && atomic_exchange(&ours[sig], 0))
        sigaction(sig, &previous[sig], NULL);
}

void ms_signals_restore(void)
{
    for (size_t i = 0; i < NTERM; i++)
        restore(term_signals[i]);
    for (size_t i = 0; i < NCRASH; i++)
        restore(crash_signals[i]);
}

void ms_signals_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < NTERM; i++)
        sigaddset(&set, term_signals[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}
