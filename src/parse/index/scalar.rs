//! The portable kernel: a table lookup per byte. Every CPU runs it, and the
//! tests hold the SIMD kernels to its answers.

use super::{Classify, Masks};

const QUOTE: u8 = 1;
const BACKSLASH: u8 = 2;
const OP: u8 = 4;
const SPACE: u8 = 8;
const CONTROL: u8 = 16;

static CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = CONTROL;
        b += 1;
    }
    table[b'"' as usize] = QUOTE;
    table[b'\\' as usize] = BACKSLASH;
    let ops = b"{}[]:,";
    let mut i = 0;
    while i < ops.len() {
        table[ops[i] as usize] = OP;
        i += 1;
    }
    table[b' ' as usize] = SPACE;
    table[b'\t' as usize] |= SPACE;
    table[b'\n' as usize] |= SPACE;
    table[b'\r' as usize] |= SPACE;
    table
};

pub struct Scalar;

impl Classify for Scalar {
    #[inline(always)]
    unsafe fn classify(block: &[u8; 64]) -> Masks {
        let mut m = Masks::default();
        for (i, &byte) in block.iter().enumerate() {
            let class = u64::from(CLASSES[byte as usize]);
            m.quote |= (class & 1) << i;
            m.backslash |= ((class >> 1) & 1) << i;
            m.op |= ((class >> 2) & 1) << i;
            m.space |= ((class >> 3) & 1) << i;
            m.control |= ((class >> 4) & 1) << i;
        }
        m
    }
}
