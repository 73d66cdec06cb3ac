//! A rayon thread pool that survives `fork()`.
//!
//! `fork()` copies a process with only the thread that called it: a rayon pool built before
//! the fork still exists in the child as data, but its worker threads do not, so the first
//! job the child sends it waits forever (rayon's global pool included, which is why code
//! that a forked process may run should not use it). Trainers fork all the time (PyTorch
//! `DataLoader` workers, `multiprocessing` "fork" pools), so every pool cardvec runs its
//! work on is a [`ForkSafePool`]: it remembers which process built its pool, and a process
//! that finds a pool of another process (its parent) builds its own on first use.
//!
//! The pool inherited from the parent is leaked in the child, never dropped: dropping a
//! rayon pool wakes its threads through locks that a thread of the parent may have held at
//! the moment of the fork, and those threads are gone. It costs the child a few kilobytes.
//!
//! A process is recognized by its id and by a fork counter that a `pthread_atfork` handler
//! advances in every child (on Linux), so that a grandchild that happens to reuse the id
//! of a long-gone ancestor is not mistaken for it. Nothing here depends on the number of
//! threads: work that is deterministic across thread counts (every batch in cardvec) gives
//! the same results before and after a fork.

use std::marker::PhantomData;
use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::{Mutex, Once};

use super::error::{Error, Result};

/// Largest number of worker threads a pool accepts (`num_threads` of every environment,
/// solver and campaign): far more than a batch of card games can use on any machine, small
/// enough that a typo (`num_threads=1000`) is an error rather than a thousand threads.
/// `None` (one worker per core) is never refused, however many cores the machine has.
pub const MAX_THREADS: usize = 256;

/// The worker count that `threads` stands for: `Some(t)` is `t`; `None` is rayon's default,
/// `RAYON_NUM_THREADS` when it is set to a positive integer, else one per core.
pub fn resolve_threads(threads: Option<usize>) -> usize {
    if let Some(t) = threads {
        return t;
    }
    if let Some(t) = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&t| t > 0)
    {
        return t;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A rayon thread pool of `threads` workers (one per core by default) that is rebuilt,
/// lazily, in a process forked from the one that built it (see the module documentation).
///
/// ```
/// use cardvec::core::ForkSafePool;
/// let pool = ForkSafePool::new(Some(2)).unwrap();
/// assert_eq!(pool.install(rayon::current_num_threads), 2);
/// assert!(ForkSafePool::new(Some(0)).is_err());
/// ```
pub struct ForkSafePool {
    threads: Option<usize>,
    /// The pool of the process that built it, or null before the first use. A pool of an
    /// earlier process is replaced (and leaked), never freed while `self` lives, so a
    /// reference obtained from it stays valid for the lifetime of `&self`.
    current: AtomicPtr<Built>,
    _owns: PhantomData<Box<Built>>,
}

/// A rayon pool and the process that built it.
struct Built {
    owner: Process,
    pool: rayon::ThreadPool,
}

/// Who a process is: its id and the number of forks on its line since cardvec started
/// counting (both inherited at a fork; the counter is advanced in the child).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Process {
    id: u32,
    forks: u64,
}

/// Forks seen by this process's ancestry (advanced in each child by [`after_fork_child`]).
static FORKS: AtomicU64 = AtomicU64::new(0);

#[cfg(target_os = "linux")]
extern "C" fn after_fork_child() {
    // Only an atomic add: the child runs this before anything else, with one thread.
    FORKS.fetch_add(1, Ordering::SeqCst);
}

impl Process {
    fn current() -> Process {
        static WATCH_FORKS: Once = Once::new();
        WATCH_FORKS.call_once(|| {
            #[cfg(target_os = "linux")]
            // SAFETY: registers a handler that only touches an atomic; it stays valid for the
            // life of the process (a static function). A failure (ENOMEM) leaves the process
            // id as the only witness, which still catches every fork but a reused id.
            unsafe {
                libc::pthread_atfork(None, None, Some(after_fork_child));
            }
        });
        Process {
            id: std::process::id(),
            forks: FORKS.load(Ordering::SeqCst),
        }
    }
}

impl ForkSafePool {
    /// A pool of `threads` workers (`None`: one per core, or `RAYON_NUM_THREADS`), built now
    /// so that a failure to start it is an error here. `threads` must be in
    /// `1..=`[`MAX_THREADS`].
    pub fn new(threads: Option<usize>) -> Result<ForkSafePool> {
        if let Some(t) = threads {
            Error::check_range("num_threads", 1, MAX_THREADS as i64, t as i64)?;
        }
        let pool = ForkSafePool::lazy(threads);
        let built = Box::new(Built::new(threads)?);
        pool.current.store(Box::into_raw(built), Ordering::Release);
        Ok(pool)
    }

