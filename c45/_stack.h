/* The thread stack that pruning's recursion runs on (c45/_prune.pyx).
 *
 * Pruning recurses once per level of the tree, so the stack it needs is the
 * tree's height times a frame; the thread a user calls from may have 8 MiB or
 * 128 KiB (musl, OMP_STACKSIZE, threading.stack_size, ulimit -s). These
 * helpers tell how much stack the calling thread has left, how large libgomp's
 * workers' stacks are, and run a function on a thread of a chosen stack size.
 */
#ifndef C45_STACK_H
#define C45_STACK_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__linux__) || defined(__APPLE__) || defined(__unix__)
#define C45_HAVE_PTHREAD 1
#include <pthread.h>
#include <time.h>
#else
#define C45_HAVE_PTHREAD 0
#endif

/* The lowest address of the calling thread's stack, NULL if unknown. */
static char *c45_stack_low(void)
{
#if defined(__APPLE__)
    pthread_t self = pthread_self();
    return (char *)pthread_get_stackaddr_np(self) - pthread_get_stacksize_np(self);
#elif C45_HAVE_PTHREAD && (defined(__GLIBC__) || defined(__linux__))
    pthread_attr_t attr;
    void *low = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return NULL;
    if (pthread_attr_getstack(&attr, &low, &size) != 0)
        low = NULL;
    pthread_attr_destroy(&attr);
    return (char *)low;
#else
    return NULL;
#endif
}

/* Bytes of stack below the caller's frame; SIZE_MAX if unknown. */
static size_t c45_stack_room(void)
{
    char here;
    char *low = c45_stack_low();
    if (low == NULL || &here <= low)
        return low == NULL ? SIZE_MAX : 0;
    return (size_t)(&here - low);
}

/* The stack size of the threads libgomp starts: OMP_STACKSIZE (GOMP_STACKSIZE)
 * as libgomp reads it (a number, kilobytes unless B, K, M or G follows), else
 * the default of a new thread. 0 if unknown. */
static size_t c45_worker_stack(void)
{
    const char *env = getenv("OMP_STACKSIZE");
    if (env == NULL || *env == '\0')
        env = getenv("GOMP_STACKSIZE");
    if (env != NULL && *env != '\0') {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        size_t unit = 1024;
        while (*end == ' ')
            end++;
        switch (*end) {
        case 'b': case 'B': unit = 1; break;
        case 'k': case 'K': unit = 1024; break;
        case 'm': case 'M': unit = 1024 * 1024; break;
        case 'g': case 'G': unit = 1024 * 1024 * 1024; break;
        default: break;
        }
        if (end != env)
            return (size_t)v * unit;
    }
#if C45_HAVE_PTHREAD
    {
        pthread_attr_t attr;
        size_t size = 0;
        if (pthread_attr_init(&attr) != 0)
            return 0;
        if (pthread_attr_getstacksize(&attr, &size) != 0)
            size = 0;
        pthread_attr_destroy(&attr);
        return size;
    }
#else
    return 0;
#endif
}

/* A function run on a thread of its own stack size; the caller waits with
 * c45_thread_done (polling for signals meanwhile) and c45_thread_join. */
typedef struct {
    void (*fn)(void *);
    void *arg;
    volatile int done;
#if C45_HAVE_PTHREAD
    pthread_t thread;
#endif
} c45_stack_thread;

#if C45_HAVE_PTHREAD
static void *c45_stack_thread_main(void *p)
{
    c45_stack_thread *t = (c45_stack_thread *)p;
    t->fn(t->arg);
    __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
    return NULL;
}
#endif

/* 0 when started, -1 if no thread could be made (then nothing ran). */
static int c45_thread_start(c45_stack_thread *t, void (*fn)(void *), void *arg,
                            size_t stack)
{
#if C45_HAVE_PTHREAD
    pthread_attr_t attr;
    int err;
    t->fn = fn;
    t->arg = arg;
    t->done = 0;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    err = pthread_attr_setstacksize(&attr, stack);
    if (err == 0)
        err = pthread_create(&t->thread, &attr, c45_stack_thread_main, t);
    pthread_attr_destroy(&attr);
    return err == 0 ? 0 : -1;
#else
    (void)t; (void)fn; (void)arg; (void)stack;
    return -1;
#endif
}

static int c45_thread_done(c45_stack_thread *t)
{
#if C45_HAVE_PTHREAD
    return __atomic_load_n(&t->done, __ATOMIC_ACQUIRE);
#else
    return t->done;
#endif
}

/* A millisecond's sleep while the caller waits for the thread. */
static void c45_nap(void)
{
#if C45_HAVE_PTHREAD
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
#endif
}

static void c45_thread_join(c45_stack_thread *t)
{
#if C45_HAVE_PTHREAD
    pthread_join(t->thread, NULL);
#else
    (void)t;
#endif
}

#endif
