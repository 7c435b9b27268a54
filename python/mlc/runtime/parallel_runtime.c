/* MLC's parallel runtime: the thread pool compiled parallel loops run on.
 *
 *   void mlc_parallel_for(void (*body)(void *context, int64_t block), void *context,
 *                         int64_t blocks, int64_t threads);
 *
 * calls body(context, b) once for every b in [0, blocks), on at most `threads` threads (the
 * caller's among them), and returns when all calls have returned. mlc-parallel-outline
 * generates the calls: one per parallel loop, `context` a struct of the values the loop body
 * reads, each block a contiguous range of the loop's iterations.
 *
 * Why not MLIR's async runtime (what MLC used first): lowering async.execute to LLVM
 * coroutines cost 20-30 ms of LLVM time per parallel loop, and its pool's workers sleep on a
 * condition variable, 40-100 us to wake, which made small kernels slower on two cores than
 * on one. Here workers spin a short while after each loop (the next loop of a compiled
 * function usually follows within microseconds), then sleep.
 *
 * How a loop is shared: the caller publishes (generation, blocks, next block) in one 64-bit
 * word; every thread claims blocks with a compare-and-swap on that word, which fails once
 * the generation moved on, so a late worker can never run a block of the next loop with the
 * previous loop's body. The caller waits until `finished` counts all blocks. One loop runs at
 * a time: a second caller (another thread, or a loop body that itself runs a parallel loop)
 * runs its blocks alone, in order.
 *
 * fork(): the child has none of the workers; pthread_atfork resets the pool there, so a
 * child makes workers of its own on its first parallel loop.
 *
 *   void mlc_openblas_threads(int sync, void (*dojob)(int, void *, int), int numjobs,
 *                             size_t job_size, void *jobs, int dojob_data);
 *
 * OpenBLAS's caller-managed threading (openblas_set_threads_callback_function, OpenBLAS
 * 0.3.27+): once installed (parallel_runtime.py, for numpy's OpenBLAS), every OpenBLAS call
 * that would wake OpenBLAS's own workers runs its jobs on this pool instead. Why: those
 * workers spin (nops, no yield) for about 0.1 s after each call, so MLC's threads (and any
 * other pool) right after a numpy matmul got half the cores: MLC's packed GEMM ran 2x slower
 * interleaved with numpy's matmuls (jax.jit's too). One pool for both, nobody spins beside it.
 * OpenBLAS's jobs must all run at once (a level-3 job waits for the others' packed panels)
 * and job i uses OpenBLAS's per-thread buffer i, so one region runs at a time (blas_lock)
 * and each job is one block of the pool, on its own thread; if the pool is in use (a
 * parallel loop of another thread), the jobs get threads of their own for the call.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef void (*mlc_body_fn)(void *context, int64_t block);

enum { MAX_WORKERS = 255, MAX_BLOCKS = 0xffff };
_Static_assert(sizeof(void *) >= 8, "a worker's argument packs a generation and an index");

/* How long an idle worker spins before it sleeps (nanoseconds). */
#define SPIN_NS 100000

#if defined(__x86_64__) || defined(__i386__)
#define CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define CPU_RELAX() __asm__ __volatile__("yield")
#else
#define CPU_RELAX() ((void)0)
#endif

/* state: generation (high 32 bits) | blocks (16 bits) | next block to claim (low 16 bits). */
static _Atomic uint64_t state;
static _Atomic int64_t finished;
/* Written by the caller before it publishes a loop, read by whoever claims one of its blocks
 * (relaxed: the claim's acquire orders them). */
static _Atomic(mlc_body_fn) current_body;
static _Atomic(void *) current_context;
static _Atomic int current_threads;  /* threads the current loop may use */
static _Atomic int busy;       /* a loop is being shared */
static int workers;            /* threads started (changed under start_lock, by the one caller holding `busy`) */
static _Atomic int sleepers;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t sleep_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static pthread_once_t fork_handler_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t blas_lock = PTHREAD_MUTEX_INITIALIZER;  /* one OpenBLAS region at a time */

static uint32_t generation_of(uint64_t s) { return (uint32_t)(s >> 32); }

