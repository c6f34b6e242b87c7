//! Checking many files in parallel. Each call makes its own scoped threads
//! (no global pool to deadlock after `fork()`), files are handed out one at a
//! time from a shared counter, and results come back in input order, so the
//! output is the same for any number of jobs.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The whole file, in one buffer sized from its metadata. On Linux a large
/// buffer is backed by transparent huge pages where the kernel allows it:
/// for a file of hundreds of megabytes, faulting in 4 KiB pages one by one
/// costs more than copying the bytes.
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let size = usize::try_from(file.metadata()?.len()).unwrap_or(0);
    let mut buffer = Vec::with_capacity(size.saturating_add(1));
    advise_huge_pages(&mut buffer);
    file.read_to_end(&mut buffer)?;
    Ok(buffer)
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(buffer: &mut Vec<u8>) {
    const HUGE_PAGE: usize = 2 << 20;
    if buffer.capacity() < 4 * HUGE_PAGE {
        return;
    }
    let start = buffer.as_mut_ptr() as usize;
    let aligned = start.next_multiple_of(HUGE_PAGE);
    let end = (start + buffer.capacity()) / HUGE_PAGE * HUGE_PAGE;
    if end > aligned {
        // SAFETY: the range lies inside the allocation `buffer` owns and
        // nothing else uses; MADV_HUGEPAGE only advises how to back it and
        // changes no contents. A failure (huge pages off) is harmless.
        unsafe {
            libc::madvise(aligned as *mut libc::c_void, end - aligned, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_buffer: &mut Vec<u8>) {}

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
    use crate::interrupt::Interrupt;
    use crate::{Config, Error, Report};

    #[test]
    fn results_are_in_input_order_whatever_the_jobs() {
        let dir = std::env::temp_dir().join(format!("toolwire-batch-{}", std::process::id()));
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
        let one = describe(check_files(&paths, &Config::default(), 1, Interrupt::never()));
        let four = describe(check_files(&paths, &Config::default(), 4, Interrupt::never()));
        assert_eq!(one, four);
        assert!(one[0].starts_with("input invalid JSON"));
        assert_eq!(one[1], "ok 1 0");
        assert_eq!(one[2], "ok 0 1");
        assert_eq!(one[40], "io NotFound");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
