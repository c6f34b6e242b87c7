//! The contents of giant segments (roaming names of more than 64 groups of
//! leaves; see `tokens`): which of a giant's groups a class holds.
//!
//! A content is a trie over the giant's groups, 64 to a leaf and 16
//! children to a node, whose nodes are made unique by hashing: the same
//! groups are always the same node, so a content's id is the identity of
//! the clash it makes, and a union of two contents shares every node that
//! does not change. A chain of a thousand boxes, each adding one leaf of
//! one name, makes a thousand contents of a few new nodes each, not a
//! thousand copies of a growing bitset.

use crate::maps::Map;

use super::intern::{NodeIds, FAN};

const FAN_BITS: u32 = 4;

/// A node id: a leaf's at level 0, an inner node's above. 0 is empty.
pub(crate) type ContentId = u32;

/// Whether a content makes a clash: two groups or more, or one group of two
/// leaves or more ("alone").
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
struct Summary {
    /// Groups held, counted up to 2.
    groups: u8,
    alone: bool,
}

impl Summary {
    fn join(self, other: Summary) -> Summary {
        Summary {
            groups: (self.groups + other.groups).min(2),
            alone: self.alone || other.alone,
        }
    }

    fn clash(self) -> bool {
        self.groups >= 2 || self.alone
    }
}

/// One giant segment's shape.
struct Giant {
    /// Per 64 groups, those that stand for two leaves or more.
    alone: Box<[u64]>,
    /// The level of its contents' roots.
    depth: u32,
}

#[derive(Default)]
pub(crate) struct Giants {
    giants: Vec<Giant>,
    leaves: Vec<(u64, Summary)>,
    /// Children, summary, and the node's key: its giant and level.
    inner: Vec<([ContentId; FAN], Summary, u64)>,
    leaf_ids: Map<(u32, u32, u64), ContentId>,
    inner_ids: NodeIds,
    /// Nodes visited or made, for the work counters.
    pub steps: u64,
}

impl Giants {
    /// A new giant of `groups` groups, `alone` marking those of several
    /// leaves; its number.
    pub fn add(&mut self, alone: Box<[u64]>) -> u32 {
        if self.leaves.is_empty() {
            self.leaves.push((0, Summary::default()));
            self.inner.push(([0; FAN], Summary::default(), u64::MAX));
        }
        let mut depth = 0;
        while (FAN as u64).pow(depth) < alone.len() as u64 {
            depth += 1;
        }
        // Each group held alone somewhere makes about a path of nodes.
        let groups = alone.len() * 64;
        self.leaf_ids.reserve(groups);
        if self.giants.is_empty() {
            self.inner_ids = NodeIds::with_capacity(groups * depth as usize);
        }
        self.giants.push(Giant { alone, depth });
        (self.giants.len() - 1) as u32
    }

    fn summary(&self, id: ContentId, level: u32) -> Summary {
        if level == 0 {
            self.leaves[id as usize].1
        } else {
            self.inner[id as usize].1
        }
    }

    /// Whether content `id` of giant `g` makes a clash.
    pub fn clash(&self, g: u32, id: ContentId) -> bool {
        self.summary(id, self.giants[g as usize].depth).clash()
    }

    fn leaf(&mut self, g: u32, word: u32, bits: u64) -> ContentId {
        self.steps += 1;
        if bits == 0 {
            return 0;
        }
        if let Some(&id) = self.leaf_ids.get(&(g, word, bits)) {
            return id;
        }
        let alone = bits & self.giants[g as usize].alone[word as usize] != 0;
        let groups = bits.count_ones().min(2) as u8;
        self.leaves.push((bits, Summary { groups, alone }));
        let id = (self.leaves.len() - 1) as ContentId;
        self.leaf_ids.insert((g, word, bits), id);
        id
    }

    fn node(&mut self, g: u32, level: u32, children: [ContentId; FAN]) -> ContentId {
        self.steps += 1;
        if children == [0; FAN] {
            return 0;
        }
        let key = u64::from(g) << 8 | u64::from(level);
        let inner = &self.inner;
        let print = match (self.inner_ids).find(key, &children, |id| (inner[id as usize].2, inner[id as usize].0)) {
            Ok(id) => return id,
            Err(print) => print,
        };
        let summary = (children.iter()).fold(Summary::default(), |s, &c| s.join(self.summary(c, level - 1)));
        self.inner.push((children, summary, key));
        let id = (self.inner.len() - 1) as ContentId;
        self.inner_ids.insert(print, key, &children, id);
        id
    }

    /// The content of giant `g` holding `groups` (sorted).
    pub fn of_groups(&mut self, g: u32, groups: &[u32]) -> ContentId {
        let depth = self.giants[g as usize].depth;
        self.build(g, depth, 0, groups)
    }

