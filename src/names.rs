//! How a label becomes the tool name a model sees. No rule of the spec
//! defines it; this reproduces the reference runtime's `sanitizeName`
//! (SEMANTICS 5):
//!
//! 1. lowercase ASCII `A`-`Z` only (PHP `strtolower`);
//! 2. replace every maximal run of characters outside `[a-z0-9]` by `_`;
//! 3. trim leading and trailing `_`;
//! 4. an empty result becomes `unnamed_tool`.
//!
//! Also which names can clash at all (CMP-9): a name carried by only one
//! tool in the whole workflow never collides, so only names that two tools
//! or more share are kept ([`CandidateNames`]), interned to numbers.

use crate::graph::{NodeIx, ToolGraph};
use crate::threads::both;

/// The name given to a label with no ASCII letter or digit in it.
pub const UNNAMED_TOOL: &str = "unnamed_tool";

/// Each byte's character in a tool name: ASCII letters lowercased, digits
/// kept, and 0 for everything else (a separator; every byte of a non-ASCII
/// character is one, as it is >= 0x80).
const NAME_BYTE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_digit() || c.is_ascii_lowercase() {
            table[b] = c;
        } else if c.is_ascii_uppercase() {
            table[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    table
};

/// Writes the tool name of `label` into `out` (cleared first), so callers
/// that name many labels reuse one buffer. One pass over the bytes: a name
/// character is copied (lowercased), and a run of separators becomes one
/// `_` when a name character follows it and another came before it, which
/// collapses runs and trims both ends at once. Every label of a large
/// workflow is named this way, so it is kept to a table lookup a byte, and
/// without a branch on the byte (labels mix letters and separators in no
/// order a CPU can predict): each step writes both a `_` and the character,
/// and moves on past only those that belong to the name.
pub fn normalize_into(label: &str, out: &mut String) {
    name_into(label, out);
}

/// `normalize_into`, telling also what the label loses on the way (as
/// [`NameLoss::of`] would), from the same pass.
pub fn name_into(label: &str, out: &mut String) -> NameLoss {
    let bytes = label.as_bytes();
    let mut name = std::mem::take(out).into_bytes();
    name.clear();
    // A name is never longer than its label; a step may write one byte
    // past the name so far, which is at most the label's length.
    name.resize(bytes.len() + 1, 0);
    let (mut len, mut pending, mut any_byte) = (0usize, false, 0u8);
    for &b in bytes {
        let c = NAME_BYTE[b as usize];
        let keep = c != 0;
        name[len] = b'_';
        len += usize::from(pending & keep);
        name[len] = c;
        len += usize::from(keep);
        // A separator after a name character leaves a `_` owed.
        pending = !keep & (len > 0);
        any_byte |= b;
    }
    let loss = if len == 0 {
        NameLoss::Everything
    } else if any_byte >= 0x80 {
        NameLoss::NonAscii
    } else {
        NameLoss::None
    };
    name.truncate(len);
    if name.is_empty() {
        name.extend_from_slice(UNNAMED_TOOL.as_bytes());
    }
    // SAFETY: only ASCII bytes were written: `_`, and `NAME_BYTE`'s
    // entries that are not 0 (lowercase letters and digits), so `name` is
    // UTF-8. Checking would be one more pass over every name.
    *out = unsafe { String::from_utf8_unchecked(name) };
    loss
}

/// What a label loses on the way to its name, beyond case and separators:
/// the reason for the NAME-LOSSY and NAME-UNNAMED warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NameLoss {
    #[default]
    None,
    /// Non-ASCII characters were dropped (`"Café" -> caf`). Any of them,
    /// not only letters: which characters count as letters depends on the
    /// Unicode version, and a dropped emoji can tell tools apart as much as
    /// a dropped letter.
    NonAscii,
    /// Nothing was left: the name is `unnamed_tool`.
    Everything,
}

impl NameLoss {
    /// Compares `label` with `name`, the name it became. Cheap for the
    /// common case, an ASCII label with a real name.
    pub fn of(label: &str, name: &str) -> NameLoss {
        if name == UNNAMED_TOOL && !label.bytes().any(|b| b.is_ascii_alphanumeric()) {
            NameLoss::Everything
        } else if !label.is_ascii() {
            NameLoss::NonAscii
        } else {
            NameLoss::None
        }
    }
}