    /// A pool that starts its threads on first use (for statics); `threads` as in
    /// [`ForkSafePool::new`], unchecked: an invalid count is a panic on first use.
    pub const fn lazy(threads: Option<usize>) -> ForkSafePool {
        ForkSafePool {
            threads,
            current: AtomicPtr::new(ptr::null_mut()),
            _owns: PhantomData,
        }
    }

    /// The pool that long calls without a pool of their own run on (the hold'em batch
    /// evaluator and equity calculator from Python): one worker per core, started on first
    /// use, rebuilt after a fork; the same pool as [`ForkSafePool::with_threads`]`(None)`.
    /// Use it instead of rayon's global pool in code that a forked process may run.
    pub fn shared() -> &'static ForkSafePool {
        ForkSafePool::with_threads(None).unwrap_or_else(|e| panic!("the shared pool: {e}"))
    }

    /// The process-wide pool of `threads` workers (`None`: one per core, see
    /// [`resolve_threads`]), shared by every environment that asks for the same count, so
    /// that a process holding many environments runs at most one pool per distinct count
    /// (200 environments of 1, 2 and the default number of threads start 1 + 2 + cores
    /// workers, not 200 pools). The pool lives for the rest of the process, is started on
    /// first use (a failure to start it is an error at that call) and is rebuilt after a
    /// fork like every [`ForkSafePool`]. `threads` must be in `1..=`[`MAX_THREADS`].
    ///
    /// ```
    /// use cardvec::core::ForkSafePool;
    /// let a = ForkSafePool::with_threads(Some(2)).unwrap();
    /// let b = ForkSafePool::with_threads(Some(2)).unwrap();
    /// assert!(std::ptr::eq(a, b));
    /// assert!(ForkSafePool::with_threads(Some(cardvec::core::MAX_THREADS + 1)).is_err());
    /// ```
    pub fn with_threads(threads: Option<usize>) -> Result<&'static ForkSafePool> {
        /// Every pool handed out, by worker count (leaked: they live as long as the
        /// process; at most one per count in `1..=MAX_THREADS`).
        static POOLS: Mutex<Vec<(usize, &'static ForkSafePool)>> = Mutex::new(Vec::new());
        if let Some(t) = threads {
            Error::check_range("num_threads", 1, MAX_THREADS as i64, t as i64)?;
        }
        let count = resolve_threads(threads);
        // A poisoned lock only means another thread panicked while holding it; the list
        // itself is always consistent (one push per new count).
        let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&(_, pool)) = pools.iter().find(|(c, _)| *c == count) {
            return Ok(pool);
        }
        let pool = ForkSafePool::lazy(Some(count));
        // Start the threads now, so that a failure is this call's error (and nothing is
        // kept), not a panic on first use.
        let built = Box::new(Built::new(Some(count))?);
        pool.current.store(Box::into_raw(built), Ordering::Release);
        let pool: &'static ForkSafePool = Box::leak(Box::new(pool));
        pools.push((count, pool));
        Ok(pool)
    }

    /// The number of worker threads asked for (`None`: one per core).
    pub fn requested_threads(&self) -> Option<usize> {
        self.threads
    }

    /// The rayon pool of this process, started (or restarted after a fork) if needed.
    ///
    /// # Panics
    /// If the process cannot start threads while building the pool.
    pub fn pool(&self) -> &rayon::ThreadPool {
        let me = Process::current();
        let seen = self.current.load(Ordering::Acquire);
        // SAFETY: a non-null pointer came from `Box::into_raw` and is freed only by `drop`
        // (`&mut self`); pools of other processes are leaked, never freed.
        if let Some(built) = unsafe { seen.as_ref() } {
            if built.owner == me {
                return &built.pool;
            }
        }
        self.rebuild(seen, me)
    }

    /// Replaces `seen` (null, or the pool of another process, which is leaked) with a pool
    /// of process `me`; when another thread of this process got there first, uses its pool.
    #[cold]
    fn rebuild(&self, seen: *mut Built, me: Process) -> &rayon::ThreadPool {
        let fresh = Box::into_raw(Box::new(
            Built::new(self.threads)
                .unwrap_or_else(|e| panic!("cannot start the worker threads: {e}")),
        ));
        let winner =
            match self
                .current
                .compare_exchange(seen, fresh, Ordering::AcqRel, Ordering::Acquire)
            {
                // `seen` (if any) belonged to an earlier process: leaked on purpose.
                Ok(_) => fresh,
                Err(other) => {
                    // SAFETY: `fresh` was never shared; dropping it stops its own threads.
                    drop(unsafe { Box::from_raw(fresh) });
                    other
                }
            };
        // SAFETY: as in `pool`; `winner` is non-null (ours, or one stored by another thread
        // of this process, which only stores pools it built for this process).
        let built = unsafe { &*winner };
        debug_assert_eq!(built.owner, me);
        &built.pool
    }

    /// Runs `op` on the pool's threads and returns its result (see
    /// [`rayon::ThreadPool::install`]).
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        self.pool().install(op)
    }

    /// The number of worker threads of the pool.
    pub fn current_num_threads(&self) -> usize {
        self.pool().current_num_threads()
    }

    /// Makes the pool look as if another process had built it, so that the next use
    /// rebuilds it as a forked child would (for the tests of the rebuild).
    #[cfg(test)]
    fn pretend_built_elsewhere(&mut self) {
        // SAFETY: the pointer is valid (see `pool`) and `&mut self` makes the access unique.
        if let Some(built) = unsafe { self.current.get_mut().as_mut() } {
            built.owner.id = built.owner.id.wrapping_add(1);
        }
    }
}

