//! Checking many files in parallel. Each call makes its own scoped threads
//! (no global pool to deadlock after `fork()`), files are handed out one at a
//! time from a shared counter, and results come back in input order, so the
//! output is the same for any number of jobs.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::check::check_bytes_with;
use crate::interrupt::Interrupt;
use crate::{Config, InputError, Location, Report};

/// Why one file of a batch could not be checked.
#[derive(Debug)]
pub enum FileError {
    Io(std::io::Error),
    /// The input error, located while the file's bytes were still at hand.
    Input(InputError, Option<Location>),
}

pub type FileOutcome = Result<Report, FileError>;

/// Reads and checks one file; see `check_bytes_with` for the options.
pub fn check_path(path: &Path, config: &Config, allow_thread: bool, interrupt: Interrupt<'_>) -> FileOutcome {
    if interrupt.requested() {
        return Err(FileError::Input(Interrupt::error(), None));
    }
    let bytes = read_file(path).map_err(FileError::Io)?;
    check_bytes_with(&bytes, config, allow_thread, interrupt).map_err(|e| {
        let location = e.location(&bytes);
        FileError::Input(e, location)
    })
}

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

/// Checks every file with up to `jobs` threads; one outcome per path, in
/// order. `jobs == 0` means one per available core.
pub fn check_paths(paths: &[PathBuf], config: &Config, jobs: usize, interrupt: Interrupt<'_>) -> Vec<FileOutcome> {
    let jobs = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    };
    let jobs = jobs.min(paths.len()).max(1);
    if jobs == 1 {
        return paths.iter().map(|p| check_path(p, config, true, interrupt)).collect();
    }
    let slots: Vec<Mutex<Option<FileOutcome>>> = paths.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(path) = paths.get(i) else { break };
                // Every core is busy with a file already: no second thread each.
                let outcome = check_path(path, config, false, interrupt);
                // A slot is written by exactly one thread; a poisoned lock can
                // only come from a panic elsewhere, and the value is still ours.
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .unwrap_or_else(|| Err(FileError::Io(std::io::Error::other("the file was not checked"))))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_in_input_order_whatever_the_jobs() {
        let dir = std::env::temp_dir().join(format!("toolwire-batch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut paths = Vec::new();
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
        let describe = |outcomes: Vec<FileOutcome>| -> Vec<String> {
            outcomes
                .into_iter()
                .map(|o| match o {
                    Ok(r) => format!("ok {} {}", r.stats.nodes, r.stats.tool_edges),
                    Err(FileError::Io(e)) => format!("io {:?}", e.kind()),
                    Err(FileError::Input(e, at)) => format!("input {} {:?}", e.message, at),
                })
                .collect()
        };
        let one = describe(check_paths(&paths, &Config::default(), 1, Interrupt::never()));
        let four = describe(check_paths(&paths, &Config::default(), 4, Interrupt::never()));
        assert_eq!(one, four);
        assert!(one[0].starts_with("input invalid JSON"));
        assert_eq!(one[1], "ok 1 0");
        assert_eq!(one[2], "ok 0 1");
        assert_eq!(one[40], "io NotFound");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
