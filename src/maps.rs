//! The crate's hash maps and sets: foldhash, whose per-process random seed
//! keeps an input from being built to collide, at a fraction of SipHash's
//! cost.

use std::collections::{HashMap, HashSet};

use foldhash::fast::RandomState;

pub type Map<K, V> = HashMap<K, V, RandomState>;

pub fn new_map<K, V>() -> Map<K, V> {
    HashMap::with_hasher(RandomState::default())
}

/// The crate's set: `Map`'s hasher, so no set pays for SipHash. Labels come
/// from the input, but foldhash's per-process random seed already keeps an
/// input from being built to collide, as for every `Map`.
pub type Set<T> = HashSet<T, RandomState>;