    fn build(&mut self, g: u32, level: u32, base: u64, groups: &[u32]) -> ContentId {
        if groups.is_empty() {
            return 0;
        }
        if level == 0 {
            let bits = groups.iter().fold(0u64, |b, &i| b | 1 << (i % 64));
            return self.leaf(g, (base / 64) as u32, bits);
        }
        let span = 64u64 << (FAN_BITS * (level - 1));
        let mut children = [0; FAN];
        let mut rest = groups;
        for (i, child) in children.iter_mut().enumerate() {
            let end = base + span * (i as u64 + 1);
            let split = rest.partition_point(|&x| u64::from(x) < end);
            *child = self.build(g, level - 1, base + span * i as u64, &rest[..split]);
            rest = &rest[split..];
        }
        self.node(g, level, children)
    }

    /// The content holding the groups of both `a` and `b`.
    pub fn union(&mut self, g: u32, a: ContentId, b: ContentId) -> ContentId {
        let depth = self.giants[g as usize].depth;
        self.union_at(g, depth, 0, a, b)
    }

    fn union_at(&mut self, g: u32, level: u32, word: u32, a: ContentId, b: ContentId) -> ContentId {
        if a == b || b == 0 {
            return a;
        }
        if a == 0 {
            return b;
        }
        self.steps += 1;
        if level == 0 {
            let bits = self.leaves[a as usize].0 | self.leaves[b as usize].0;
            return self.leaf(g, word, bits);
        }
        let (ca, cb) = (self.inner[a as usize].0, self.inner[b as usize].0);
        let words_per_child = 1u32 << (FAN_BITS * (level - 1));
        let mut children = [0; FAN];
        for i in 0..FAN {
            children[i] = self.union_at(g, level - 1, word + words_per_child * i as u32, ca[i], cb[i]);
        }
        self.node(g, level, children)
    }

    /// Whether content `id` of giant `g` holds `group`.
    pub fn contains(&self, g: u32, id: ContentId, group: u32) -> bool {
        let (mut id, mut level) = (id, self.giants[g as usize].depth);
        while level > 0 && id != 0 {
            let span = 64u64 << (FAN_BITS * (level - 1));
            let i = (u64::from(group) % (span * FAN as u64) / span) as usize;
            id = self.inner[id as usize].0[i];
            level -= 1;
        }
        id != 0 && self.leaves[id as usize].0 >> (group % 64) & 1 != 0
    }

    /// The groups content `id` of giant `g` holds, in order.
    pub fn groups(&self, g: u32, id: ContentId) -> Vec<u32> {
        let mut out = Vec::new();
        self.collect(self.giants[g as usize].depth, 0, id, &mut out);
        out
    }

    fn collect(&self, level: u32, base: u64, id: ContentId, out: &mut Vec<u32>) {
        if id == 0 {
            return;
        }
        if level == 0 {
            let mut bits = self.leaves[id as usize].0;
            while bits != 0 {
                out.push((base + u64::from(bits.trailing_zeros())) as u32);
                bits &= bits - 1;
            }
            return;
        }
        let span = 64u64 << (FAN_BITS * (level - 1));
        for (i, &child) in self.inner[id as usize].0.iter().enumerate() {
            self.collect(level - 1, base + span * i as u64, child, out);
        }
    }
}

/// The alone marks of `groups` groups of which `alone` are of several
/// leaves, for `Giants::add`.
pub(crate) fn alone_marks(groups: usize, alone: impl Iterator<Item = usize>) -> Box<[u64]> {
    let mut marks = vec![0u64; groups.div_ceil(64)];
    for i in alone {
        marks[i / 64] |= 1 << (i % 64);
    }
    marks.into_boxed_slice()
}

impl Giants {
    /// Nodes made, for tests.
    #[cfg(test)]
    fn node_count(&self) -> usize {
        self.leaves.len() + self.inner.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_contents_are_one_id_however_they_are_made() {
        let mut giants = Giants::default();
        let g = giants.add(alone_marks(5_000, [4_000].into_iter()));
        let a = giants.of_groups(g, &[1, 700, 4_999]);
        let b = giants.of_groups(g, &[2, 700]);
        let ab = giants.union(g, a, b);
        assert_eq!(ab, giants.of_groups(g, &[1, 2, 700, 4_999]));
        assert_eq!(giants.groups(g, ab), [1, 2, 700, 4_999]);
        assert_eq!(giants.union(g, ab, a), ab);
        let (three, four_thousand) = (giants.of_groups(g, &[3]), giants.of_groups(g, &[4_000]));
        assert!(giants.clash(g, ab) && !giants.clash(g, three));
        assert!(giants.clash(g, four_thousand), "a group of two leaves clashes alone");
    }

    #[test]
    fn a_growing_content_makes_a_few_nodes_per_step() {
        let mut giants = Giants::default();
        let g = giants.add(alone_marks(100_000, std::iter::empty()));
        let mut content = 0;
        for i in 0..100_000 {
            let one = giants.of_groups(g, &[i]);
            content = giants.union(g, one, content);
        }
        assert_eq!(giants.groups(g, content).len(), 100_000);
        assert!(giants.node_count() < 100_000 * 12, "{} nodes", giants.node_count());
    }
}
