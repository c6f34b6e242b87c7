//! Finding a trie node by its children, so that equal sets are one node
//! (`sets`, `giants`). A node is kept under a 64-bit fingerprint of its
//! children rather than under the children themselves: sixteen ids are 64
//! bytes to hash and compare on every probe, most of them zero. Two
//! different nodes with one fingerprint are told apart by their children,
//! which the caller keeps; the later one is kept whole, in a second table.

use crate::maps::{new_map, Map};

pub(crate) const FAN: usize = 16;

pub(crate) type Children = [u32; FAN];

#[derive(Default)]
pub(crate) struct NodeIds {
    by_print: Map<u64, u32>,
    whole: Map<(u64, Children), u32>,
}

/// The fingerprint `NodeIds::find` worked out for a node it did not find.
pub(crate) struct Print(u64);

/// A fingerprint of `children` under `key` (what else tells nodes apart:
/// their level, their giant), mixing only the children that are there.
fn print(key: u64, children: &Children) -> u64 {
    let mut h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5851_F42D_4C95_7F2D;
    for (i, &c) in children.iter().enumerate() {
        if c != 0 {
            h ^= (i as u64) << 32 | u64::from(c);
            h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
    }
    h
}

impl NodeIds {
    pub fn with_capacity(nodes: usize) -> NodeIds {
        NodeIds {
            by_print: Map::with_capacity_and_hasher(nodes, Default::default()),
            whole: new_map(),
        }
    }

    /// The node under `key` with `children`, or, when there is none, the
    /// fingerprint to record it under (`insert`: not worked out twice);
    /// `stored(id)` gives a node's key and children.
    pub fn find(&self, key: u64, children: &Children, stored: impl Fn(u32) -> (u64, Children)) -> Result<u32, Print> {
        let print = print(key, children);
        if let Some(&id) = self.by_print.get(&print) {
            if stored(id) == (key, *children) {
                return Ok(id);
            }
        }
        match self.whole.is_empty() {
            true => Err(Print(print)),
            false => self.whole.get(&(key, *children)).copied().ok_or(Print(print)),
        }
    }

    /// Records node `id`, not found by `find`, which gave `print`.
    pub fn insert(&mut self, Print(print): Print, key: u64, children: &Children, id: u32) {
        if let std::collections::hash_map::Entry::Vacant(at) = self.by_print.entry(print) {
            at.insert(id);
        } else {
            self.whole.insert((key, *children), id);
        }
    }
}
