//! A fixed pool of worker threads for handlers that take time.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// Runs jobs on a fixed number of threads. Dropping the pool lets queued jobs finish and
/// joins the threads.
pub struct WorkerPool {
    jobs: Option<Sender<Job>>,
    threads: Vec<JoinHandle<()>>,
}

impl WorkerPool {
    /// A pool of `threads` workers (at least one).
    pub fn new(threads: usize) -> std::io::Result<Self> {
        let (jobs, queue) = channel::<Job>();
        let queue: Arc<Mutex<Receiver<Job>>> = Arc::new(Mutex::new(queue));
        let threads = (0..threads.max(1))
            .map(|i| {
                let queue = Arc::clone(&queue);
                std::thread::Builder::new().name(format!("mcp-worker-{i}")).spawn(move || {
                    loop {
                        // The lock is held only to take one job.
                        let job = match queue.lock() {
                            Ok(q) => q.recv(),
                            Err(_) => return,
                        };
                        match job {
                            Ok(job) => job(),
                            Err(_) => return,
                        }
                    }
                })
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(WorkerPool { jobs: Some(jobs), threads })
    }

    /// Queues `job` for the next free worker.
    pub fn execute(&self, job: impl FnOnce() + Send + 'static) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(Box::new(job));
        }
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        drop(self.jobs.take());
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
