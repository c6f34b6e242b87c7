//! The aarch64 kernel: four 16-byte vectors per block, each class a few byte
//! compares, turned into a 64-bit mask by weighting each byte with its bit
//! and adding neighbours pairwise (NEON has no movemask).

use std::arch::aarch64::*;

use super::{index_blocks, Classify, Indexer, Masks, Refused};

/// `index_blocks` compiled for NEON, with the NEON kernel inlined.
///
/// # Safety
/// The CPU must support NEON.
#[target_feature(enable = "neon")]
pub unsafe fn index_neon(indexer: &mut Indexer<'_>, end: usize, out: &mut Vec<u32>) -> Result<(), Refused> {
    index_blocks::<Neon>(indexer, end, out)
}

struct Neon;

impl Classify for Neon {
    #[inline(always)]
    unsafe fn classify(block: &[u8; 64]) -> Masks {
        let p = block.as_ptr();
        let v = [
            vld1q_u8(p),
            vld1q_u8(p.add(16)),
            vld1q_u8(p.add(32)),
            vld1q_u8(p.add(48)),
        ];
        let class = |test: &dyn Fn(uint8x16_t) -> uint8x16_t| to_bits([test(v[0]), test(v[1]), test(v[2]), test(v[3])]);
        let eq = |x: uint8x16_t, byte: u8| vceqq_u8(x, vdupq_n_u8(byte));
        Masks {
            quote: class(&|x| eq(x, b'"')),
            backslash: class(&|x| eq(x, b'\\')),
            op: class(&|x| {
                // `{` `}` and `[` `]` differ from each other only in bit 0x20.
                let folded = vorrq_u8(x, vdupq_n_u8(0x20));
                let brace = vorrq_u8(eq(folded, b'{'), eq(folded, b'}'));
                vorrq_u8(brace, vorrq_u8(eq(x, b':'), eq(x, b',')))
            }),
            space: class(&|x| {
                vorrq_u8(
                    vorrq_u8(eq(x, b' '), eq(x, b'\n')),
                    vorrq_u8(eq(x, b'\r'), eq(x, b'\t')),
                )
            }),
            control: class(&|x| vcleq_u8(x, vdupq_n_u8(0x1f))),
        }
    }
}

/// One bit per byte of four compare results (0xff or 0 per byte).
#[inline(always)]
unsafe fn to_bits(v: [uint8x16_t; 4]) -> u64 {
    const WEIGHTS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];
    let w = vld1q_u8(WEIGHTS.as_ptr());
    let [a, b, c, d] = v.map(|x| vandq_u8(x, w));
    let ab = vpaddq_u8(a, b);
    let cd = vpaddq_u8(c, d);
    let abcd = vpaddq_u8(ab, cd);
    let bytes = vpaddq_u8(abcd, abcd);
    vgetq_lane_u64::<0>(vreinterpretq_u64_u8(bytes))
}