/* Claims and runs blocks of generation `generation` until none is left. */
static void run_blocks(uint32_t generation) {
    uint64_t s = atomic_load_explicit(&state, memory_order_acquire);
    for (;;) {
        if (generation_of(s) != generation) return;
        uint64_t next = s & 0xffff, blocks = (s >> 16) & 0xffff;
        if (next >= blocks) return;
        if (atomic_compare_exchange_weak_explicit(&state, &s, s + 1, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            /* The block is ours: the caller waits for it, so its body and context stay. */
            mlc_body_fn body = atomic_load_explicit(&current_body, memory_order_relaxed);
            body(atomic_load_explicit(&current_context, memory_order_relaxed), (int64_t)next);
            atomic_fetch_add_explicit(&finished, 1, memory_order_release);
            s = atomic_load_explicit(&state, memory_order_acquire);
        }
    }
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void *worker_main(void *argument) {
    /* (generation when the worker was made) << 16 | index: worker i is the loop's thread
     * i + 1. Made before its first loop is published, it counts that generation as not yet
     * seen, however late it starts (OpenBLAS's jobs need every thread they were given). */
    uint64_t packed = (uint64_t)(uintptr_t)argument;
    int index = (int)(packed & 0xffff);
    uint32_t seen = (uint32_t)(packed >> 16);
    for (;;) {
        uint32_t g = generation_of(atomic_load_explicit(&state, memory_order_acquire));
        if (g == seen) {
            int64_t deadline = now_ns() + SPIN_NS;
            for (int i = 1; g == seen; ++i) {
                CPU_RELAX();
                g = generation_of(atomic_load_explicit(&state, memory_order_acquire));
                if (g == seen && (i & 255) == 0 && now_ns() > deadline) {
                    /* Sleep. Counting ourselves a sleeper before the last look at the state
                     * (both sequentially consistent) means a caller that publishes after that
                     * look sees the count and signals under the lock. */
                    atomic_fetch_add(&sleepers, 1);
                    pthread_mutex_lock(&sleep_lock);
                    while ((g = generation_of(atomic_load(&state))) == seen)
                        pthread_cond_wait(&wake, &sleep_lock);
                    pthread_mutex_unlock(&sleep_lock);
                    atomic_fetch_sub(&sleepers, 1);
                }
            }
        }
        seen = g;
        if (index + 1 < atomic_load_explicit(&current_threads, memory_order_relaxed))
            run_blocks(g);
    }
    return 0;
}

static void reset_in_child(void) {
    /* The child of fork() has only the thread that forked: no workers, no loop running. */
    workers = 0;
    atomic_store(&busy, 0);
    atomic_store(&sleepers, 0);
    pthread_mutex_init(&start_lock, 0);
    pthread_mutex_init(&sleep_lock, 0);
    pthread_mutex_init(&blas_lock, 0);
    pthread_cond_init(&wake, 0);
}

static void install_fork_handler(void) { pthread_atfork(0, 0, reset_in_child); }

/* Starts workers until there are `wanted` (fewer if threads cannot be made). */
static int ensure_workers(int wanted) {
    if (wanted > MAX_WORKERS) wanted = MAX_WORKERS;
    if (workers >= wanted) return workers;
    pthread_once(&fork_handler_once, install_fork_handler);
    pthread_mutex_lock(&start_lock);
    while (workers < wanted) {
        pthread_t thread;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        uint64_t argument = ((uint64_t)generation_of(atomic_load(&state)) << 16) | (uint64_t)workers;
        int failed = pthread_create(&thread, &attr, worker_main, (void *)(uintptr_t)argument);
        pthread_attr_destroy(&attr);
        if (failed) break;
        ++workers;
    }
    int started = workers;
    pthread_mutex_unlock(&start_lock);
    return started;
}

static void run_alone(mlc_body_fn body, void *context, int64_t blocks) {
    for (int64_t b = 0; b < blocks; ++b) body(context, b);
}

/* Runs blocks [0, blocks) on the pool with up to `threads` threads; with `all_threads`, on
 * exactly that many. 1 when it did, 0 when the pool is in use or has too few workers
 * (nothing ran then). */
static int share(mlc_body_fn body, void *context, int64_t blocks, int64_t threads, int all_threads) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&busy, &expected, 1)) return 0;
    int started = ensure_workers((int)(threads - 1));
    if (started == 0 || (all_threads && started < threads - 1)) {
        atomic_store(&busy, 0);
        return 0;
    }
    atomic_store_explicit(&current_body, body, memory_order_relaxed);
    atomic_store_explicit(&current_context, context, memory_order_relaxed);
    atomic_store_explicit(&current_threads, (int)threads, memory_order_relaxed);
    atomic_store_explicit(&finished, 0, memory_order_relaxed);
    uint32_t generation = generation_of(atomic_load(&state)) + 1;
    /* Publishing the new state releases the body, context and finished count above. */
    atomic_store(&state, ((uint64_t)generation << 32) | ((uint64_t)blocks << 16));
    if (atomic_load(&sleepers) > 0) {
        pthread_mutex_lock(&sleep_lock);
        pthread_cond_broadcast(&wake);
        pthread_mutex_unlock(&sleep_lock);
    }
    run_blocks(generation);
    while (atomic_load_explicit(&finished, memory_order_acquire) < blocks) CPU_RELAX();
    atomic_store(&busy, 0);
    return 1;
}

