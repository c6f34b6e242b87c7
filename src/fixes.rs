//! What to change so a refused workflow passes: new labels for colliding
//! tools (CMP-9), and the edge type an unrecognised one was probably meant
//! to be (EDGE-5). Suggestions are deterministic and built only from the
//! workflow's own words.
//!
//! Over 600 lines only with its tests (the code is under 400): the two kinds of
//! suggestion, each short, kept together as the one place a report's suggested
//! changes come from.

use std::fmt::Write;

use crate::graph::{NodeIx, ToolGraph};
use crate::maps::{new_map, Map, Set};
use crate::names::normalize_name;
use crate::report::Rename;

/// The longest tool name the major model APIs accept.
pub const MAX_NAME_LEN: usize = 64;

/// The recognised edge types, ready to be compared with unknown ones: each
/// as it is compared (lowercase, `-` and spaces as `_`), made once for all
/// the unknown types of a workflow.
pub struct EdgeTypes<'r> {
    keyed: Vec<(&'r str, Vec<char>)>,
}

fn key(s: &str) -> Vec<char> {
    s.chars()
        .map(|c| {
            if c == '-' || c == ' ' {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

impl<'r> EdgeTypes<'r> {
    pub fn new(recognised: &[&'r str]) -> EdgeTypes<'r> {
        EdgeTypes {
            keyed: recognised.iter().map(|&r| (r, key(r))).collect(),
        }
    }

    /// The recognised edge type `found` was most likely meant to be: the
    /// same up to case and separators, one that `found` abbreviates (`tool`
    /// -> `tool_availability`), or one a few typos away. Ties go to the
    /// smaller type, so the answer never depends on the order of the
    /// configuration.
    pub fn closest(&self, found: &str) -> Option<&'r str> {
        let found = key(found);
        let mut best: Option<(usize, &'r str)> = None;
        for (candidate, known) in &self.keyed {
            let score = if *known == found {
                0
            } else if found.len() >= 3 && known.starts_with(&found) {
                1
            } else {
                // Allow about one typo per four characters, and at least
                // one: only that narrow a band of the table is filled.
                match edit_distance_within(&found, known, (known.len() / 4).max(1)) {
                    Some(distance) => 1 + distance,
                    None => continue,
                }
            };
            if best.is_none_or(|(s, c)| (score, *candidate) < (s, c)) {
                best = Some((score, *candidate));
            }
        }
        best.map(|(_, candidate)| candidate)
    }
}

/// Optimal string alignment distance (insertions, deletions, substitutions
/// and swaps of neighbours each cost one) when it is at most `limit`, else
/// None. Only cells within `limit` of the diagonal can hold a distance
/// that small, so only they are filled, three rows at a time, and the walk
/// stops at a row whose every cell is over the limit.
fn edit_distance_within(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let over = limit.saturating_add(1);
    let width = b.len() + 1;
    let (mut before, mut previous, mut row) = (vec![over; width], vec![over; width], vec![over; width]);
    for (j, cell) in previous.iter_mut().enumerate().take(limit.min(b.len()) + 1) {
        *cell = j;
    }
    for i in 1..=a.len() {
        row.fill(over);
        if i <= limit {
            row[0] = i;
        }
        let (low, high) = (i.saturating_sub(limit).max(1), (i + limit).min(b.len()));
        let mut least = row[0];
        for j in low..=high {
            let substitute = previous[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut d = substitute.min(previous[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d.min(over);
            least = least.min(row[j]);
        }
        if least > limit {
            return None;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut row);
    }
    Some(previous[b.len()]).filter(|&d| d <= limit)
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
    /// Names known to be taken: every suggestion, and every name of the
    /// workflow found taken, so a name many tools try (ids that name
    /// alike qualify alike) is compared with the label it is the name of,
    /// which may be megabytes long, once.
    taken_names: Set<String>,
    /// For each run of numbered names (see `numbered`), the first number
    /// not known to be taken.
    next_number: Map<NumberedRun, u64>,
    renamed: Map<NodeIx, Rename>,
    /// Labels (as far as `fit` reads them) already qualified by a box's
    /// label, the box's label by where it lies in the input: the name that
    /// gives is taken from then on (by that tool, or found taken), so the
    /// next tool of that label through that box goes on to its id without
    /// composing it again (n tools through one box of a label 4,096
    /// characters long each composed it: `long-box-label`, family 110).
    qualified_by_box: Set<(String, usize, usize)>,
    /// Candidate labels built and names probed (a step a byte composed or
    /// scanned): the work renaming took, added to the check's counters
    /// so that tests bound it without timing it.
    steps: u64,
}

/// The names `stem + n` for the numbers `n` of one width (count of digits).
type NumberedRun = (String, u32);

impl<'g, 'a> Renamer<'g, 'a> {
    pub fn new(graph: &'g ToolGraph<'a>, by_hash: &'g [(u64, NodeIx)]) -> Self {
        Renamer {
            graph,
            by_hash,
            taken_names: Set::default(),
            next_number: new_map(),
            renamed: new_map(),
            qualified_by_box: Set::default(),
            steps: 0,
        }
    }

    /// Settles one collision: `leaves` (sorted by id), `second(i)` the
    /// node after `leaves[i]` on its path to the consumer, and
    /// `on_kept_path(k, node)` whether `node` is on the path of `leaves[k]`.
    /// The first leaf not renamed before keeps its label; every other one
    /// gets a new label (or keeps the one it got for an earlier collision).
    /// Paths are asked about only for the leaves renamed now: a clash
    /// that grows by one tool at each of many consumers costs one rename
    /// each, not a path per tool.
    pub fn settle(
        &mut self,
        leaves: &[NodeIx],
        mut second: impl FnMut(usize) -> NodeIx,
        mut on_kept_path: impl FnMut(usize, NodeIx) -> bool,
    ) {
        let kept = leaves.iter().position(|leaf| !self.renamed.contains_key(leaf));
        for (i, &leaf) in leaves.iter().enumerate() {
            if Some(i) == kept || self.renamed.contains_key(&leaf) {
                continue;
            }
            let g = self.graph;
            let through_box = Some(second(i))
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
        let (label, id) = (g.label(leaf), g.id(leaf));
        let through_box = through_box.filter(|qualifier| {
            let read = capped(label);
            self.steps_of(read.len() as u64);
            let key = (read.to_owned(), qualifier.as_ptr() as usize, qualifier.len());
            self.qualified_by_box.insert(key)
        });
        let qualified = through_box.into_iter().chain([id]).find_map(|qualifier| {
            let new_label = self.fitted(label, qualifier, None);
            let new_name = normalize_name(&new_label);
            self.claim(&new_name).then_some((new_label, new_name))
        });
        let (new_label, new_name) = qualified.unwrap_or_else(|| self.numbered(label, id));
        Rename {
            node: id.to_owned(),
            label: label.to_owned(),
            new_label,
            new_name,
        }
    }

    /// `fit(label, id, Some(n))` for the first `n >= 2` whose name is not
    /// taken, and that name, now taken: what trying every number in turn
    /// gives, without trying again for each tool the numbers given to the
    /// tools before it (the k-th tool numbered alike would take k steps).
    ///
    /// Every text `fit` builds for `n` holds `n` as its last word, after
    /// words of the label and of the qualifier; so its name is `stem + n`,
    /// the stem being the name of those words and a `_`, or nothing when
    /// they name nothing, and the name's length depends on `n` only through
    /// its count of digits, its width. Each choice `fit` makes (whether the
    /// whole text fits, how much of the label and of the qualifier to keep)
    /// compares such lengths only, so it is the same for every `n` of a
    /// width: a tool's numbered names are, width by width, one run
    /// `stem + n`. A run is a set of names, not a tool's: tools of other
    /// labels and ids share it (ids cut to the same first characters; from
    /// 10 on, a label cut to the length of a shorter one), and one tool's
    /// stem can change with the width, so it is the run that remembers its
    /// next number.
    ///
    /// A run is only entered at the first number of its width (a tool
    /// reaches a width once every narrower number is taken for it) and
    /// walked upward, so every number of the run below `next_number` was
    /// tried and found taken, or given to the tool that tried it. Names
    /// are never freed (suggestions only add to the taken names, and the
    /// workflow's names stay), so trying those numbers again would find
    /// each one taken: starting at `next_number` ends at the number trying
    /// every one from 2 ends at. A name is `stem + n` for one stem and `n`
    /// only (`n` is what follows its last `_`, or all of it, and has no
    /// leading zero), so each taken name is walked past once in all: a
    /// tool costs one `fit` per width it reaches and one free name, plus
    /// its share of the taken names.
    fn numbered(&mut self, label: &str, id: &str) -> (String, String) {
        let mut n: u64 = 2;
        loop {
            let width = n.ilog10() + 1;
            let mut name = normalize_name(&self.fitted(label, id, Some(n)));
            let stem_len = name.len() - width as usize;
            let run = (name[..stem_len].to_owned(), width);
            n = self.next_number.get(&run).copied().unwrap_or(n);
            let past_width = 10u64.saturating_pow(width);
            while n < past_width {
                name.truncate(stem_len);
                write!(name, "{n}").expect("writing to a String cannot fail");
                if self.claim(&name) {
                    self.next_number.insert(run, n + 1);
                    let new_label = self.fitted(label, id, Some(n));
                    debug_assert_eq!(
                        normalize_name(&new_label),
                        name,
                        "a run's names are its stem and a number"
                    );
                    return (new_label, name);
                }
                n += 1;
            }
            self.next_number.insert(run, n);
        }
    }

    /// Takes `name` for a new label, unless it is taken already.
    fn claim(&mut self, name: &str) -> bool {
        let free = !self.taken(name);
        if free {
            self.taken_names.insert(name.to_owned());
        }
        free
    }

    /// `fit`, counted as a step and a step per byte it composed or
    /// scanned (at most a few times CAP, whatever the texts' lengths).
    fn fitted(&mut self, label: &str, qualifier: &str, number: Option<u64>) -> String {
        let (text, composed) = fit_counted(label, qualifier, number);
        self.steps_of(1 + composed);
        text
    }

    fn taken(&mut self, name: &str) -> bool {
        self.step();
        if self.taken_names.contains(name) {
            return true;
        }
        let g = self.graph;
        let hash = g.hash_of_name(name);
        let start = self.by_hash.partition_point(|&(h, _)| h < hash);
        let in_workflow = self.by_hash[start..]
            .iter()
            .take_while(|&&(h, _)| h == hash)
            .any(|&(_, node)| normalize_name(g.label(node)) == name);
        if in_workflow {
            self.taken_names.insert(name.to_owned());
        }
        in_workflow
    }

    fn step(&mut self) {
        self.steps_of(1);
    }

    fn steps_of(&mut self, count: u64) {
        self.steps += count;
    }

    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }
}

/// `"{label} ({qualifier} {number})"`, shortened until its name fits in
/// MAX_NAME_LEN: the label gives way first, since the qualifier is what
/// tells the tools apart. (The tests' name for `fit_counted`'s text.)
#[cfg(test)]
fn fit(label: &str, qualifier: &str, number: Option<u64>) -> String {
    fit_counted(label, qualifier, number).0
}

/// `fit`, and the bytes it composed and scanned to get there: the work of
/// one `fit`, which `Renamer` counts, bounded by the caps whatever the
/// lengths of the label and qualifier.
fn fit_counted(label: &str, qualifier: &str, number: Option<u64>) -> (String, u64) {
    // Only the first CAP characters of the label and of the qualifier are
    // read, before anything is composed. One box's label (CMP-9 renames) is the qualifier
    // of every tool renamed through it, and may be megabytes long: composed
    // whole, each of n renamed tools would build and scan it (n x L), and
    // keep it when it names little ("-" x L + "K" names `k`). Capped first,
    // the result is what composing the whole texts gives whenever that kept
    // at most CAP characters of each: a label cut at CAP trims to the same
    // text when all it loses is trailing whitespace; a shorter qualifier is
    // untouched; and when the whole text did not fit, the rest below read
    // only the capped texts anyway (a name of a prefix is no longer than
    // the whole's, and when the capped composition fits, the label's
    // fitting prefix below is all of it).
    let (label, qualifier) = (capped(label), capped(qualifier));
    // What `capped` read, then what is composed and scanned.
    let mut composed: u64 = (label.len() + qualifier.len()) as u64;
    // `label (qualifier n)`, or `qualifier n` for no label: put together
    // piece by piece in one string (a rename per clash makes one or two).
    let mut compose = |label: &str, qualifier: &str| -> String {
        let mut text = String::with_capacity(label.len() + qualifier.len() + 24);
        if !label.is_empty() {
            text.push_str(label);
            text.push_str(" (");
        }
        text.push_str(qualifier);
        if let Some(n) = number {
            let _ = write!(text, " {n}");
        }
        if !label.is_empty() {
            text.push(')');
        }
        // Built, then scanned for its name once.
        composed += 2 * text.len() as u64;
        text
    };
    let whole = compose(label.trim_end(), qualifier);
    if name_len(&whole) <= MAX_NAME_LEN {
        return (whole, composed); // the common case: nothing to shorten
    }
    // Labels may start with hundreds of characters that name nothing
    // (`"——— Search"`). A composed text's name is its label's name and the
    // rest's joined by `_`, so the longest prefix of the label that fits
    // is read off the label's name as it grows, in one pass, rather than
    // composed and named for each length tried.
    let rest = name_len(&compose("", qualifier));
    if rest <= MAX_NAME_LEN {
        let text = compose(label[..fitting_prefix(label, rest)].trim_end(), qualifier);
        return (text, composed + label.len() as u64);
    }
    // The qualifier alone is too long: it gives way too.
    let number_len = number.map_or(0, |n| n.to_string().len());
    let text = compose("", &qualifier[..fitting_prefix(qualifier, number_len)]);
    (text, composed + qualifier.len() as u64)
}

/// As many characters of a label or qualifier as `fit` reads.
const CAP: usize = 4096;

/// The first CAP characters of `text`: reads at most CAP characters.
fn capped(text: &str) -> &str {
    if text.len() <= CAP {
        return text; // no more characters than bytes
    }
    &text[..text.char_indices().nth(CAP).map_or(text.len(), |(at, _)| at)]
}

/// The length of `text`'s name: its words joined by `_` (0 for a text
/// naming nothing, whose name `unnamed_tool` always fits).
fn name_len(text: &str) -> usize {
    // Every byte of a character outside ASCII is one outside the name.
    let words = text
        .as_bytes()
        .split(|b| !b.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty());
    words.map(|w| w.len() + 1).sum::<usize>().saturating_sub(1)
}

/// The end of the longest prefix of `text` whose name followed by `_` and
/// a name `rest` long (when `rest` is not 0) fits in MAX_NAME_LEN, for a
/// `rest` that fits alone.
fn fitting_prefix(text: &str, rest: usize) -> usize {
    let joined_rest = rest + usize::from(rest > 0);
    let (mut len, mut in_word) = (0, false);
    // A prefix ends before a letter or digit, which is one ASCII byte, so
    // the bytes can be read as they come.
    for (at, b) in text.bytes().enumerate() {
        in_word = if b.is_ascii_alphanumeric() {
            len += 1 + usize::from(!in_word && len > 0);
            if len + joined_rest > MAX_NAME_LEN {
                return at;
            }
            true
        } else {
            false
        };
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::Config;

    const RECOGNISED: &[&str] = &["data", "error", "loopback", "tool_availability", "trigger"];

    #[test]
    fn edge5_suggests_the_recognised_type_meant() {
        let types = EdgeTypes::new(RECOGNISED);
        let closest = |found| types.closest(found);
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
    fn edit_distance_within_a_limit_is_the_whole_table_s_or_none() {
        // The whole table, as the definition reads.
        fn whole(a: &[char], b: &[char]) -> usize {
            let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
            for i in 0..=a.len() {
                for j in 0..=b.len() {
                    d[i][j] = if i == 0 || j == 0 {
                        i + j
                    } else {
                        let mut best = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                            .min(d[i - 1][j] + 1)
                            .min(d[i][j - 1] + 1);
                        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                            best = best.min(d[i - 2][j - 2] + 1);
                        }
                        best
                    };
                }
            }
            d[a.len()][b.len()]
        }
        let mut seed = 12_345u64;
        let mut word = |len: usize| -> Vec<char> {
            (0..len)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    (b'a' + (seed >> 60) as u8 % 4) as char
                })
                .collect()
        };
        for round in 0..3_000 {
            let (a, b) = (word(round % 9), word(round % 11));
            let distance = whole(&a, &b);
            for limit in 0..6 {
                let expected = (distance <= limit).then_some(distance);
                assert_eq!(
                    edit_distance_within(&a, &b, limit),
                    expected,
                    "{a:?} {b:?} within {limit}"
                );
            }
        }
    }

    #[test]
    fn edit_distance_counts_swaps_as_one() {
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        let d = |a: &str, b: &str| edit_distance_within(&chars(a), &chars(b), 16).unwrap_or(usize::MAX);
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
        assert_eq!(fit("Search", &huge_id, Some(12)), format!("{} 12", "i".repeat(61)));
        assert_eq!(
            fit(&"i".repeat(5000), "t2", Some(3)),
            format!("{} (t2 3)", "i".repeat(59))
        );
        // A word is cut, or left out when no part of it fits.
        assert_eq!(
            fit(&format!("{} cd", "x".repeat(56)), "t2", Some(10)),
            format!("{} c (t2 10)", "x".repeat(56))
        );
        assert_eq!(
            fit(&format!("{} cd", "x".repeat(58)), "t2", Some(10)),
            format!("{} (t2 10)", "x".repeat(58))
        );
        // Only the first 4,096 characters of a label or qualifier are read.
        let naming_little = format!("ab {} {}", "—".repeat(5000), "c".repeat(70));
        assert_eq!(fit(&naming_little, "t2", None), format!("ab {} (t2)", "—".repeat(4093)));
        let (label, qualifier) = (format!("日本 {}", "a".repeat(70)), "日".repeat(5000));
        let fitted = format!("日本 {} ({} 7)", "a".repeat(62), "日".repeat(4096));
        assert_eq!(fit(&label, &qualifier, Some(7)), fitted);
        // Trailing whitespace past the cap is trimmed as before, unread.
        let (spaced, huge_box) = (format!("X{}", " ".repeat(1 << 20)), "Q".repeat(1 << 20));
        assert_eq!(fit(&spaced, "t2", None), "X (t2)");
        assert_eq!(fit(&spaced, &huge_box, Some(3)), format!("{} 3", "Q".repeat(62)));
        assert!(fit_counted(&spaced, &huge_box, Some(3)).1 < 20 * CAP as u64);
    }

    /// `fit` as it was before labels and qualifiers were capped first:
    /// composed from the whole texts, and whether it kept them whole.
    fn fit_composing_whole(label: &str, qualifier: &str, number: Option<u64>) -> (String, bool) {
        let compose = |label: &str, qualifier: &str| -> String {
            let mut text = String::new();
            if !label.is_empty() {
                text.push_str(label);
                text.push_str(" (");
            }
            text.push_str(qualifier);
            if let Some(n) = number {
                let _ = write!(text, " {n}");
            }
            if !label.is_empty() {
                text.push(')');
            }
            text
        };
        let whole = compose(label.trim_end(), qualifier);
        if name_len(&whole) <= MAX_NAME_LEN {
            return (whole, true);
        }
        let qualifier = capped(qualifier);
        let rest = name_len(&compose("", qualifier));
        if rest <= MAX_NAME_LEN {
            let label = capped(label);
            return (
                compose(label[..fitting_prefix(label, rest)].trim_end(), qualifier),
                false,
            );
        }
        let number_len = number.map_or(0, |n| n.to_string().len());
        (compose("", &qualifier[..fitting_prefix(qualifier, number_len)]), false)
    }

    #[test]
    fn cmp9_fit_gives_what_composing_the_whole_texts_gave_within_the_cap() {
        // Pieces that name nothing, name a little or much, whitespace and
        // characters of several bytes, and runs of them that end either
        // side of the cap: the suggestion is the same as composing the
        // whole texts gave whenever that kept at most CAP characters of
        // each; past that, its name still fits and it is bounded.
        let pieces: Vec<String> = vec![
            "X".into(),
            " ".into(),
            "ab".into(),
            "—".into(),
            "-".into(),
            "日".into(),
            "K".into(),
            "Web Search".into(),
            " ".repeat(CAP - 3),
            " ".repeat(CAP + 7),
            "-".repeat(CAP - 1),
            "-".repeat(CAP + 500),
            "—".repeat(CAP + 1),
            "q".repeat(CAP / 2),
            "Q".repeat(70),
            "x y ".repeat(40),
            "\u{3000}".repeat(CAP),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut random = |below: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) % below as u64) as usize
        };
        let (mut same, mut past_cap) = (0, 0);
        for _ in 0..4_000 {
            let text = |random: &mut dyn FnMut(usize) -> usize| -> String {
                (0..random(4)).map(|_| pieces[random(pieces.len())].as_str()).collect()
            };
            let (label, qualifier) = (text(&mut random), text(&mut random));
            let number = [None, Some(2), Some(10), Some(123)][random(4)];
            let (before, whole) = fit_composing_whole(&label, &qualifier, number);
            let (now, composed) = fit_counted(&label, &qualifier, number);
            let within = label.trim_end().chars().count() <= CAP && qualifier.chars().count() <= CAP;
            if within || !whole {
                assert_eq!(now, before, "{label:?} {qualifier:?} {number:?}");
                same += 1;
            } else {
                assert!(name_len(&now) <= MAX_NAME_LEN, "{now:?}");
                past_cap += 1;
            }
            assert!(now.chars().count() <= 2 * CAP + 24, "{label:?} {qualifier:?}");
            // A few compositions of at most CAP characters of each, of at
            // most four bytes.
            assert!(composed <= 16 * 4 * CAP as u64, "{composed} bytes composed");
        }
        assert!(same > 1_000 && past_cap > 100, "{same} alike, {past_cap} past the cap");
    }

    /// The Renamer's steps to settle, through a box labelled `box_label`,
    /// `count` tools each clashing with one tool of box "Kit" (label
    /// `label(i)`; one clash of them all when the labels are alike), and
    /// the longest new label given.
    fn steps_to_rename_through_a_box(count: usize, box_label: &str, label: impl Fn(usize) -> String) -> (u64, usize) {
        let mut nodes = vec![
            serde_json::json!({"id": "agent", "type": "ai_agent"}),
            serde_json::json!({"id": "K", "type": "toolbox", "data": {"label": "Kit"}}),
            serde_json::json!({"id": "B", "type": "toolbox", "data": {"label": box_label}}),
        ];
        let tool_edge = |source: &str, target: &str| serde_json::json!({"source": source, "target": target, "data": {"edgeType": "tool_availability"}});
        let mut edges = vec![tool_edge("K", "agent"), tool_edge("B", "agent")];
        for i in 0..count {
            for (side, into) in [("a", "K"), ("b", "B")] {
                let id = format!("{side}{i:06}");
                nodes.push(serde_json::json!({"id": id, "type": "tool", "data": {"label": label(i)}}));
                edges.push(tool_edge(&id, into));
            }
        }
        let doc = serde_json::json!({"nodes": nodes, "edges": edges}).to_string();
        let g = parse(doc.as_bytes(), &Config::default()).unwrap();
        let (tools, by_hash) = tools_and_names(&g);
        let node = |id: &str| (0..g.node_count() as NodeIx).find(|&n| g.id(n) == id).unwrap();
        let (kit, b) = (node("K"), node("B"));
        let mut renamer = Renamer::new(&g, &by_hash);
        // The "a" tools sort first: each clash keeps its "a" tools' label.
        let mut clashes: Map<String, Vec<NodeIx>> = new_map();
        for &tool in &tools {
            clashes.entry(normalize_name(g.label(tool))).or_default().push(tool);
        }
        let mut clashes: Vec<Vec<NodeIx>> = clashes.into_values().collect();
        clashes.sort();
        for leaves in &clashes {
            let second = |i: usize| if g.id(leaves[i]).starts_with('a') { kit } else { b };
            renamer.settle(leaves, second, |k, node| second(k) == node);
        }
        let steps = renamer.steps();
        let renames = renamer.into_renames();
        let longest = renames.values().map(|r| r.new_label.chars().count()).max().unwrap_or(0);
        (steps, longest)
    }

    #[test]
    fn cmp9_renames_through_a_box_of_a_long_label_cost_the_cap_not_the_label() {
        // `long-box-label`: n tools "X" through a box whose label is 100 n
        // characters, one "X" through Kit; and its variant, n pairs "X i"
        // through a box whose label names one letter after 100 n that name
        // nothing. Each renamed tool reads at most CAP characters of the
        // box's label, so doubling n (and the label) doubles the steps,
        // and no new label holds more than CAP of them.
        let alike = |n: usize| steps_to_rename_through_a_box(n, &"Q".repeat(100 * n), |_| "X".into());
        let punct =
            |n: usize| steps_to_rename_through_a_box(n, &format!("{}K", "-".repeat(100 * n)), |i| format!("X {i}"));
        for (shape, run) in [
            ("one clash", &alike as &dyn Fn(usize) -> (u64, usize)),
            ("pairs", &punct),
        ] {
            let ((steps_n, longest_n), (steps_2n, longest_2n)) = (run(400), run(800));
            assert!(
                steps_2n as f64 <= 2.3 * steps_n as f64,
                "{shape}: {steps_n} steps for 400 tools, {steps_2n} for 800"
            );
            assert!(
                longest_n.max(longest_2n) <= CAP + 24,
                "{shape}: a new label of {longest_2n} characters"
            );
        }
    }

    /// A workflow of one agent and, for each (id, label), a tool wired
    /// straight into it.
    fn tools_of_one_agent(tools: &[(String, String)]) -> String {
        let nodes = tools
            .iter()
            .map(|(id, label)| serde_json::json!({"id": id, "data": {"label": label}}));
        let edges = tools
            .iter()
            .map(|(id, _)| serde_json::json!({"source": id, "target": "agent", "targetHandle": "agent-input-tool"}));
        serde_json::json!({
            "nodes": std::iter::once(serde_json::json!({"id": "agent"})).chain(nodes).collect::<Vec<_>>(),
            "edges": edges.collect::<Vec<_>>(),
        })
        .to_string()
    }

    /// The tools of `g` in id order, and every tool as (name hash, node),
    /// sorted, as the check hands them to `Renamer`.
    fn tools_and_names(g: &ToolGraph<'_>) -> (Vec<NodeIx>, Vec<(u64, NodeIx)>) {
        let mut tools: Vec<NodeIx> = (0..g.node_count() as NodeIx).filter(|&n| g.is_tool(n)).collect();
        g.sort_by_id(&mut tools);
        let mut by_hash: Vec<(u64, NodeIx)> = tools
            .iter()
            .map(|&n| (g.hash_of_name(&normalize_name(g.label(n))), n))
            .collect();
        by_hash.sort_unstable();
        (tools, by_hash)
    }

    /// One agent and `count` tools labelled "X" whose ids share their first
    /// 80 characters, settled as the check settles their one clash: the
    /// steps it took, after checking the renames.
    fn steps_to_rename_tools_whose_numbered_labels_coincide(count: usize) -> u64 {
        let tools: Vec<(String, String)> = (0..count)
            .map(|i| (format!("{}{i}", "p".repeat(80)), "X".into()))
            .collect();
        let doc = tools_of_one_agent(&tools);
        let g = parse(doc.as_bytes(), &Config::default()).unwrap();
        let (leaves, by_hash) = tools_and_names(&g);
        let agent = g.consumers().next().unwrap();
        let mut renamer = Renamer::new(&g, &by_hash);
        renamer.settle(&leaves, |_| agent, |_, _| unreachable!("no tool comes through a box"));
        let steps = renamer.steps();
        let renames = renamer.into_renames();
        assert_eq!(renames.len(), count - 1);
        let mut new_names = Set::default();
        for rename in renames.values() {
            assert_eq!(rename.new_name, normalize_name(&rename.new_label));
            assert!(rename.new_name.len() <= MAX_NAME_LEN, "{rename:?}");
            assert_ne!(rename.new_name, "x", "{rename:?}");
            assert!(new_names.insert(rename.new_name.clone()), "given twice: {rename:?}");
        }
        steps
    }

    #[test]
    fn cmp9_fix_numbering_is_linear_in_the_renamed_tools() {
        // Every id is cut to the same 62 or so "p"s, so every tool's
        // numbered labels are the same names: the k-th tool renamed must
        // not try again the numbers the k - 1 before it were given.
        let (r, two_r) = (2_000, 4_000);
        let (steps_r, steps_2r) = (
            steps_to_rename_tools_whose_numbered_labels_coincide(r),
            steps_to_rename_tools_whose_numbered_labels_coincide(two_r),
        );
        assert!(
            steps_2r as f64 <= 2.3 * steps_r as f64,
            "{steps_r} steps for {r} tools, {steps_2r} for {two_r}"
        );
    }

    /// The rename trying every number in turn gives: the first candidate
    /// whose name is not in `taken`, which then holds it.
    fn first_free_in_turn(label: &str, id: &str, through_box: Option<&str>, taken: &mut Set<String>) -> Rename {
        let qualified = through_box.into_iter().chain([id]).map(|q| fit(label, q, None));
        let numbered = (2..).map(|n| fit(label, id, Some(n)));
        let (new_label, new_name) = qualified
            .chain(numbered)
            .map(|new_label| {
                let new_name = normalize_name(&new_label);
                (new_label, new_name)
            })
            .find(|(_, new_name)| taken.insert(new_name.clone()))
            .expect("numbered labels never run out");
        Rename {
            node: id.to_owned(),
            label: label.to_owned(),
            new_label,
            new_name,
        }
    }

    #[test]
    fn cmp9_fix_numbering_gives_what_trying_every_number_in_turn_gives() {
        // Crowds of tools whose numbered labels share names: ids that name
        // alike ("t", "t_", "t__"), ids cut to one prefix, ids past the
        // characters `fit` reads, ids that name nothing; labels whose
        // numbered names stop fitting whole at 10 (x60) or at 100 (x59),
        // the first of which at 10 has the names the second has from 2;
        // and tools named already like numbered labels.
        let long = "Search the whole web for pages about anything, then summarise them all";
        let (x60, x59, p80, i70, i4100) = (
            "x".repeat(60),
            "x".repeat(59),
            "p".repeat(80),
            "i".repeat(70),
            "i".repeat(4100),
        );
        let id_bases = ["t", "é", &p80, &i70, &i4100];
        let labels = [
            "X".to_owned(),
            "x!".into(),
            "".into(),
            "日本".into(),
            long.into(),
            x60.clone(),
            x59.clone(),
            "Very long label ".repeat(300),
        ];
        let named_like_numbered = [
            "x t 3".to_owned(),
            "x_t_12".into(),
            "X (t 2)".into(),
            "7".into(),
            "x (é 4)".into(),
            format!("{} 4", "p".repeat(62)),
            format!("{} 11", "p".repeat(61)),
            format!("{x59} t 10"),
            format!("{x59} t 3"),
            format!("{} t 100", "x".repeat(58)),
            "x t 100".into(),
            format!("{} 9", "i".repeat(62)),
            "Search (Kit)".into(),
        ];
        let boxes = [
            None,
            None,
            None,
            Some("Kit"),
            Some("kit"),
            Some(&*format!("Kit {long}")),
            Some("💡"),
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = |below: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) % below as u64) as usize
        };
        for round in 0..40 {
            // Two crowds first: one numbered past 100, and one where x60's
            // names from 10 on are x59's.
            let (bases, some_labels, count): (Vec<&str>, Vec<&str>, usize) = match round {
                0 => (vec!["t"], vec!["X"], 120),
                1 => (vec!["t"], vec![&x60, &x59], 60),
                _ => (
                    (0..1 + random(2)).map(|_| id_bases[random(id_bases.len())]).collect(),
                    (0..1 + random(3)).map(|_| &*labels[random(labels.len())]).collect(),
                    10 + random(50),
                ),
            };
            let mut tools: Vec<(String, String)> = named_like_numbered
                .iter()
                .enumerate()
                .map(|(j, label)| (format!("named_{j}"), label.clone()))
                .collect();
            for j in 0..count {
                // Separators at the end of an id change nothing in its name.
                let id = format!("{}{}", bases[random(bases.len())], "_".repeat(j));
                tools.push((id, some_labels[random(some_labels.len())].to_owned()));
            }
            let doc = tools_of_one_agent(&tools);
            let g = parse(doc.as_bytes(), &Config::default()).unwrap();
            let (mut leaves, by_hash) = tools_and_names(&g);
            let mut taken: Set<String> = leaves.iter().map(|&n| normalize_name(g.label(n))).collect();
            let mut renamer = Renamer::new(&g, &by_hash);
            for i in (1..leaves.len()).rev() {
                leaves.swap(i, random(i + 1));
            }
            if round == 1 {
                // x60's run from 10 walked before x59's from 2 is.
                leaves.sort_by_key(|&n| g.label(n) != x60);
            }
            for &leaf in &leaves[1..] {
                let through_box = boxes[random(boxes.len())];
                let expected = first_free_in_turn(g.label(leaf), g.id(leaf), through_box, &mut taken);
                assert_eq!(renamer.rename(leaf, through_box), expected, "round {round}");
            }
        }
    }

    /// The renames of every CMP-9 violation of the workflow of `tools` (id,
    /// label) and tool edges `wires` (source, target), as (node, new label).
    fn fixes_of(tools: &[(&str, &str)], wires: &[(&str, &str)]) -> Vec<Vec<(String, String)>> {
        let nodes: Vec<_> = tools
            .iter()
            .map(|(id, label)| serde_json::json!({"id": id, "data": {"label": label}}))
            .collect();
        let edges: Vec<_> = wires
            .iter()
            .map(|(source, target)| {
                serde_json::json!({"source": source, "target": target, "data": {"edgeType": "tool_availability"}})
            })
            .collect();
        let doc = serde_json::json!({"nodes": nodes, "edges": edges}).to_string();
        let report = crate::engine::check_text(doc.as_bytes(), &Config::default(), crate::Budget::full()).unwrap();
        report
            .violations()
            .filter_map(|v| match v {
                crate::Violation::ToolNameCollision(c) => {
                    Some(c.fix().iter().map(|r| (r.node.clone(), r.new_label.clone())).collect())
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn cmp9_fix_numbers_past_names_taken_anywhere_and_by_earlier_renames() {
        let fix = |node: &str, new_label: &str| (node.to_owned(), new_label.to_owned());
        // search_t2 and search_t2_2 are tools' names elsewhere.
        let tools = [
            ("t1", "Search"),
            ("t2", "search"),
            ("x", "Search T2"),
            ("y", "search (t2 2)"),
        ];
        let wires = [("t1", "ag"), ("t2", "ag"), ("x", "other"), ("y", "other")];
        assert_eq!(fixes_of(&tools, &wires), [[fix("t2", "search (t2 3)")]]);
        // "SEARCH (X)" and "search (x)" are both search_x.
        let tools = [("A", "Search"), ("X", "SEARCH"), ("x", "search")];
        let wires = [("A", "ag"), ("X", "ag"), ("x", "ag")];
        assert_eq!(
            fixes_of(&tools, &wires),
            [[fix("X", "SEARCH (X)"), fix("x", "search (x 2)")]]
        );
        // Ids cut to one prefix, labels cut to fit.
        let (huge, long) = (
            "i".repeat(500),
            "Search the whole web for pages about anything at all, then summarise them",
        );
        let (tools, wires) = ([("a", "Search"), (&*huge, "search")], [("a", "ag"), (&*huge, "ag")]);
        assert_eq!(fixes_of(&tools, &wires), [[fix(&huge, &"i".repeat(MAX_NAME_LEN))]]);
        let upper = long.to_uppercase();
        let (tools, wires) = ([("t1", long), ("t2", &*upper)], [("t1", "ag"), ("t2", "ag")]);
        assert_eq!(
            fixes_of(&tools, &wires),
            [[fix(
                "t2",
                "SEARCH THE WHOLE WEB FOR PAGES ABOUT ANYTHING AT ALL, THEN SUM (t2)"
            )]]
        );
    }
}