/// The tool name of `label` (SEMANTICS 5).
pub fn normalize_name(label: &str) -> String {
    // `name_into` may write one byte past the name as it goes.
    let mut out = String::with_capacity(label.len() + 1);
    normalize_into(label, &mut out);
    out
}

/// A candidate name's number: its index in [`CandidateNames::names`].
pub(crate) type NameIx = u32;
/// `CandidateNames::of_node` of a node that is no candidate tool.
pub(crate) const NOT_A_CANDIDATE: NameIx = NameIx::MAX;

/// Tool names of the leaves that could collide somewhere.
pub(crate) struct CandidateNames {
    pub names: Vec<Box<str>>,
    /// Every tool as (name hash, node), sorted: which names are taken.
    pub by_hash: Vec<(u64, NodeIx)>,
    /// Per node: its name when it is a candidate leaf, else `NOT_A_CANDIDATE`.
    pub of_node: Vec<NameIx>,
}

impl CandidateNames {
    /// Names every node that provides a tool (a non-passthrough source of a
    /// tool edge) and keeps the names shared by two or more such nodes.
    ///
    /// Most names in a large workflow are unique, so names are first only
    /// hashed and sorted by hash, with no allocation; the strings are built
    /// and compared only within groups of equal hashes, so a hash collision
    /// can never make two different names look alike. Each tool of a group
    /// is compared with the group's first name in node order (see
    /// [`runs_named_apart`]). On two threads when `allow_thread` and there
    /// are many tools.
    pub fn find(g: &ToolGraph<'_>, allow_thread: bool) -> CandidateNames {
        let hashed: Vec<(u64, NodeIx)> = (0..g.node_count() as NodeIx)
            .filter(|&n| g.is_tool(n))
            .map(|n| (g.name_hashes[n as usize], n))
            .collect();
        let in_halves = allow_thread && hashed.len() >= IN_HALVES_FROM_TOOLS;
        let hashed = if in_halves {
            sorted_in_halves(hashed)
        } else {
            let mut hashed = hashed;
            hashed.sort_unstable();
            hashed
        };

        // Runs of tools whose names hash alike: each nearly always one
        // shared name, named once from its first tool.
        let runs: Vec<&[(u64, NodeIx)]> = hashed.chunk_by(|a, b| a.0 == b.0).filter(|run| run.len() > 1).collect();
        let firsts: Vec<Box<str>> = runs
            .iter()
            .map(|run| normalize_name(g.label(run[0].1)).into())
            .collect();
        // Until the runs are settled below, `of_node` holds each other
        // tool's run.
        let mut of_node = vec![NOT_A_CANDIDATE; g.node_count()];
        for (at, run) in runs.iter().enumerate() {
            for &(_, n) in &run[1..] {
                of_node[n as usize] = at as NameIx;
            }
        }
        let split = if in_halves { of_node.len() / 2 } else { of_node.len() };
        let (low, high) = both(
            in_halves,
            || runs_named_apart(g, &of_node[..split], 0, &firsts),
            || runs_named_apart(g, &of_node[split..], split, &firsts),
        );
        let mut apart = vec![false; runs.len()];
        low.into_iter().chain(high).for_each(|run| apart[run as usize] = true);

        let mut names: Vec<Box<str>> = Vec::with_capacity(runs.len());
        let mut group: Vec<(String, NodeIx)> = Vec::new();
        for ((run, first), apart) in runs.iter().zip(firsts).zip(apart) {
            if !apart {
                let ix = names.len() as NameIx;
                names.push(first);
                for &(_, n) in *run {
                    of_node[n as usize] = ix;
                }
                continue;
            }
            // Two names with one hash: sorted apart, and only those shared
            // by two tools or more kept.
            group.clear();
            group.extend(run.iter().map(|&(_, n)| (normalize_name(g.label(n)), n)));
            group.sort_unstable();
            for same in group.chunk_by(|a, b| a.0 == b.0) {
                let ix = if same.len() > 1 {
                    names.push(same[0].0.as_str().into());
                    (names.len() - 1) as NameIx
                } else {
                    NOT_A_CANDIDATE
                };
                for &(_, n) in same {
                    of_node[n as usize] = ix;
                }
            }
        }
        CandidateNames {
            names,
            by_hash: hashed,
            of_node,
        }
    }

    pub fn any(&self) -> bool {
        self.of_node.iter().any(|&n| n != NOT_A_CANDIDATE)
    }

