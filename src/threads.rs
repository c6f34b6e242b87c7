//! Work on more than one thread. Each call makes its own scoped threads
//! (no global pool to deadlock after `fork()`); `in_parallel` hands items
//! out one at a time from a shared counter and gives results back in input
//! order, so the output is the same for any number of jobs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The threads `in_parallel` uses for `items` items with `jobs` asked for
/// (0: one per available core).
pub fn workers(jobs: usize, items: usize) -> usize {
    let jobs = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    };
    jobs.min(items).max(1)
}

/// What a scoped thread returned; if it panicked, the panic goes on
/// unwinding here.
pub(crate) fn joined<T>(thread: std::thread::ScopedJoinHandle<'_, T>) -> T {
    thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// `first` and `second`, the first on a thread of its own when
/// `on_two_threads`, else one after the other; their results in order.
pub(crate) fn both<A: Send, B>(
    on_two_threads: bool,
    first: impl FnOnce() -> A + Send,
    second: impl FnOnce() -> B,
) -> (A, B) {
    if !on_two_threads {
        let a = first();
        return (a, second());
    }
    std::thread::scope(|scope| {
        let a = scope.spawn(first);
        let b = second();
        (joined(a), b)
    })
}

/// `work` on every item with up to `jobs` threads (0: one per available
/// core); one result per item, in order.
pub fn in_parallel<I: Sync, T: Send>(items: &[I], jobs: usize, work: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let jobs = workers(jobs, items.len());
    if jobs == 1 {
        return items.iter().map(work).collect();
    }
    let slots: Vec<Mutex<Option<T>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = work(item);
                // A slot is written by exactly one thread; a poisoned lock can
                // only come from a panic elsewhere, and the value is still ours.
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every item is worked on once the threads are joined")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use crate::engine::check_files;
    use crate::Interrupt;
    use crate::{Config, Error, Report};

    #[test]
    fn results_are_in_input_order_whatever_the_jobs() {
        let dir = std::env::temp_dir().join(format!("toolwire-threads-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut paths: Vec<PathBuf> = Vec::new();
        for i in 0..40 {
            let path = dir.join(format!("w{i}.json"));
            let body = match i % 4 {
                0 => "{\"nodes\": [".to_string(),
                1 => format!(r#"{{"nodes": [{{"id": "n{i}"}}]}}"#),
                _ => r#"{"edges": [{"source": "a", "target": "b", "targetHandle": "b-input-tool"}]}"#.to_string(),
            };
            std::fs::write(&path, body).unwrap();
            paths.push(path);
        }
        paths.push(dir.join("missing.json"));
        let describe = |outcomes: Vec<Result<Report, Error>>| -> Vec<String> {
            outcomes
                .into_iter()
                .map(|o| match o {
                    Ok(r) => format!("ok {} {}", r.stats.nodes, r.stats.tool_edges),
                    Err(Error::Io(e)) => format!("io {:?}", e.kind()),
                    Err(Error::Input(e, at)) => format!("input {} {:?}", e.message, at),
                    Err(other) => format!("other {other}"),
                })
                .collect()
        };
        let one = describe(check_files(&paths, None, &Config::default(), 1, Interrupt::never()));
        let four = describe(check_files(&paths, None, &Config::default(), 4, Interrupt::never()));
        assert_eq!(one, four);
        assert!(one[0].starts_with("input invalid JSON"));
        assert_eq!(one[1], "ok 1 0");
        assert_eq!(one[2], "ok 0 1");
        assert_eq!(one[40], "io NotFound");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
