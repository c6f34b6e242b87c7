//! Stage 1 of the parse: the structural index. One pass over the text, 64
//! bytes at a time, finds every character that matters to the JSON grammar
//! (`{ } [ ] : ,`, the opening quote of each string, the first byte of each
//! number or literal) and checks what the grammar walk will not look at:
//! that strings are closed, hold no raw control character, and escape only
//! what JSON allows (lone surrogates included). Stage 2 (`cursor`) then walks
//! the index and never reads the inside of a string it does not want.
//!
//! The bytes of a block are classified by a *kernel*: AVX2 or SSE4.2 on
//! x86-64 and NEON on aarch64, chosen at run time, and a portable scalar one
//! that every machine has and the tests compare them with. Everything after
//! the classification is arithmetic on 64-bit masks, shared by all kernels.
//!
//! The index is made a window at a time, so its memory does not grow with
//! the input.

#[cfg(target_arch = "aarch64")]
mod neon;
mod scalar;
#[cfg(target_arch = "x86_64")]
mod x86;

/// One bit per byte of a 64-byte block, for each class stage 1 needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Masks {
    pub quote: u64,
    pub backslash: u64,
    /// `{ } [ ] : ,`
    pub op: u64,
    /// The four bytes JSON counts as whitespace.
    pub space: u64,
    /// Bytes below 0x20, which JSON forbids raw inside strings.
    pub control: u64,
}

/// A way to classify the bytes of a block. Implementations are inlined into
/// a loop compiled for their CPU features, so the call costs nothing.
trait Classify {
    /// # Safety
    /// The CPU must have the kernel's features.
    unsafe fn classify(block: &[u8; 64]) -> Masks;
}

/// The kernels, in the order `best` prefers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    Avx2,
    Sse42,
    Neon,
    Scalar,
}

impl Kernel {
    pub const ALL: [Kernel; 4] = [Kernel::Avx2, Kernel::Sse42, Kernel::Neon, Kernel::Scalar];

    pub fn name(self) -> &'static str {
        match self {
            Kernel::Avx2 => "avx2",
            Kernel::Sse42 => "sse4.2",
            Kernel::Neon => "neon",
            Kernel::Scalar => "scalar",
        }
    }

    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether this CPU can run the kernel.
    pub fn is_supported(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse42 => std::arch::is_x86_feature_detected!("sse4.2"),
            #[cfg(target_arch = "aarch64")]
            Kernel::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            Kernel::Scalar => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The kernels this CPU can run, fastest first.
    pub fn supported() -> Vec<Kernel> {
        Kernel::ALL.into_iter().filter(|k| k.is_supported()).collect()
    }

    /// The fastest kernel this CPU runs.
    pub fn best() -> Kernel {
        Kernel::supported().first().copied().unwrap_or(Kernel::Scalar)
    }
}

/// Why stage 1 refused the text. Stage 1 does not word errors: the caller
/// re-reads the text with the byte scanner, which says exactly what and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

/// What carries from one block to the next.
#[derive(Debug, Clone, Copy, Default)]
struct Carry {
    /// Bit 0 set when the block's first byte is escaped by a backslash
    /// that ends the previous block.
    escaped: u64,
    /// All ones inside a string, else zero.
    in_string: u64,
    /// Bit 0 set when the previous block ends in a number or literal byte.
    scalar: u64,
    /// Where the `u` of an escaped low surrogate already checked as the
    /// second half of a pair sits.
    paired_low: usize,
}

/// Walks a text a window at a time, appending the offsets of its
/// structurals to a caller's buffer.
pub struct Indexer<'a> {
    text: &'a [u8],
    kernel: Kernel,
    /// Where the next block starts.
    next: usize,
    carry: Carry,
}

/// Bytes indexed per `fill`: small enough that the offsets stay in cache
/// until stage 2 reads them.
pub const WINDOW: usize = 16 << 10;