    pub fn of(&self, node: NodeIx) -> Option<NameIx> {
        Some(self.of_node[node as usize]).filter(|&n| n != NOT_A_CANDIDATE)
    }

    pub fn name(&self, name: NameIx) -> &str {
        &self.names[name as usize]
    }
}

/// The runs (indexes into `firsts`) holding a tool whose name is not its
/// run's first name: a hash collision. `of_run` is a stretch of nodes,
/// from node `from` on, each with its run or `NOT_A_CANDIDATE`. Tools are
/// named again in node order, which reads their labels in about the order
/// they sit in the input; in hash order each would be a cache miss, and
/// on a workflow of few names shared by many tools that is most of the
/// check.
fn runs_named_apart(g: &ToolGraph<'_>, of_run: &[NameIx], from: usize, firsts: &[Box<str>]) -> Vec<NameIx> {
    let mut name = String::new();
    let mut apart = Vec::new();
    for (n, &run) in (from..).zip(of_run) {
        if run != NOT_A_CANDIDATE {
            normalize_into(g.label(n as NodeIx), &mut name);
            if *name != *firsts[run as usize] {
                apart.push(run);
            }
        }
    }
    apart
}

/// Below this many tools, one thread sorts and confirms their names
/// faster than two can start.
const IN_HALVES_FROM_TOOLS: usize = 1 << 16;

/// `hashed` sorted, on two threads: split first by the top bit of the
/// hash, every hash of the lower part is below every hash of the upper
/// one, so each part sorted on a thread of its own sorts the whole, with
/// no merge and no second buffer. Name hashes are uniform, so the parts
/// are near equal. The tools of a large workflow (a million on `large`)
/// are sorted so while the other core would otherwise wait.
fn sorted_in_halves(mut hashed: Vec<(u64, NodeIx)>) -> Vec<(u64, NodeIx)> {
    let (mut low, mut high) = (0, hashed.len());
    while low < high {
        if hashed[low].0 >> 63 == 0 {
            low += 1;
        } else {
            high -= 1;
            hashed.swap(low, high);
        }
    }
    let (lower, upper) = hashed.split_at_mut(low);
    both(true, || lower.sort_unstable(), || upper.sort_unstable());
    hashed
}

#[cfg(test)]
mod tests {
    use super::normalize_name as name;

    #[test]
    fn semantics_5_examples() {
        assert_eq!(name("Web Search"), "web_search");
        assert_eq!(name("web-search"), "web_search");
        assert_eq!(name("WEB_SEARCH!"), "web_search");
        assert_eq!(name("Get User (Admin)"), "get_user_admin");
        assert_eq!(name("GetWeatherData"), "getweatherdata");
        assert_eq!(name("Café Search"), "caf_search");
        assert_eq!(name("日本語"), "unnamed_tool");
    }

    #[test]
    fn name_loss_tells_dropped_letters_from_nothing_left() {
        use super::NameLoss;
        let loss = |label: &str| NameLoss::of(label, &name(label));
        assert_eq!(loss("Web Search"), NameLoss::None);
        assert_eq!(loss("unnamed_tool"), NameLoss::None, "named so on purpose");
        assert_eq!(loss("Café"), NameLoss::NonAscii);
        assert_eq!(loss("Search 🔍"), NameLoss::NonAscii);
        assert_eq!(loss("日本語"), NameLoss::Everything);
        assert_eq!(loss("🔍"), NameLoss::Everything);
        assert_eq!(loss(""), NameLoss::Everything);
    }

    #[test]
    fn naming_tells_the_loss_that_comparing_label_and_name_tells() {
        use super::{name_into, NameLoss};
        let mut out = String::from("left over from an earlier label");
        for label in [
            "",
            "_",
            "unnamed_tool",
            "Web Search",
            "Café",
            "日本語",
            "🔍",
            "a",
            "A-B",
            "Search 🔍",
            "é1",
            "  x  ",
        ] {
            let loss = name_into(label, &mut out);
            assert_eq!(out, name(label), "{label:?}");
            assert_eq!(loss, NameLoss::of(label, &out), "{label:?}");
        }
    }

    #[test]
    fn runs_collapse_and_ends_trim() {
        assert_eq!(name("__a -- b__"), "a_b");
        assert_eq!(name(""), "unnamed_tool");
        assert_eq!(name("___"), "unnamed_tool");
        assert_eq!(name("a\u{130}b"), "a_b"); // only ASCII changes case
        assert_eq!(name("x2Y"), "x2y");
    }
}

