//! Exact counts of call chains. Nested calls multiply: twenty levels of two
//! calls are a million chains, and a site of a few hundred small workflows
//! can have more chains than a `u128` holds. The site check only ever adds
//! counts, so a little-endian vector of 64-bit limbs is all it needs.

use std::cmp::Ordering;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ChainCount {
    /// Least significant first; no trailing zero limbs (zero is empty).
    limbs: Vec<u64>,
}

impl ChainCount {
    pub fn one() -> ChainCount {
        ChainCount { limbs: vec![1] }
    }

    pub fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    pub fn add(&mut self, other: &ChainCount) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = false;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let add = other.limbs.get(i).copied().unwrap_or(0);
            if add == 0 && !carry && i >= other.limbs.len() {
                break;
            }
            let (sum, c1) = limb.overflowing_add(add);
            let (sum, c2) = sum.overflowing_add(carry as u64);
            *limb = sum;
            carry = c1 || c2;
        }
        if carry {
            self.limbs.push(1);
        }
    }

    /// This count `k` times: `k` groups of these chains.
    pub fn times(&self, k: u64) -> ChainCount {
        let mut limbs = Vec::with_capacity(self.limbs.len() + 1);
        let mut carry: u128 = 0;
        for &limb in &self.limbs {
            let product = limb as u128 * k as u128 + carry;
            limbs.push(product as u64);
            carry = product >> 64;
        }
        if carry > 0 {
            limbs.push(carry as u64);
        }
        while limbs.last() == Some(&0) {
            limbs.pop();
        }
        ChainCount { limbs }
    }

    /// The count when it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs.len() {
            0 => Some(0),
            1 => Some(self.limbs[0]),
            _ => None,
        }
    }

    /// In decimal digits, for front ends with their own big integers.
    pub fn to_decimal(&self) -> String {
        if self.limbs.is_empty() {
            return "0".to_owned();
        }
        // Repeated division by 10^19, the largest power of ten in a u64.
        const CHUNK: u64 = 10_000_000_000_000_000_000;
        let mut limbs = self.limbs.clone();
        let mut chunks = Vec::new();
        while !limbs.is_empty() {
            let mut rest: u128 = 0;
            for limb in limbs.iter_mut().rev() {
                let value = (rest << 64) | *limb as u128;
                *limb = (value / CHUNK as u128) as u64;
                rest = value % CHUNK as u128;
            }
            chunks.push(rest as u64);
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        let mut text = chunks.pop().map(|c| c.to_string()).unwrap_or_default();
        for chunk in chunks.iter().rev() {
            text.push_str(&format!("{chunk:019}"));
        }
        text
    }
}

impl PartialOrd for ChainCount {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ChainCount {
    fn cmp(&self, other: &Self) -> Ordering {
        self.limbs
            .len()
            .cmp(&other.limbs.len())
            .then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::ChainCount;

    fn doubled(times: u32) -> ChainCount {
        let mut c = ChainCount::one();
        for _ in 0..times {
            let copy = c.clone();
            c.add(&copy);
        }
        c
    }

    #[test]
    fn doubling_is_exact_past_u64_and_u128() {
        assert_eq!(doubled(20).to_u64(), Some(1 << 20));
        assert_eq!(doubled(63).to_decimal(), (1u64 << 63).to_string());
        assert_eq!(doubled(64).to_u64(), None);
        assert_eq!(doubled(64).to_decimal(), "18446744073709551616");
        assert_eq!(doubled(127).to_decimal(), (1u128 << 127).to_string());
        assert_eq!(
            doubled(200).to_decimal(),
            "1606938044258990275541962092341162602522202993782792835301376"
        );
    }

    #[test]
    fn times_is_repeated_addition_across_limbs() {
        for (base, k) in [(0, 3), (1, 0), (64, 1), (63, 6), (127, 17)] {
            let c = doubled(base);
            let mut added = ChainCount::default();
            for _ in 0..k {
                added.add(&c);
            }
            assert_eq!(c.times(k), added, "2^{base} x {k}");
        }
        // 2^100 x (2^64 - 1) + 2^100 = 2^164: the carry out of the top limb.
        let mut big = doubled(100).times(u64::MAX);
        big.add(&doubled(100));
        assert_eq!(big, doubled(164));
        assert!(ChainCount::one().times(0).is_zero());
    }

    #[test]
    fn carries_run_through_every_limb() {
        let mut c = doubled(128);
        // 2^128 - 1 + 1: build 2^128 - 1 as the sum of all lower powers.
        let mut all_ones = ChainCount::default();
        for k in 0..128 {
            all_ones.add(&doubled(k));
        }
        all_ones.add(&ChainCount::one());
        assert_eq!(all_ones, c);
        c.add(&ChainCount::default());
        assert_eq!(c.to_decimal(), "340282366920938463463374607431768211456");
        assert!(ChainCount::default().is_zero());
        assert!(doubled(65) > doubled(64) && doubled(3) < doubled(64));
    }
}
