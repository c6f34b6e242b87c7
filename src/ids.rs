//! The table that numbers node ids as they are read. On a workflow of a
//! million nodes and two million tool edges, five million lookups land at
//! random places in tables far larger than the cache, and they, not the
//! parse, bound how fast a large file is read. So the table is kept lean:
//! one 8-byte slot per entry holding the node number and 32 bits of the id's
//! hash, probed linearly, so a lookup reads one cache line of the table and
//! compares ids only when the hash bits match (with a compact copy the
//! caller keeps, see `GraphBuilder::id_copies`); and a lookup can be
//! announced ahead (`prefetch`), so the cache line is on its way while the
//! records before it are handled.

use crate::graph::NodeIx;

/// An empty slot. Occupied slots hold `tag << 32 | (node + 1)`.
const EMPTY: u64 = 0;

pub struct IdTable {
    slots: Vec<u64>,
    mask: usize,
    len: usize,
}

fn tag(hash: u64) -> u64 {
    hash >> 32
}

impl Default for IdTable {
    fn default() -> Self {
        IdTable::with_capacity(0)
    }
}

impl IdTable {
    /// A table that holds `entries` without growing.
    pub fn with_capacity(entries: usize) -> Self {
        // At most three quarters full: linear probes then stay short.
        let slots = (entries.saturating_mul(4) / 3).max(16).next_power_of_two();
        IdTable {
            slots: vec![EMPTY; slots],
            mask: slots - 1,
            len: 0,
        }
    }

    fn home(&self, hash: u64) -> usize {
        hash as usize & self.mask
    }

    /// Asks the CPU to start loading the slot a lookup of `hash` reads first.
    #[inline(always)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = self.slots.as_ptr().wrapping_add(self.home(hash));
            // SAFETY: a prefetch is only a hint: it never faults, and SSE
            // (which it needs) is part of every x86-64 CPU.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The node whose id hashes to `hash` and for which `is_it` holds, or a
    /// new entry for the node `new` numbers; true when it is new. `hash_of`
    /// gives the hash of a node already numbered, when the table grows.
    #[inline]
    pub fn find_or_insert<E>(
        &mut self,
        hash: u64,
        is_it: impl Fn(NodeIx) -> bool,
        new: impl FnOnce() -> Result<NodeIx, E>,
        hash_of: impl Fn(NodeIx) -> u64,
    ) -> Result<(NodeIx, bool), E> {
        // Grown before the lookup, while every numbered node has its hash.
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow(hash_of);
        }
        let mut at = self.home(hash);
        loop {
            let slot = self.slots[at];
            if slot == EMPTY {
                break;
            }
            if slot >> 32 == tag(hash) {
                let node = (slot as u32).wrapping_sub(1);
                if is_it(node) {
                    return Ok((node, false));
                }
            }
            at = (at + 1) & self.mask;
        }
        let node = new()?;
        self.slots[at] = (tag(hash) << 32) | u64::from(node + 1);
        self.len += 1;
        Ok((node, true))
    }

    #[cold]
    fn grow(&mut self, hash_of: impl Fn(NodeIx) -> u64) {
        let doubled = vec![EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != EMPTY) {
            let mut at = self.home(hash_of((slot as u32) - 1));
            while self.slots[at] != EMPTY {
                at = (at + 1) & self.mask;
            }
            self.slots[at] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_each_id_once_through_growth_and_colliding_hashes() {
        // Hashes chosen to collide: 0..4 share every home slot and tag
        // pattern, so equality alone tells ids apart.
        let ids: Vec<String> = (0..5_000).map(|i| format!("id{i}")).collect();
        let hash = |i: usize| (i % 7) as u64 * 0x1_0000_0001;
        let numbered = std::cell::RefCell::new(Vec::<usize>::new());
        let mut table = IdTable::with_capacity(4);
        for round in 0..2 {
            for i in 0..ids.len() {
                let (node, new) = table
                    .find_or_insert::<()>(
                        hash(i),
                        |n| ids[numbered.borrow()[n as usize]] == ids[i],
                        // Numbered as GraphBuilder does: the node is recorded
                        // only after the call, so growing must not ask for it.
                        || Ok(numbered.borrow().len() as NodeIx),
                        |n| hash(numbered.borrow()[n as usize]),
                    )
                    .unwrap();
                if new {
                    numbered.borrow_mut().push(i);
                }
                assert_eq!(new, round == 0, "id {i}");
                assert_eq!(numbered.borrow()[node as usize], i);
            }
        }
        let numbered = numbered.into_inner();
        assert_eq!(numbered.len(), ids.len());
    }
}