#[cfg(test)]
mod candidate_tests {
    use super::{sorted_in_halves, CandidateNames};
    use crate::{parse::parse, Config};

    /// A workflow of one agent and a tool `t{i}` labelled `labels[i]` for
    /// each label, every tool wired straight into the agent.
    fn tools_of_one_agent(labels: &[impl AsRef<str>]) -> String {
        let nodes: Vec<String> = (labels.iter().enumerate())
            .map(|(i, l)| format!(r#"{{"id": "t{i}", "data": {{"label": "{}"}}}}"#, l.as_ref()))
            .collect();
        let edges: Vec<String> = (0..labels.len())
            .map(|i| format!(r#"{{"source": "t{i}", "target": "agent", "targetHandle": "agent-input-tool"}}"#))
            .collect();
        format!(
            r#"{{"nodes": [{{"id": "agent"}}, {}], "edges": [{}]}}"#,
            nodes.join(", "),
            edges.join(", ")
        )
    }

    #[test]
    fn cmp9_names_that_share_a_hash_are_still_told_apart() {
        // Six tools wired into one agent: two named `x`, two named `y`, one
        // `z`, one `w`. Given one hash, as a collision of the hash would,
        // only equal names become candidates; given their own, the same.
        let labels = ["X", "x!", "Y", "y", "Z", "W"];
        let doc = tools_of_one_agent(&labels);
        let mut g = parse(doc.as_bytes(), &Config::default()).unwrap();
        let tool = |i: usize| {
            (0..g.node_count() as u32)
                .find(|&n| g.id(n) == format!("t{i}"))
                .unwrap()
        };
        let tools: Vec<u32> = (0..labels.len()).map(tool).collect();
        for one_hash in [false, true] {
            if one_hash {
                for &t in &tools {
                    g.name_hashes[t as usize] = 42;
                }
            }
            let names = CandidateNames::find(&g, false);
            let of = |i: usize| names.of(tools[i]).map(|n| names.name(n));
            assert_eq!(
                (0..labels.len()).map(of).collect::<Vec<_>>(),
                [Some("x"), Some("x"), Some("y"), Some("y"), None, None],
                "one hash: {one_hash}"
            );
        }
    }

    #[test]
    fn cmp9_names_that_share_a_hash_are_told_apart_on_two_threads_too() {
        // Enough tools that names are checked on two threads, each of 1,000
        // names shared by 70 tools spread over both halves, and two tools
        // named `late` at the very end. `late` is given the hash of `n1`,
        // as a collision of the hash would: only the second half can tell.
        let count = 70_000;
        let labels: Vec<String> = (0..count)
            .map(|i| format!("N{}", i % 1_000))
            .chain(["late".into(), "late".into()])
            .collect();
        let doc = tools_of_one_agent(&labels);
        let mut g = parse(doc.as_bytes(), &Config::default()).unwrap();
        let tools: Vec<u32> = (0..g.node_count() as u32).filter(|&n| g.id(n) != "agent").collect();
        let hash_of_n1 = g.name_hashes[tools[1] as usize];
        for &t in &tools[count..] {
            g.name_hashes[t as usize] = hash_of_n1;
        }
        for allow_thread in [false, true] {
            let names = CandidateNames::find(&g, allow_thread);
            let misnamed = (tools.iter())
                .filter(|&&t| names.of(t).map(|n| names.name(n)) != Some(&g.label(t).to_lowercase()))
                .count();
            assert_eq!(misnamed, 0, "allow_thread {allow_thread}");
            assert_eq!(names.names.len(), 1_001, "allow_thread {allow_thread}");
        }
    }

    #[test]
    fn sorting_in_halves_equals_sorting_whole() {
        for len in [0usize, 1, 2, 3, 1_000, 100_001] {
            // Hashes on both sides of the split, and many equal ones, so
            // the order among equal hashes is tested too.
            let items: Vec<(u64, u32)> = (0..len as u64)
                .map(|i| ((i * 2_654_435_761 % 977) << 54, (i * 40_503 % 65_537) as u32))
                .collect();
            assert!(len < 1_000 || items.iter().any(|h| h.0 >> 63 == 1) && items.iter().any(|h| h.0 >> 63 == 0));
            let mut expected = items.clone();
            expected.sort_unstable();
            assert_eq!(sorted_in_halves(items), expected, "{len} items");
        }
    }
}