impl<'a> Indexer<'a> {
    /// An indexer using `kernel`, which the CPU must support (else scalar).
    pub fn with_kernel(text: &'a [u8], kernel: Kernel) -> Self {
        let kernel = if kernel.is_supported() { kernel } else { Kernel::Scalar };
        Indexer {
            text,
            kernel,
            next: 0,
            carry: Carry::default(),
        }
    }

    pub fn is_done(&self) -> bool {
        self.next >= self.text.len()
    }

    /// Indexes the next window into `out`, and checks the end of the text
    /// when it gets there.
    pub fn fill(&mut self, out: &mut Vec<u32>) -> Result<(), Refused> {
        let end = self.text.len().min(self.next + WINDOW);
        match self.kernel {
            // SAFETY: `with_kernel` only keeps a kernel the CPU supports.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { x86::index_avx2(self, end, out) }?,
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse42 => unsafe { x86::index_sse42(self, end, out) }?,
            #[cfg(target_arch = "aarch64")]
            Kernel::Neon => unsafe { neon::index_neon(self, end, out) }?,
            _ => index_blocks::<scalar::Scalar>(self, end, out)?,
        }
        // At the end, no string may be open and no backslash may be left
        // escaping nothing.
        if self.is_done() && (self.carry.in_string != 0 || self.carry.escaped != 0) {
            return Err(Refused);
        }
        Ok(())
    }
}

/// Offsets are `u32`: texts up to 4 GiB are indexed directly, and longer
/// ones are refused by `fits` before any indexing starts.
pub fn fits(text: &[u8]) -> bool {
    u32::try_from(text.len()).is_ok()
}

/// The blocks of `[indexer.next, end)`, which starts at a block boundary;
/// the last block of the text is padded with spaces.
#[inline(always)]
fn index_blocks<K: Classify>(indexer: &mut Indexer<'_>, end: usize, out: &mut Vec<u32>) -> Result<(), Refused> {
    let text = indexer.text;
    let mut carry = indexer.carry;
    let mut at = indexer.next;
    while at < end {
        // Whole blocks are read where they are; only the last is copied.
        let padded: [u8; 64];
        let block: &[u8; 64] = match text.get(at..at + 64).map(<&[u8; 64]>::try_from) {
            Some(Ok(whole)) => whole,
            _ => {
                let mut last = [b' '; 64];
                last[..text.len() - at].copy_from_slice(&text[at..]);
                padded = last;
                &padded
            }
        };
        // SAFETY: the caller dispatched to `K` only on a CPU that has its
        // features.
        let masks = std::hint::black_box(unsafe { K::classify(block) });
        let structurals = structurals(text, at, masks, &mut carry)?;
        push_offsets(out, at as u32, structurals);
        at += 64;
    }
    indexer.carry = carry;
    indexer.next = at;
    Ok(())
}

const EVEN_BITS: u64 = 0x5555_5555_5555_5555;
const ODD_BITS: u64 = !EVEN_BITS;

/// The structurals of the block at `base`, from its masks; checks its strings.
#[inline(always)]
fn structurals(text: &[u8], base: usize, m: Masks, carry: &mut Carry) -> Result<u64, Refused> {
    let escaped = escaped(m.backslash, &mut carry.escaped);
    if escaped != 0 {
        check_escapes(text, base, escaped, &mut carry.paired_low)?;
    }
    let quote = m.quote & !escaped;
    let in_string = prefix_xor(quote) ^ carry.in_string;
    carry.in_string = ((in_string as i64) >> 63) as u64;
    // Inside a string, the opening quote included and the closing one not.
    if m.control & in_string != 0 {
        return Err(Refused);
    }
    // A number or literal starts at a byte that is neither an operator nor
    // whitespace and does not follow such a byte (a quote does not count,
    // so `"a"1` has two values, which stage 2 refuses).
    let scalar = !(m.op | m.space);
    let bare = scalar & !quote;
    let follows_bare = (bare << 1) | carry.scalar;
    carry.scalar = bare >> 63;
    let starts = m.op | (scalar & !follows_bare);
    // Nothing inside a string is structural but its opening quote.
    Ok(starts & !(in_string ^ quote))
}

