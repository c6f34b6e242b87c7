//! The x86-64 kernels: 32 bytes at a time with AVX2, 16 with SSE4.2. Each
//! class is a few byte compares and one movemask per vector.

use std::arch::x86_64::*;

use super::{index_blocks, Classify, Indexer, Masks, Refused};

/// `index_blocks` compiled for AVX2, with the AVX2 kernel inlined.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub unsafe fn index_avx2(indexer: &mut Indexer<'_>, end: usize, out: &mut Vec<u32>) -> Result<(), Refused> {
    index_blocks::<Avx2>(indexer, end, out)
}

/// `index_blocks` compiled for SSE4.2, with the SSE kernel inlined.
///
/// # Safety
/// The CPU must support SSE4.2.
#[target_feature(enable = "sse4.2")]
pub unsafe fn index_sse42(indexer: &mut Indexer<'_>, end: usize, out: &mut Vec<u32>) -> Result<(), Refused> {
    index_blocks::<Sse42>(indexer, end, out)
}

struct Avx2;

impl Classify for Avx2 {
    #[inline(always)]
    unsafe fn classify(block: &[u8; 64]) -> Masks {
        let low = half_avx2(_mm256_loadu_si256(block.as_ptr().cast()));
        let high = half_avx2(_mm256_loadu_si256(block.as_ptr().add(32).cast()));
        let join = |l: u32, h: u32| u64::from(l) | (u64::from(h) << 32);
        Masks {
            quote: join(low[0], high[0]),
            backslash: join(low[1], high[1]),
            op: join(low[2], high[2]),
            space: join(low[3], high[3]),
            control: join(low[4], high[4]),
        }
    }
}

/// The five class masks of 32 bytes: quote, backslash, op, space, control.
/// (Macros rather than closures: a closure does not inherit the enclosing
/// function's target features, and its intrinsics would not be inlined.)
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn half_avx2(v: __m256i) -> [u32; 5] {
    macro_rules! eq {
        ($x:expr, $byte:expr) => {
            _mm256_cmpeq_epi8($x, _mm256_set1_epi8($byte as i8))
        };
    }
    macro_rules! or {
        ($a:expr, $b:expr) => {
            _mm256_or_si256($a, $b)
        };
    }
    // `{` `}` and `[` `]` differ from each other only in bit 0x20.
    let folded = or!(v, _mm256_set1_epi8(0x20));
    let op = or!(
        or!(eq!(folded, b'{'), eq!(folded, b'}')),
        or!(eq!(v, b':'), eq!(v, b','))
    );
    let space = or!(or!(eq!(v, b' '), eq!(v, b'\n')), or!(eq!(v, b'\r'), eq!(v, b'\t')));
    // Unsigned v <= 0x1f: the minimum of v and 0x1f is v.
    let control = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v);
    [
        _mm256_movemask_epi8(eq!(v, b'"')) as u32,
        _mm256_movemask_epi8(eq!(v, b'\\')) as u32,
        _mm256_movemask_epi8(op) as u32,
        _mm256_movemask_epi8(space) as u32,
        _mm256_movemask_epi8(control) as u32,
    ]
}

struct Sse42;

impl Classify for Sse42 {
    #[inline(always)]
    unsafe fn classify(block: &[u8; 64]) -> Masks {
        let mut m = Masks::default();
        for part in 0..4 {
            let v = _mm_loadu_si128(block.as_ptr().add(16 * part).cast());
            let [quote, backslash, op, space, control] = quarter_sse(v);
            let shift = 16 * part;
            m.quote |= u64::from(quote) << shift;
            m.backslash |= u64::from(backslash) << shift;
            m.op |= u64::from(op) << shift;
            m.space |= u64::from(space) << shift;
            m.control |= u64::from(control) << shift;
        }
        m
    }
}

/// The five class masks of 16 bytes, as `half_avx2` does for 32.
#[target_feature(enable = "sse4.2")]
#[inline]
unsafe fn quarter_sse(v: __m128i) -> [u16; 5] {
    macro_rules! eq {
        ($x:expr, $byte:expr) => {
            _mm_cmpeq_epi8($x, _mm_set1_epi8($byte as i8))
        };
    }
    macro_rules! or {
        ($a:expr, $b:expr) => {
            _mm_or_si128($a, $b)
        };
    }
    let folded = or!(v, _mm_set1_epi8(0x20));
    let op = or!(
        or!(eq!(folded, b'{'), eq!(folded, b'}')),
        or!(eq!(v, b':'), eq!(v, b','))
    );
    let space = or!(or!(eq!(v, b' '), eq!(v, b'\n')), or!(eq!(v, b'\r'), eq!(v, b'\t')));
    let control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
    [
        _mm_movemask_epi8(eq!(v, b'"')) as u16,
        _mm_movemask_epi8(eq!(v, b'\\')) as u16,
        _mm_movemask_epi8(op) as u16,
        _mm_movemask_epi8(space) as u16,
        _mm_movemask_epi8(control) as u16,
    ]
}
