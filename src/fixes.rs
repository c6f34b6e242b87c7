//! What to change so a refused workflow passes: new labels for colliding
//! tools (CMP-9), and the edge type an unrecognised one was probably meant
//! to be (EDGE-5). Suggestions are deterministic and built only from the
//! workflow's own words.

use std::collections::HashSet;

use foldhash::fast::RandomState;

use crate::flatten::{new_map, Map};
use crate::graph::{NodeIx, ToolGraph};
use crate::names::normalize_name;
use crate::report::Rename;

/// The longest tool name the major model APIs accept.
pub const MAX_NAME_LEN: usize = 64;

/// The recognised edge type `found` was most likely meant to be: the same
/// up to case and separators, one that `found` abbreviates (`tool` ->
/// `tool_availability`), or one a few typos away. Ties go to the smaller
/// type, so the answer never depends on the order of the configuration.
pub fn closest_edge_type<'r>(found: &str, recognised: &[&'r str]) -> Option<&'r str> {
    let key = |s: &str| -> Vec<char> {
        s.chars()
            .map(|c| {
                if c == '-' || c == ' ' {
                    '_'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    let found = key(found);
    let mut best: Option<(usize, &'r str)> = None;
    for &candidate in recognised {
        let known = key(candidate);
        let score = if known == found {
            0
        } else if found.len() >= 3 && known.starts_with(&found) {
            1
        } else {
            // Allow about one typo per four characters, and at least one.
            let distance = edit_distance(&found, &known);
            if distance > (known.len() / 4).max(1) {
                continue;
            }
            1 + distance
        };
        if best.is_none_or(|(s, c)| (score, candidate) < (s, c)) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Optimal string alignment distance: insertions, deletions, substitutions
/// and swaps of neighbours each cost one.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    // Edge types are short; a bound keeps hostile input cheap.
    if a.len().abs_diff(b.len()) > 8 || a.len() > 256 {
        return usize::MAX;
    }
    let width = b.len() + 1;
    let mut rows = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            rows[at(i, j)] = if i == 0 || j == 0 {
                i + j
            } else {
                let substitute = rows[at(i - 1, j - 1)] + usize::from(a[i - 1] != b[j - 1]);
                let mut d = substitute.min(rows[at(i - 1, j)] + 1).min(rows[at(i, j - 1)] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(rows[at(i - 2, j - 2)] + 1);
                }
                d
            };
        }
    }
    rows[at(a.len(), b.len())]
}

/// Chooses new labels for colliding tools, one collision at a time, so that
/// every new name is unique in the whole workflow: unique in the view of
/// every consumer the renamed tool reaches, whichever they are, and unique
/// among the suggestions themselves. A tool renamed for one collision keeps
/// that new label in every other, so the renames of a workflow are one
/// map from tool to new label, whatever the order they are read in.
pub struct Renamer<'g, 'a> {
    graph: &'g ToolGraph<'a>,
    /// Every tool as (name hash, node), sorted: the names already taken.
    by_hash: &'g [(u64, NodeIx)],
    suggested: HashSet<String, RandomState>,
    renamed: Map<NodeIx, Rename>,
}

impl<'g, 'a> Renamer<'g, 'a> {
    pub fn new(graph: &'g ToolGraph<'a>, by_hash: &'g [(u64, NodeIx)]) -> Self {
        Renamer {
            graph,
            by_hash,
            suggested: HashSet::with_hasher(RandomState::default()),
            renamed: new_map(),
        }
    }

    /// Settles one collision: `leaves` (sorted by id), `seconds[i]` the
    /// node after `leaves[i]` on its path to the consumer, and
    /// `on_kept_path(k, node)` whether `node` is on the path of `leaves[k]`.
    /// The first leaf not renamed before keeps its label; every other one
    /// gets a new label (or keeps the one it got for an earlier collision).
    pub fn settle(&mut self, leaves: &[NodeIx], seconds: &[NodeIx], on_kept_path: impl Fn(usize, NodeIx) -> bool) {
        let kept = leaves.iter().position(|leaf| !self.renamed.contains_key(leaf));
        for (i, &leaf) in leaves.iter().enumerate() {
            if Some(i) == kept || self.renamed.contains_key(&leaf) {
                continue;
            }
            let g = self.graph;
            let through_box = Some(seconds[i])
                .filter(|&b| g.is_passthrough(b) && !kept.is_some_and(|k| on_kept_path(k, b)))
                .and_then(|b| g.explicit_label(b));
            let rename = self.rename(leaf, through_box);
            self.renamed.insert(leaf, rename);
        }
    }

    /// Every rename chosen, by tool.
    pub fn into_renames(self) -> Map<NodeIx, Rename> {
        self.renamed
    }

    /// A new label for `leaf`: its label qualified by the toolbox it comes
    /// through when that tells it apart from the tool that keeps the name,
    /// otherwise by its node id; numbered only if both are taken.
    fn rename(&mut self, leaf: NodeIx, through_box: Option<&str>) -> Rename {
        let g = self.graph;
        let label = g.label(leaf);
        let id = g.id(leaf);
        let qualifiers = through_box.into_iter().chain([id]);
        let numbered = (2u64..).map(|n| (id, Some(n)));
        for (qualifier, number) in qualifiers.map(|q| (q, None)).chain(numbered) {
            let new_label = fit(label, qualifier, number);
            let new_name = normalize_name(&new_label);
            if !self.taken(&new_name) {
                self.suggested.insert(new_name.clone());
                return Rename {
                    node: id.to_owned(),
                    label: label.to_owned(),
                    new_label,
                    new_name,
                };
            }
        }
        unreachable!("numbered labels never run out")
    }

    fn taken(&self, name: &str) -> bool {
        if self.suggested.contains(name) {
            return true;
        }
        let g = self.graph;
        let hash = g.hash_of_name(name);
        let start = self.by_hash.partition_point(|&(h, _)| h < hash);
        self.by_hash[start..]
            .iter()
            .take_while(|&&(h, _)| h == hash)
            .any(|&(_, node)| normalize_name(g.label(node)) == name)
    }
}

/// `"{label} ({qualifier} {number})"`, shortened until its name fits in
/// MAX_NAME_LEN: the label gives way first, since the qualifier is what
/// tells the tools apart.
fn fit(label: &str, qualifier: &str, number: Option<u64>) -> String {
    let compose = |label: &str, qualifier: &str| -> String {
        let qualifier = match number {
            Some(n) => format!("{qualifier} {n}"),
            None => qualifier.to_owned(),
        };
        if label.is_empty() {
            qualifier
        } else {
            format!("{label} ({qualifier})")
        }
    };
    let fits = |text: &str| normalize_name(text).len() <= MAX_NAME_LEN;
    let whole = compose(label.trim_end(), qualifier);
    if fits(&whole) {
        return whole; // the common case: nothing to shorten
    }
    // Labels may be megabytes long, and may start with hundreds of
    // characters that name nothing (`"——— Search"`), so the longest prefix
    // that fits is found by bisection over a generous cap.
    const CAP: usize = 4096;
    let label: Vec<char> = label.chars().take(CAP).collect();
    let qualifier: Vec<char> = qualifier.chars().take(CAP).collect();
    let with_label = |k: usize| {
        compose(
            label[..k].iter().collect::<String>().trim_end(),
            &qualifier.iter().collect::<String>(),
        )
    };
    let k = longest_prefix(label.len(), |k| fits(&with_label(k)));
    if k > 0 || fits(&with_label(0)) {
        return with_label(k);
    }
    // The qualifier alone is too long: it gives way too.
    let with_qualifier = |k: usize| compose("", &qualifier[..k].iter().collect::<String>());
    with_qualifier(longest_prefix(qualifier.len(), |k| fits(&with_qualifier(k))))
}

/// The largest `k <= len` with `ok(k)`, for `ok` true up to some point and
/// false after it; 0 when even `ok(1)` is false.
fn longest_prefix(len: usize, ok: impl Fn(usize) -> bool) -> usize {
    let (mut good, mut bad) = (0, len + 1);
    while bad - good > 1 {
        let middle = good + (bad - good) / 2;
        if ok(middle) {
            good = middle;
        } else {
            bad = middle;
        }
    }
    good
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECOGNISED: &[&str] = &["data", "error", "loopback", "tool_availability", "trigger"];

    #[test]
    fn edge5_suggests_the_recognised_type_meant() {
        let closest = |found| closest_edge_type(found, RECOGNISED);
        assert_eq!(closest("tool_availabilty"), Some("tool_availability"));
        assert_eq!(closest("tool"), Some("tool_availability"));
        assert_eq!(closest("Tool-Availability"), Some("tool_availability"));
        assert_eq!(closest("triger"), Some("trigger"));
        assert_eq!(closest("dta"), Some("data"));
        assert_eq!(closest("conditional"), None);
        assert_eq!(closest("x"), None);
        assert_eq!(closest(&"tool_".repeat(10_000)), None);
    }

    #[test]
    fn edit_distance_counts_swaps_as_one() {
        let d = |a: &str, b: &str| edit_distance(&a.chars().collect::<Vec<_>>(), &b.chars().collect::<Vec<_>>());
        assert_eq!(d("data", "data"), 0);
        assert_eq!(d("dtaa", "data"), 1);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("kitten", "sitting"), 3);
    }

    #[test]
    fn fitted_labels_name_at_most_64_characters_keeping_the_qualifier() {
        assert_eq!(fit("Web Search", "tool_b", None), "Web Search (tool_b)");
        assert_eq!(fit("Web Search", "tool_b", Some(2)), "Web Search (tool_b 2)");
        let long = fit(&"Very Long Label ".repeat(1000), "box_7", Some(12));
        assert!(normalize_name(&long).len() <= MAX_NAME_LEN, "{long}");
        assert!(long.ends_with("(box_7 12)"), "{long}");
        let dashes = fit(&format!("{} Search", "—".repeat(70)), "t2", None);
        assert_eq!(normalize_name(&dashes), "search_t2", "{dashes}");
        let huge_id = "i".repeat(500);
        let only_qualifier = fit("Search", &huge_id, None);
        assert_eq!(normalize_name(&only_qualifier).len(), MAX_NAME_LEN);
    }
}