/// The bytes escaped by a backslash: those after an odd run of them. `carry`
/// is bit 0 when the block starts escaped, and is set for the next block.
#[inline(always)]
fn escaped(backslash: u64, carry: &mut u64) -> u64 {
    if backslash == 0 {
        return std::mem::take(carry);
    }
    // A backslash that is itself escaped starts nothing.
    let fresh = backslash & !*carry;
    let run_starts = fresh & !(fresh << 1);
    // Adding a run's start bit to the run carries past its end: the bit
    // after the run. Its length is odd when start and end differ in parity.
    let after_even_starts = fresh.wrapping_add(run_starts & EVEN_BITS) & !fresh;
    let after_odd_starts = fresh.wrapping_add(run_starts & ODD_BITS) & !fresh;
    let escaped = (after_even_starts & ODD_BITS) | (after_odd_starts & EVEN_BITS) | *carry;
    // A run reaching the end escapes the next block's first byte when odd.
    *carry = u64::from(fresh.leading_ones() % 2 == 1);
    escaped
}

/// Bit i set when an odd number of bits at or below i are set: which bytes
/// are inside a string, from the unescaped quotes.
#[inline(always)]
fn prefix_xor(mut bits: u64) -> u64 {
    bits ^= bits << 1;
    bits ^= bits << 2;
    bits ^= bits << 4;
    bits ^= bits << 8;
    bits ^= bits << 16;
    bits ^= bits << 32;
    bits
}

/// Checks each escaped byte: one of `" \ / b f n r t`, or `u` and four hex
/// digits, where a high surrogate must be followed by an escaped low one and
/// a low one must follow a high one. Escapes are rare, so this is plain code.
#[cold]
fn check_escapes(text: &[u8], base: usize, mut escaped: u64, paired_low: &mut usize) -> Result<(), Refused> {
    while escaped != 0 {
        let at = base + escaped.trailing_zeros() as usize;
        escaped &= escaped - 1;
        match text.get(at) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {}
            Some(b'u') => match hex4(text, at + 1).ok_or(Refused)? {
                0xD800..=0xDBFF => {
                    let low_escape = text.get(at + 5..at + 7) == Some(b"\\u");
                    if !low_escape || !matches!(hex4(text, at + 7), Some(0xDC00..=0xDFFF)) {
                        return Err(Refused);
                    }
                    *paired_low = at + 6;
                }
                0xDC00..=0xDFFF if *paired_low != at => return Err(Refused),
                _ => {}
            },
            _ => return Err(Refused),
        }
    }
    Ok(())
}

fn hex4(text: &[u8], at: usize) -> Option<u32> {
    let digits = text.get(at..at + 4)?;
    digits
        .iter()
        .try_fold(0u32, |value, &d| Some(value * 16 + (d as char).to_digit(16)?))
}

/// Appends `base + i` for each bit i of `bits`. Writes eight at a time
/// before looking at how many there were: fewer branches than one loop turn
/// per bit, on blocks that typically hold ten to twenty.
#[inline(always)]
fn push_offsets(out: &mut Vec<u32>, base: u32, mut bits: u64) {
    let count = bits.count_ones() as usize;
    if count == 0 {
        return;
    }
    let len = out.len();
    out.reserve(count + 8);
    let spare = out.spare_capacity_mut();
    let mut written = 0;
    while written < count {
        for slot in &mut spare[written..written + 8] {
            slot.write(base + bits.trailing_zeros());
            bits &= bits.wrapping_sub(1);
        }
        written += 8;
    }
    // SAFETY: the first `count` spare slots were written above (the loop
    // writes in steps of eight and stops at or past `count`, all within the
    // `count + 8` reserved).
    unsafe { out.set_len(len + count) };
}

#[cfg(test)]
mod tests;
