//! A fixed pool of worker threads for handlers that take time, with a bounded queue.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// How many jobs wait for a worker, by default, before [`WorkerPool::execute`] waits.
pub const DEFAULT_QUEUE: usize = 256;

struct Queue {
    jobs: VecDeque<Job>,
    capacity: usize,
    closed: bool,
}

struct Pool {
    queue: Mutex<Queue>,
    /// Workers wait here for a job.
    work: Condvar,
    /// `execute` waits here for room.
    room: Condvar,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Runs jobs on a fixed number of threads, from a bounded queue. Dropping the pool lets
/// queued jobs finish and joins the threads.
///
/// With one job per request, the queue never fills as long as its capacity and the
/// threads together are at least the endpoint's `IN` (the requests it can hold at
/// once). If it does fill, [`execute`](Self::execute) waits for a worker to take a job;
/// on the loop's thread that also stops the loop, and a worker waiting on a full
/// mailbox ([`Sender`](super::Sender)) would then wait forever: there, prefer
/// [`try_execute`](Self::try_execute) and refuse the request when it hands the job back.
pub struct WorkerPool {
    pool: Arc<Pool>,
    threads: Vec<JoinHandle<()>>,
}

impl WorkerPool {
    /// A pool of `threads` workers (at least one) and a queue of [`DEFAULT_QUEUE`] jobs.
    pub fn new(threads: usize) -> std::io::Result<Self> {
        Self::with_queue(threads, DEFAULT_QUEUE)
    }

    /// A pool of `threads` workers (at least one) with room for `capacity` queued jobs
    /// (at least one).
    pub fn with_queue(threads: usize, capacity: usize) -> std::io::Result<Self> {
        let pool = Arc::new(Pool {
            queue: Mutex::new(Queue { jobs: VecDeque::new(), capacity: capacity.max(1), closed: false }),
            work: Condvar::new(),
            room: Condvar::new(),
        });
        let mut workers = WorkerPool { pool, threads: Vec::new() };
        for i in 0..threads.max(1) {
            let pool = Arc::clone(&workers.pool);
            // On failure, dropping `workers` stops the threads already started.
            let thread = std::thread::Builder::new().name(format!("mcp-worker-{i}")).spawn(move || work(&pool))?;
            workers.threads.push(thread);
        }
        Ok(workers)
    }

    /// Queues `job` for the next free worker, waiting while the queue is full (see the
    /// type's docs for when that can be a problem).
    pub fn execute(&self, job: impl FnOnce() + Send + 'static) {
        let mut queue = self.pool.lock();
        while queue.jobs.len() >= queue.capacity {
            queue = self.pool.room.wait(queue).unwrap_or_else(PoisonError::into_inner);
        }
        queue.jobs.push_back(Box::new(job));
        self.pool.work.notify_one();
    }

    /// Queues `job` if there is room now; otherwise hands it back.
    pub fn try_execute<F: FnOnce() + Send + 'static>(&self, job: F) -> Result<(), F> {
        let mut queue = self.pool.lock();
        if queue.jobs.len() >= queue.capacity {
            return Err(job);
        }
        queue.jobs.push_back(Box::new(job));
        self.pool.work.notify_one();
        Ok(())
    }
}

/// A worker: takes jobs until the pool closes and its queue is empty.
fn work(pool: &Pool) {
    loop {
        let job = {
            let mut queue = pool.lock();
            loop {
                if let Some(job) = queue.jobs.pop_front() {
                    break job;
                }
                if queue.closed {
                    return;
                }
                queue = pool.work.wait(queue).unwrap_or_else(PoisonError::into_inner);
            }
        };
        pool.room.notify_one();
        job();
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.pool.lock().closed = true;
        self.pool.work.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc::sync_channel;

    use super::*;

    #[test]
    fn the_queue_is_bounded_and_hands_back_what_does_not_fit() {
        let pool = WorkerPool::with_queue(1, 2).unwrap();
        let (started, wait_started) = sync_channel(1);
        let (release, blocked) = sync_channel::<()>(0);
        pool.execute(move || {
            started.send(()).unwrap();
            let _ = blocked.recv();
        });
        wait_started.recv().unwrap();
        // The only worker is busy: two jobs fit in the queue, the third comes back.
        let (done, finished) = sync_channel(2);
        for i in 0..2 {
            let done = done.clone();
            assert!(pool.try_execute(move || done.send(i).unwrap()).is_ok());
        }
        let third = pool.try_execute(|| {});
        assert!(third.is_err());
        drop((release, done));
        drop(pool);
        assert_eq!(finished.iter().collect::<Vec<_>>(), [0, 1], "queued jobs finish before the pool is gone");
    }
}