impl Built {
    fn new(threads: Option<usize>) -> Result<Built> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.unwrap_or(0))
            .build()
            .map_err(|e| Error::Invalid {
                what: "thread pool",
                reason: e.to_string(),
            })?;
        Ok(Built {
            owner: Process::current(),
            pool,
        })
    }
}

impl Drop for ForkSafePool {
    fn drop(&mut self) {
        let built = *self.current.get_mut();
        // SAFETY: as in `pool`; `&mut self` means no one else uses it.
        if let Some(b) = unsafe { built.as_ref() } {
            if b.owner == Process::current() {
                // SAFETY: built by this process, from `Box::into_raw`, not shared any more.
                drop(unsafe { Box::from_raw(built) });
            }
            // A pool of another process is leaked: its threads do not exist here.
        }
    }
}

impl std::fmt::Debug for ForkSafePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ForkSafePool")
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    fn sum_of_squares(pool: &ForkSafePool) -> u64 {
        pool.install(|| (0..100_000u64).into_par_iter().map(|x| x * x).sum())
    }

    #[test]
    fn runs_work_on_the_threads_asked_for() {
        for threads in [1, 3] {
            let pool = ForkSafePool::new(Some(threads)).unwrap();
            assert_eq!(pool.current_num_threads(), threads);
            assert_eq!(pool.install(rayon::current_num_threads), threads);
            assert_eq!(pool.requested_threads(), Some(threads));
        }
    }

    #[test]
    fn thread_counts_out_of_range_are_errors() {
        assert!(ForkSafePool::new(Some(0)).is_err());
        assert!(ForkSafePool::new(Some(MAX_THREADS + 1)).is_err());
    }

    #[test]
    fn a_pool_built_by_another_process_is_rebuilt_and_gives_the_same_results() {
        let mut pool = ForkSafePool::new(Some(2)).unwrap();
        let before = sum_of_squares(&pool);
        let old = pool.pool() as *const rayon::ThreadPool;
        pool.pretend_built_elsewhere();
        let rebuilt = pool.pool() as *const rayon::ThreadPool;
        assert_ne!(old, rebuilt, "a pool of another process must be replaced");
        assert_eq!(pool.current_num_threads(), 2);
        assert_eq!(sum_of_squares(&pool), before);
        assert_eq!(pool.pool() as *const _, rebuilt, "then kept");
    }

    #[test]
    fn lazy_pools_start_on_first_use_from_any_thread() {
        let pool = ForkSafePool::lazy(Some(2));
        let results: Vec<u64> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4).map(|_| s.spawn(|| sum_of_squares(&pool))).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(results.windows(2).all(|w| w[0] == w[1]));
        assert_eq!(ForkSafePool::shared().install(|| 7), 7);
    }

    #[test]
    fn pools_are_shared_by_worker_count() {
        let cores = resolve_threads(None);
        let default = ForkSafePool::with_threads(None).unwrap();
        assert!(std::ptr::eq(default, ForkSafePool::shared()));
        assert!(std::ptr::eq(
            default,
            ForkSafePool::with_threads(Some(cores)).unwrap()
        ));
        let three = ForkSafePool::with_threads(Some(3)).unwrap();
        assert!(std::ptr::eq(
            three,
            ForkSafePool::with_threads(Some(3)).unwrap()
        ));
        assert_eq!(three.current_num_threads(), 3);
        assert_eq!(sum_of_squares(three), sum_of_squares(default));
        for bad in [0, MAX_THREADS + 1, 1000] {
            let err = ForkSafePool::with_threads(Some(bad))
                .unwrap_err()
                .to_string();
            assert!(err.contains("num_threads"), "{err}");
        }
    }
}
