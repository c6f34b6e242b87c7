//! The table that numbers node ids as they are read. On a workflow of a
//! million nodes and two million tool edges, five million lookups land at
//! random places in tables far larger than the cache, and they, not the
//! parse, bound how fast a large file is read. So the table is kept lean:
//! one 8-byte slot per entry holding 24 bits of the id's hash beside where
//! the caller keeps the id (a compact copy, see `GraphBuilder::id_copies`,
//! which also holds the node number), probed linearly. A lookup reads one
//! cache line of the table and then the copy it points to, with no index in
//! between to miss the cache on; and a lookup can be announced ahead
//! (`prefetch`, then `home_entry`), so both lines are on their way while
//! the records before it are handled.

/// An empty slot. Occupied slots hold `tag << ENTRY_BITS | (entry + 1)`.
const EMPTY: u64 = 0;
const ENTRY_BITS: u32 = 40;
/// The largest entry a slot holds: the caller's copies may reach 1 TiB.
pub const MAX_ENTRY: u64 = (1 << ENTRY_BITS) - 2;

pub struct IdTable {
    slots: Vec<u64>,
    mask: usize,
    len: usize,
}

/// The hash bits kept in a slot: the top ones, as the low ones choose it.
fn tag(hash: u64) -> u64 {
    hash >> ENTRY_BITS
}

fn entry(slot: u64) -> u64 {
    (slot & ((1 << ENTRY_BITS) - 1)) - 1
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

    /// The entry in the slot a lookup of `hash` reads first, when its hash
    /// bits match: most likely the one the lookup will find, so the caller
    /// can start loading what it points to. A guess, read a few records
    /// ahead, once `prefetch` has brought the slot in.
    #[inline(always)]
    pub fn home_entry(&self, hash: u64) -> Option<u64> {
        let slot = self.slots[self.home(hash)];
        (slot != EMPTY && slot >> ENTRY_BITS == tag(hash)).then(|| entry(slot))
    }

    /// The entry for which `is_it` holds among those stored with `hash`, or
    /// the entry `new` gives (at most `MAX_ENTRY`), stored; true when it is
    /// new. `hash_of` gives the hash an entry was stored with, when the
    /// table grows.
    #[inline]
    pub fn find_or_insert<E>(
        &mut self,
        hash: u64,
        is_it: impl Fn(u64) -> bool,
        new: impl FnOnce() -> Result<u64, E>,
        hash_of: impl Fn(u64) -> u64,
    ) -> Result<(u64, bool), E> {
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
            if slot >> ENTRY_BITS == tag(hash) && is_it(entry(slot)) {
                return Ok((entry(slot), false));
            }
            at = (at + 1) & self.mask;
        }
        let new = new()?;
        debug_assert!(new <= MAX_ENTRY);
        self.slots[at] = (tag(hash) << ENTRY_BITS) | (new + 1);
        self.len += 1;
        Ok((new, true))
    }

    /// The entry for which `is_it` holds among those stored with `hash`,
    /// if any; nothing is stored.
    pub fn find(&self, hash: u64, is_it: impl Fn(u64) -> bool) -> Option<u64> {
        let mut at = self.home(hash);
        loop {
            let slot = self.slots[at];
            if slot == EMPTY {
                return None;
            }
            if slot >> ENTRY_BITS == tag(hash) && is_it(entry(slot)) {
                return Some(entry(slot));
            }
            at = (at + 1) & self.mask;
        }
    }

    #[cold]
    fn grow(&mut self, hash_of: impl Fn(u64) -> u64) {
        let doubled = vec![EMPTY; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != EMPTY) {
            let mut at = self.home(hash_of(entry(slot)));
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
        let hash = |i: usize| (i % 7) as u64 * 0x0100_0001_0000_0001;
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
                        || Ok(numbered.borrow().len() as u64),
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
        // Looking up stores nothing, and finds each id through the same
        // colliding probes; an id never stored is not found.
        for i in 0..ids.len() {
            let found = table.find(hash(i), |n| ids[numbered[n as usize]] == ids[i]);
            assert_eq!(found.map(|n| numbered[n as usize]), Some(i), "id {i}");
        }
        assert_eq!(table.find(hash(3), |n| ids[numbered[n as usize]] == "absent"), None);
        assert_eq!(table.len, ids.len());
    }

    #[test]
    fn home_entry_guesses_only_an_entry_whose_hash_bits_match() {
        let mut table = IdTable::with_capacity(4);
        let (hash, other_tag) = (0x00AB_CDEF_0000_0003, 0x01AB_CDEF_0000_0003);
        assert_eq!(table.home_entry(hash), None, "an empty slot");
        let stored = table.find_or_insert::<()>(hash, |_| false, || Ok(MAX_ENTRY), |_| hash);
        assert_eq!(stored, Ok((MAX_ENTRY, true)), "the largest entry fits");
        assert_eq!(table.home_entry(hash), Some(MAX_ENTRY));
        assert_eq!(table.home_entry(other_tag), None, "same slot, other hash bits");
        let found = table.find_or_insert::<()>(hash, |e| e == MAX_ENTRY, || Ok(0), |_| hash);
        assert_eq!(found, Ok((MAX_ENTRY, false)));
    }
}