void mlc_parallel_for(mlc_body_fn body, void *context, int64_t blocks, int64_t threads) {
    if (blocks <= 1 || threads <= 1 || blocks > MAX_BLOCKS) {
        run_alone(body, context, blocks);
        return;
    }
    if (!share(body, context, blocks, threads, 0)) run_alone(body, context, blocks);
}

/* --- OpenBLAS's jobs on the pool ------------------------------------------------------ */

typedef void (*openblas_dojob_fn)(int thread_num, void *job, int dojob_data);

struct blas_region {
    openblas_dojob_fn dojob;
    char *jobs;
    size_t job_size;
    int dojob_data;
};

static void run_blas_job(void *context, int64_t block) {
    struct blas_region *r = context;
    r->dojob((int)block, r->jobs + (size_t)block * r->job_size, r->dojob_data);
}

/* go: 0 while the threads are being made, 1 to run the jobs, -1 to leave without running
 * (a thread could not be made: the jobs wait for each other, so none may start alone). */
struct blas_thread { struct blas_region *region; int64_t job; _Atomic int *go; };

static void *blas_thread_main(void *argument) {
    struct blas_thread *t = argument;
    int go;
    while ((go = atomic_load(t->go)) == 0) sched_yield();
    if (go == 1) run_blas_job(t->region, t->job);
    return 0;
}

/* Every job but the first on a thread made for it, the first on the caller's; 0 (nothing
 * run) if not every thread could be made. */
static int run_on_new_threads(struct blas_region *region, int numjobs) {
    enum { MAX_JOBS = 256 };
    pthread_t threads[MAX_JOBS];
    struct blas_thread arguments[MAX_JOBS];
    _Atomic int go = 0;
    if (numjobs > MAX_JOBS) return 0;
    int made = 0;
    for (int j = 1; j < numjobs; ++j, ++made) {
        arguments[j] = (struct blas_thread){region, j, &go};
        if (pthread_create(&threads[j], 0, blas_thread_main, &arguments[j])) break;
    }
    int all = made == numjobs - 1;
    atomic_store(&go, all ? 1 : -1);
    if (all) run_blas_job(region, 0);
    for (int j = 1; j <= made; ++j) pthread_join(threads[j], 0);
    return all;
}

void mlc_openblas_threads(int sync, openblas_dojob_fn dojob, int numjobs, size_t job_size,
                          void *jobs, int dojob_data) {
    (void)sync;  /* every region is waited for (OpenBLAS asks for that anyway) */
    struct blas_region region = {dojob, jobs, job_size, dojob_data};
    if (numjobs <= 1) {
        run_alone(run_blas_job, &region, numjobs);
        return;
    }
    pthread_once(&fork_handler_once, install_fork_handler);
    pthread_mutex_lock(&blas_lock);
    /* All jobs at once: as blocks of the pool, else on threads of their own. A system that
     * cannot make threads at all leaves running them in order (which only independent jobs
     * survive; OpenBLAS's own pool could not start there either). */
    if (numjobs - 1 > MAX_WORKERS || !share(run_blas_job, &region, numjobs, numjobs, 1))
        if (!run_on_new_threads(&region, numjobs))
            run_alone(run_blas_job, &region, numjobs);
    pthread_mutex_unlock(&blas_lock);
}
