//! Reading a file to check: large files are mapped (on Linux), others read
//! in pieces with a look at the interrupt between. Checking many files at
//! once is `threads::in_parallel`'s work (see `engine::check_files`).

use std::path::Path;

use crate::budget::{Budget, Interrupt};

#[cfg(target_os = "linux")]
/// Files at least this large are mapped rather than read (on Linux): the
/// read of a 470 MB file spends most of its time faulting in and zeroing
/// fresh memory to copy the page cache into, which a mapping does not need.
const MAP_FROM_BYTES: u64 = 4 << 20;

/// Reads go in pieces of this size, with a look at the interrupt between.
const PIECE: usize = 16 << 20;

/// A file's bytes: mapped when it is large, else read into memory.
pub enum FileBytes {
    Read(Vec<u8>),
    #[cfg(target_os = "linux")]
    Mapped(mapped::Mapping),
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Read(bytes) => bytes,
            #[cfg(target_os = "linux")]
            FileBytes::Mapped(mapping) => mapping.bytes(),
        }
    }
}

impl FileBytes {
    /// Gives the bytes back without waiting: a large mapping is unmapped
    /// on a thread of its own, which takes tens of milliseconds for
    /// hundreds of megabytes (every page-table entry is cleared) that the
    /// caller need not wait for. Should no thread start, it is unmapped
    /// here.
    pub fn release_in_background(self) {
        match self {
            FileBytes::Read(bytes) => drop(bytes),
            #[cfg(target_os = "linux")]
            FileBytes::Mapped(mapping) => {
                // A failed spawn drops the closure, and the mapping with it.
                let _ = std::thread::Builder::new()
                    .name("toolwire-unmap".into())
                    .spawn(move || drop(mapping));
            }
        }
    }
}

/// The whole file. Large files are mapped and their pages loaded a piece at
/// a time, others read a piece at a time; either way `interrupt` is looked
/// at between pieces, so Ctrl-C is honoured within one piece, not after a
/// read of hundreds of megabytes. An interrupted read is an error of kind
/// `Interrupted`. When the budget allows a thread, a mapping's pieces are
/// loaded on every core.
pub fn read_file(path: &Path, budget: Budget<'_>) -> std::io::Result<FileBytes> {
    let file = std::fs::File::open(path)?;
    let size = file.metadata()?.len();
    #[cfg(target_os = "linux")]
    if size >= MAP_FROM_BYTES {
        if let Some(mapping) = mapped::Mapping::of(&file, size, budget)? {
            return Ok(FileBytes::Mapped(mapping));
        }
    }
    read_in_pieces(file, size, budget.interrupt).map(FileBytes::Read)
}

fn read_in_pieces(mut file: std::fs::File, size: u64, interrupt: Interrupt<'_>) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let size = usize::try_from(size).unwrap_or(0);
    let mut buffer = Vec::with_capacity(size.saturating_add(1));
    loop {
        if interrupt.requested() {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        // `take` on a reference: the file's own position moves on.
        let read = (&mut file).take(PIECE as u64).read_to_end(&mut buffer)?;
        if read == 0 {
            return Ok(buffer);
        }
    }
}

#[cfg(target_os = "linux")]
mod mapped {
    use super::PIECE;
    use crate::budget::Budget;
    use crate::threads::in_parallel;
    use std::os::fd::AsRawFd;

    /// A read-only private mapping of a whole file.
    ///
    /// The one hazard of mapping: if another process truncates the file
    /// while it is being checked, reading the lost pages raises SIGBUS and
    /// ends the process. A file is checked after whatever writes it is done,
    /// so this trade (no copy of hundreds of megabytes) is taken; see
    /// docs/RELIABILITY.md.
    pub struct Mapping {
        start: *mut libc::c_void,
        len: usize,
    }

    // SAFETY: the mapping is read-only and owned by this value; sharing
    // reads of it between threads is as safe as sharing a `&[u8]`.
    unsafe impl Send for Mapping {}
    unsafe impl Sync for Mapping {}

    impl Mapping {
        /// Maps `file` (of `size` bytes) and loads its pages a piece at a
        /// time, on every core when the budget allows a thread (loading is the kernel
        /// filling page tables, which two threads do in half the time);
        /// `None` when it cannot be mapped, and it is then read.
        pub fn of(file: &std::fs::File, size: u64, budget: Budget<'_>) -> std::io::Result<Option<Mapping>> {
            let Ok(len) = usize::try_from(size) else {
                return Ok(None);
            };
            // SAFETY: a fresh mapping of `len` bytes of an open file, at an
            // address the kernel picks; nothing else refers to it.
            let start = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE,
                    file.as_raw_fd(),
                    0,
                )
            };
            if start == libc::MAP_FAILED {
                return Ok(None);
            }
            let mapping = Mapping { start, len };
            let pieces: Vec<usize> = (0..len).step_by(PIECE).collect();
            let loaded = in_parallel(&pieces, if budget.allow_thread { 0 } else { 1 }, |&at| {
                if budget.interrupt.requested() {
                    return Err(std::io::ErrorKind::Interrupted.into());
                }
                mapping.load(at, PIECE.min(len - at))
            });
            // The first error in file order, as one thread would have met it.
            loaded.into_iter().collect::<std::io::Result<Vec<()>>>()?;
            Ok(Some(mapping))
        }

        /// Loads the pages of `len` bytes from `at`.
        fn load(&self, at: usize, len: usize) -> std::io::Result<()> {
            // SAFETY: the caller keeps the range inside the mapping. The
            // advice only loads pages; a kernel without it (before Linux
            // 5.14) answers EINVAL, and pages are then loaded when first read.
            let loaded =
                unsafe { libc::madvise(self.start.cast::<u8>().add(at).cast(), len, libc::MADV_POPULATE_READ) };
            if loaded != 0 {
                let error = std::io::Error::last_os_error();
                if error.raw_os_error() != Some(libc::EINVAL) {
                    return Err(error);
                }
            }
            Ok(())
        }

        pub fn bytes(&self) -> &[u8] {
            // SAFETY: `start` maps `len` readable bytes for as long as
            // `self` lives.
            unsafe { std::slice::from_raw_parts(self.start.cast::<u8>(), self.len) }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: unmaps exactly the mapping this value owns.
            unsafe { libc::munmap(self.start, self.len) };
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::budget::{Budget, Interrupt};

    #[cfg(target_os = "linux")]
    #[test]
    fn a_mapped_file_reads_the_same_loaded_on_one_thread_or_many() {
        use super::{read_file, MAP_FROM_BYTES, PIECE};
        let path = std::env::temp_dir().join(format!("toolwire-mapped-{}.bin", std::process::id()));
        // Large enough to be mapped, in several pieces, the last one short.
        let len = (MAP_FROM_BYTES as usize).max(2 * PIECE) + PIECE / 3;
        let bytes: Vec<u8> = (0..len).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        for allow_thread in [false, true] {
            let read = read_file(&path, Budget::new(allow_thread, Interrupt::never())).unwrap();
            assert!(matches!(read, super::FileBytes::Mapped(_)));
            assert!(*read == bytes[..], "allow_thread {allow_thread}");
            let stop = std::sync::atomic::AtomicBool::new(true);
            let stopped = read_file(&path, Budget::new(allow_thread, Interrupt::on(&stop)))
                .err()
                .map(|e| e.kind());
            assert_eq!(stopped, Some(std::io::ErrorKind::Interrupted));
        }
        std::fs::remove_file(&path).unwrap();
    }
}
