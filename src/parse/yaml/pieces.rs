//! A large workflow's YAML read in two halves at once, one per core.
//!
//! The parser is the floor of a YAML check: it reads one character after
//! another, and costs ten times the whole JSON check (docs/BENCHMARKS.md).
//! A Drupal workflow, though, is a root mapping whose `nodes` and `edges`
//! are two long sequences of items at column 2, and both a key at the left
//! margin and an item line at column 2 start a new entry of what holds
//! them, whatever came before, unless something left open (a quote, a
//! bracket) carries on past the line. So the text is cut near its middle:
//!
//! - the *first* piece, up to the cut, is parsed and read on this thread,
//!   straight into the graph builder;
//! - when the cut falls between two items of `nodes` or `edges`, the
//!   *list* piece (the rest of those items, up to the next line at the
//!   margin) is parsed as a sequence of its own and read on another thread
//!   as the same list from the item the first piece stopped at;
//! - the *rest*, from the next key at the margin to the end, is read there
//!   too, after it (without a list piece, the cut is at that key).
//!
//! The other thread's calls go to a [`Recorder`], whose chunks this thread
//! replays once its own half is read: the builder receives the calls one
//! read of the whole text makes, in the same order, at the same offsets,
//! with the same indexes.
//!
//! A cut is used only when the pieces prove it sound; otherwise the caller
//! reads the text whole, and that read gives every error at its place as
//! always. A text read in pieces gets its answer sooner, never another
//! one. The proof:
//!
//! - each piece is read without an error: something opened before a cut
//!   and closed after it leaves the piece before it unfinished, which is an
//!   error (block and plain scalars end at a less indented line anyway);
//! - the first piece's root is a block mapping starting at the margin (a
//!   mapping indented, or in brackets, would end before the cut, and the
//!   whole text would hold two root values), and no line of it ends a
//!   document (`...`), after which the rest would be a second document;
//! - with a list piece: the first piece's last key is that list's, its
//!   value a block sequence at column 2 that held as many items as were
//!   counted before the cut, and the list piece is a block sequence at
//!   column 2 too, so its items are the same sequence's next ones;
//! - no anchor or alias anywhere: their budget is the whole text's
//!   (`Limits`), and an alias may name an anchor of another piece;
//! - no root key in both the first piece and the rest: each piece's
//!   repeated-key check sees its own keys only, so the two sets are
//!   compared as that check compares keys.
//!
//! Cost: the halves take the time of the longer one, not of both (the cut
//! is placed where they cost alike, see [`balance`]); the records the
//! second half gives before the first is read (some 130 bytes per node or
//! edge, a fraction of the text they come from) wait until it is, the
//! rest are replayed as they come. Finding the cut reads
//! at most the text once more with `memchr`, a few milliseconds. A text
//! whose pieces do not prove their cut is read once more, whole: at most
//! twice the work of one read, never more.
//!
//! Over 600 lines only with its tests (the code is under 350): the proof
//! above is tested case by case and against random documents.

use memchr::{memchr_iter, memmem};
use saphyr_parser::Parser;

use super::events::{Events, Limits, Piece};
use super::schema::Key;
use super::{Document, Yaml};
use crate::graph::{GraphBuilder, Sink};
use crate::maps::Set;
use crate::parse::threaded::Recorder;
use crate::parse::{List, Reader};
use crate::threads::joined;

/// Where the text is cut: the first piece ends at `at`, which is an item
/// line of `list`'s sequence when `list` is given, and a key at the
/// margin otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cut {
    at: usize,
    list: Option<ListCut>,
}

/// A cut between two items of a list: which list, and how many item lines
/// at column 2 come before the cut (checked against what the first piece
/// read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ListCut {
    list: List,
    items_before: usize,
}

/// Whether a line starting at `line` holds something at the margin (not
/// a blank line, an indented one or a comment).
fn at_margin(bytes: &[u8], line: usize) -> bool {
    !matches!(bytes.get(line), None | Some(b' ' | b'\t' | b'\n' | b'\r' | b'#'))
}

/// Whether the line starting at `line` is an item of a sequence at column 2.
fn item_line(bytes: &[u8], line: usize) -> bool {
    bytes[line..].starts_with(b"  -") && matches!(bytes.get(line + 3), None | Some(b' ' | b'\n' | b'\r'))
}

/// The first line after the one holding `from` that holds something at
/// the margin.
fn next_margin_line(bytes: &[u8], from: usize) -> Option<usize> {
    memchr_iter(b'\n', &bytes[from..])
        .map(|i| from + i + 1)
        .find(|&line| at_margin(bytes, line))
}

/// The line `nodes:` or `edges:` at the margin (their first), when it has
/// its value on the lines below.
fn list_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, List)> + '_ {
    [List::Nodes, List::Edges].into_iter().filter_map(move |list| {
        let key = list.key().as_bytes();
        let line = if bytes.starts_with(key) {
            0
        } else {
            let mut needle = Vec::with_capacity(key.len() + 1);
            needle.push(b'\n');
            needle.extend_from_slice(key);
            memmem::find(bytes, &needle)? + 1
        };
        let after = line + key.len();
        let ends = |i: usize| matches!(bytes.get(i), Some(b'\n')) || bytes[i..].starts_with(b"\r\n");
        (bytes.get(after) == Some(&b':') && ends(after + 1)).then_some((line, list))
    })
}

/// How many times a byte of `nodes` costs what a byte of the rest does to
/// parse and read (measured on the generated presets: 1.9; a node holds
/// more keys and nests deeper than an edge, and its id, label and type are
/// read where an edge's ends are only hashed).
const NODE_BYTE_WEIGHT: usize = 2;

/// Where the two halves cost alike: the text's middle, its `nodes` bytes
/// counted [`NODE_BYTE_WEIGHT`] times (the block taken to run from its line
/// to the other list's, or to the end).
fn balance(bytes: &[u8], lines: &[(usize, List)]) -> usize {
    let Some(&(start, _)) = lines.iter().find(|&&(_, list)| list == List::Nodes) else {
        return bytes.len() / 2;
    };
    let end = lines
        .iter()
        .map(|&(line, _)| line)
        .filter(|&line| line > start)
        .min()
        .unwrap_or(bytes.len());
    let extra = (end - start) * (NODE_BYTE_WEIGHT - 1);
    let half = (bytes.len() + extra) / 2;
    if half <= start {
        half
    } else if half <= start + (end - start) * NODE_BYTE_WEIGHT {
        start + (half - start) / NODE_BYTE_WEIGHT
    } else {
        half - extra
    }
}

/// Where to cut `text`: between two items of the list whose block holds
/// the point where the halves cost alike (see [`balance`]), or else at the
/// first key at the margin after it; `None` if neither is found.
fn cut(text: &str) -> Option<Cut> {
    let bytes = text.as_bytes();
    let lines: Vec<(usize, List)> = list_lines(bytes).collect();
    let middle = balance(bytes, &lines);
    let holding_middle = lines
        .iter()
        .copied()
        .filter(|&(line, _)| line < middle)
        .max_by_key(|&(line, _)| line);
    if let Some((line, list)) = holding_middle {
        let item = memmem::find_iter(&bytes[middle..], b"\n  -")
            .map(|i| middle + i + 1)
            .find(|&at| item_line(bytes, at));
        if let Some(at) = item {
            // The list's block must reach the item: no line at the margin
            // on the way, and its item lines are counted.
            let mut items_before = 0;
            let within = memchr_iter(b'\n', &bytes[line..at - 1])
                .map(|i| line + i + 1)
                .all(|next| {
                    items_before += usize::from(item_line(bytes, next));
                    !at_margin(bytes, next)
                });
            if within {
                return Some(Cut {
                    at,
                    list: Some(ListCut { list, items_before }),
                });
            }
        }
    }
    let at = next_margin_line(bytes, middle)?;
    Some(Cut { at, list: None })
}

/// Whether a line of `piece` is a document end marker.
fn ends_a_document(piece: &[u8]) -> bool {
    let marker =
        |line: &[u8]| line.starts_with(b"...") && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\n' | b'\r'));
    marker(piece) || memmem::find_iter(piece, b"\n...").any(|at| marker(&piece[at + 1..]))
}

/// The piece of `text` from byte `start` to byte `end`.
fn piece(text: &str, start: usize, end: usize) -> Piece {
    Piece {
        start,
        end,
        start_chars: bytecount::num_chars(&text.as_bytes()[..start]),
    }
}

fn events<'a>(text: &'a str, piece: Piece) -> Yaml<'a, Parser<'a, saphyr_parser::StrInput<'a>>> {
    Yaml::new(Events::of_piece(
        text,
        piece,
        Limits::default(),
        Parser::new_from_str(&text[piece.start..piece.end]),
    ))
}

/// What reading a mapping piece gave, besides what went to its sink.
struct MappingRead<'a> {
    document: Document<'a>,
    keys: Vec<Key<'a>>,
    /// Where its root mapping starts.
    root_at: usize,
    /// The last sequence it read whole: where it started, and its items.
    last_sequence: Option<(usize, usize)>,
}

/// Reads `piece` of `text`, a mapping, into `sink`: `None` if it is not a
/// whole document whose root is a block mapping at the margin read
/// without an error, or if it met an anchor or an alias.
fn read_mapping<'a>(
    reader: Reader<'_>,
    text: &'a str,
    piece: Piece,
    sink: &mut dyn Sink<'a>,
) -> Option<MappingRead<'a>> {
    let mut s = events(text, piece);
    let root_at = s.0.pos().ok()?;
    let document = reader.document(&mut s, sink).ok()?;
    let bytes = text.as_bytes();
    let block_at_margin = (root_at == 0 || bytes[root_at - 1] == b'\n') && bytes.get(root_at) != Some(&b'{');
    if s.0.met_anchors() || !block_at_margin {
        return None;
    }
    Some(MappingRead {
        document,
        keys: s.0.root_keys(),
        root_at,
        last_sequence: s.1,
    })
}

/// Reads `piece` of `text`, the rest of a list from item `cut.items_before`
/// on, into `sink`: `None` unless it is a block sequence at column 2 read
/// whole without an error and without an anchor or an alias.
fn read_list<'a>(reader: Reader<'_>, text: &'a str, piece: Piece, cut: ListCut, sink: &mut dyn Sink<'a>) -> Option<()> {
    let mut s = events(text, piece);
    // The sequence starts at the `-` of its first line.
    if s.0.pos().ok()? != piece.start + 2 {
        return None;
    }
    reader.list(&mut s, sink, cut.list, cut.items_before).ok()?;
    s.0.finish().ok()?;
    (!s.0.met_anchors()).then_some(())
}

/// Chunks of the second half's records that may wait for the first half
/// to be read: past this many (some 500 MB of records, far past what a
/// half of a file of a few GB gives), the second half waits.
const IN_FLIGHT: usize = 1024;

/// Whether the first half, when the cut is between two items of `list`,
/// ends in that list: its last key is the list's, whose value is a block
/// sequence at column 2 that held the items counted before the cut.
fn continues_the_list(bytes: &[u8], first: &MappingRead<'_>, list: Option<ListCut>) -> bool {
    let Some(list) = list else { return true };
    let Some((key, value_at)) = &first.document.last else {
        return false;
    };
    key == list.list.key()
        && bytes[..*value_at].ends_with(b"\n  ")
        && first.last_sequence == Some((*value_at, list.items_before))
}

/// Reads `text` in two halves, on this thread and one other, into a new
/// builder made by `builder`; `None` when the text has no cut or the pieces
/// do not prove it sound (see the module doc): then nothing of it is kept,
/// and the text must be read whole.
pub(super) fn read<'a>(
    reader: Reader<'_>,
    text: &'a str,
    builder: impl FnOnce() -> GraphBuilder<'a>,
) -> Option<GraphBuilder<'a>> {
    let cut = cut(text)?;
    let bytes = text.as_bytes();
    if ends_a_document(&bytes[..cut.at]) {
        return None;
    }
    let mut builder = builder();
    let (recorder, chunks) = Recorder::new(builder.id_hasher(), IN_FLIGHT);
    let (first, later) = std::thread::scope(|scope| {
        let later = scope.spawn(move || {
            let mut recorder = recorder;
            let rest_at = match cut.list {
                Some(list) => {
                    let end = next_margin_line(bytes, cut.at).unwrap_or(bytes.len());
                    read_list(reader, text, piece(text, cut.at, end), list, &mut recorder)?;
                    end
                }
                None => cut.at,
            };
            if rest_at == bytes.len() {
                return Some(None);
            }
            // The rest starts with its first key (not `---`, say).
            let rest = read_mapping(reader, text, piece(text, rest_at, bytes.len()), &mut recorder)?;
            (rest.root_at == rest_at).then_some(Some(rest))
        });
        let first = read_mapping(reader, text, piece(text, 0, cut.at), &mut builder)
            .filter(|first| continues_the_list(bytes, first, cut.list));
        if first.is_some() {
            // The second half's records so far, then the rest as they come.
            chunks.replay(&mut builder);
        } else {
            // Not wanted: the other thread's sends fail, it does not wait.
            drop(chunks);
        }
        (first, joined(later))
    });
    let (first, rest) = (first?, later?);
    let mut head = first.document.head;
    if let Some(rest) = rest {
        let first_keys: Set<&Key<'a>> = first.keys.iter().collect();
        if rest.keys.iter().any(|key| first_keys.contains(key)) {
            return None;
        }
        head = head.joined(rest.document.head);
    }
    builder.head(head.finish());
    Some(builder)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::config::Config;
    use crate::parse::tests::summary;

    fn reader(config: &Config) -> Reader<'_> {
        Reader {
            config,
            budget: Budget::full(),
        }
    }

    fn finished(builder: GraphBuilder<'_>) -> String {
        builder.finish(false).map_or_else(|e| format!("{e:?}"), |g| summary(&g))
    }

    /// The text read in pieces, if they prove the cut sound.
    fn in_pieces(text: &str) -> Option<String> {
        let config = Config::default();
        read(reader(&config), text, || {
            GraphBuilder::with_capacity(16).keeping_types(true)
        })
        .map(finished)
    }

    /// The text read whole, on one thread.
    fn whole(text: &str) -> String {
        let config = Config::default();
        let mut builder = GraphBuilder::with_capacity(16).keeping_types(true);
        match reader(&config).yaml(Events::new(text), &mut builder) {
            Ok(()) => finished(builder),
            Err(e) => format!("{e:?}"),
        }
    }

    fn node(i: usize) -> String {
        match i % 3 {
            0 => format!("  -\n    id: n{i}\n    type: toolbox\n    data: {{label: 'Bé {i}', metadata: {{node_type_id: toolbox}}}}\n"),
            1 => format!("  - {{id: n{i}, data: {{label: Ä{i}}}}}\n"),
            _ => format!("  - id: n{i}\n    data:\n      label: |\n        multi\n        line {i}\n"),
        }
    }

    fn edge(i: usize) -> String {
        let kind = if i % 4 == 3 {
            "tool_availabilty"
        } else {
            "tool_availability"
        };
        format!(
            "  - {{id: e{i}, source: n{}, target: n{}, data: {{edgeType: {kind}}}}}\n",
            i + 1,
            i
        )
    }

    fn list(key: &str, items: impl Iterator<Item = String>) -> String {
        format!("{key}:\n{}", items.collect::<String>())
    }

    fn nodes(n: usize) -> String {
        list("nodes", (0..n).map(node))
    }

    fn edges(n: usize) -> String {
        list("edges", (0..n).map(edge))
    }

    /// `text` cut where `cut` cuts it, read in pieces: the graph read whole.
    fn same_in_pieces(text: &str, expected: Option<List>) {
        let cut = cut(text).expect("a cut");
        assert_eq!(cut.list.map(|l| l.list), expected, "{text}");
        assert_eq!(in_pieces(text).as_deref(), Some(whole(text).as_str()), "{text}");
    }

    #[test]
    fn a_workflow_cut_inside_its_nodes_reads_as_one_read_whole() {
        same_in_pieces(&format!("uuid: x\nid: w\n{}{}", nodes(60), edges(5)), Some(List::Nodes));
        // Node shape errors and a bad id after the cut keep their indexes.
        let text = format!("{}  - 5\n  - {{id: 7}}\n{}", nodes(40), edges(2));
        same_in_pieces(&text, Some(List::Nodes));
        assert!(whole(&text).contains("node 40: must be an object"), "{}", whole(&text));
    }

    #[test]
    fn a_workflow_cut_inside_its_edges_reads_as_one_read_whole() {
        same_in_pieces(
            &format!("id: w\n{}{}metadata: {{a: 1}}\n", nodes(5), edges(60)),
            Some(List::Edges),
        );
        // The head after the edges; a comment at the margin among them;
        // Windows line ends.
        let text = format!(
            "{}{}# done\n{}input_ports:\n  - {{port: tool, node_id: n1}}\nid: w\n",
            nodes(3),
            edges(30),
            edges(30).replacen("edges:\n", "", 1)
        );
        same_in_pieces(&text, Some(List::Edges));
        same_in_pieces(&text.replace('\n', "\r\n"), Some(List::Edges));
    }

    #[test]
    fn a_workflow_cut_at_a_key_reads_as_one_read_whole() {
        let long = format!("description: |\n{}", "  edges:\n  - text\n".repeat(40));
        same_in_pieces(&format!("{}{long}{}", nodes(2), edges(2)), None);
        same_in_pieces(
            &format!("---\n# c\nlabel: 'a\n  b'\n{long}{}{}", edges(3), nodes(3)),
            None,
        );
    }

    /// The middle of the text falls inside `inside`.
    fn around_middle(before: &str, inside: &str, after: &str) -> String {
        assert!(inside.len() > before.len() + after.len());
        format!("{before}{inside}{after}")
    }

    #[test]
    fn a_cut_the_pieces_do_not_prove_sound_is_not_used() {
        let items = |n| (0..n).map(|i| format!("  - x{i}\n")).collect::<String>();
        for text in [
            // Something open across the cut.
            around_middle(&nodes(2), &format!("label: 'open\n{}'\n", items(50)), &edges(2)),
            around_middle(
                &nodes(2),
                &format!("label: [\n{}]\n", items(50).replace("\n", ",\n")),
                &edges(2),
            ),
            around_middle(
                &nodes(2),
                &format!("edges:\n  - [\n{}  ]\n", items(50).replace("\n", ",\n")),
                "",
            ),
            // Items the text seems to hold but the parser does not count alike.
            around_middle("", &format!("nodes:\n  -\tx\n{}", items(50)), &edges(1)),
            // A list at column 2 that is not the key's sequence.
            around_middle("", &format!("edges:\n  a:\n{}", items(50)), ""),
            // A root that is not a block mapping at the margin.
            around_middle("  id: w\n", &nodes(50), ""),
            around_middle("{id: w}\n", &nodes(50), ""),
            // A document ends before the cut.
            around_middle("id: w\n...\n", &nodes(50), ""),
            // A root key in the first piece and the rest.
            around_middle("id: a\n", &nodes(50), "id: b\n"),
            // A line at the margin after the list that is not a key.
            around_middle("", &nodes(50), "- x\n"),
            // Anchors, in one piece or across.
            around_middle("label: &a x\n", &nodes(50), "other: *a\n"),
            around_middle("", &nodes(50), "other: &b [1]\n"),
            // Invalid YAML in either piece.
            around_middle("a: b: c\n", &nodes(50), ""),
            around_middle("", &nodes(50), "edges: [unclosed\n"),
        ] {
            assert!(cut(&text).is_some(), "{text}");
            assert_eq!(in_pieces(&text), None, "{text}");
        }
    }

    #[test]
    fn the_halves_balance_with_the_nodes_bytes_counted_twice() {
        let text = [b'x'; 100];
        assert_eq!(balance(&text, &[]), 50);
        assert_eq!(balance(&text, &[(60, List::Edges)]), 50);
        // 40 bytes of nodes weigh 80: the halves weigh 70 each.
        assert_eq!(balance(&text, &[(0, List::Nodes), (40, List::Edges)]), 35);
        assert_eq!(balance(&text, &[(40, List::Edges), (0, List::Nodes)]), 35);
        // Nodes last, from 80: 120 in all, 60 before them.
        assert_eq!(balance(&text, &[(10, List::Edges), (80, List::Nodes)]), 60);
        // Nodes in the middle, 30..50: 120 in all; 30 + 2 x 15 = 60.
        assert_eq!(balance(&text, &[(30, List::Nodes), (50, List::Edges)]), 45);
    }

    #[test]
    fn the_cut_is_at_an_item_after_the_middle_or_at_a_key() {
        let text = "nodes:\n  - a\n  - b\n  - c\n  - d\n";
        let middle = text.len() / 2;
        let at = cut(text).unwrap();
        assert!(at.at >= middle && item_line(text.as_bytes(), at.at));
        assert_eq!(&text[..at.at].matches("\n  -").count(), &at.list.unwrap().items_before);
        // No item after the middle before the next key: the key.
        let text = "nodes:\n  - aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nedges: []\n";
        assert_eq!(
            cut(text),
            Some(Cut {
                at: text.find("edges").unwrap(),
                list: None
            })
        );
        assert_eq!(cut("a: 1\n  b: 2\n"), None);
        assert!(ends_a_document(b"..."));
        assert!(ends_a_document(b"a: 1\n... # end\n"));
        assert!(!ends_a_document(b"a: 1\n....\n  ...\n"));
    }

    /// Random documents from fragments that open, close and repeat things
    /// around the cut: each read in pieces gives what it gives read whole,
    /// or is read whole.
    #[test]
    fn random_documents_read_in_pieces_give_the_graph_read_whole() {
        const ROOT: &[&str] = &[
            "id: w\n",
            "id: 5\n",
            "label: 'open\n",
            "label: \"open\n",
            "  close'\n",
            "  close\"\n",
            "list: [\n",
            "]\n",
            "text: |\n",
            "  body\n",
            "...\n",
            "---\n",
            "# comment\n",
            "anchor: &a v\n",
            "alias: *a\n",
            "input_ports: []\n",
            "? complex\n",
            ": value\n",
            "\tx: 1\n",
            "plain\n",
            "key:\n",
            "metadata: {a: 1}\n",
            "uuid: ü\n",
            "- x\n",
        ];
        const ITEM: &[&str] = &[
            "  - 5\n",
            "  -\tx\n",
            "  - [open\n",
            "  - 'open\n",
            "    close'\n",
            "  - &b {id: anchored}\n",
            "  - *b\n",
            "  # comment\n",
            "    nested: 1\n",
            "  a: 1\n",
            "  - - deep\n",
            "\n",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let (mut by_list, mut by_key) = (0, 0);
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..1 + next(5) {
                match next(4) {
                    0 => text.push_str(ROOT[next(ROOT.len())]),
                    k => {
                        let list = if k == 1 { "nodes" } else { "edges" };
                        text.push_str(list);
                        text.push_str(":\n");
                        for i in 0..next(30) {
                            match next(8) {
                                0 => text.push_str(ITEM[next(ITEM.len())]),
                                _ if list == "nodes" => text.push_str(&node(i)),
                                _ => text.push_str(&edge(i)),
                            }
                        }
                    }
                }
            }
            if let Some(pieces) = in_pieces(&text) {
                match cut(&text).unwrap().list {
                    Some(_) => by_list += 1,
                    None => by_key += 1,
                }
                assert_eq!(pieces, whole(&text), "{text:?}");
            }
        }
        // The property is not vacuous: both kinds of cut were taken often.
        assert!(by_list > 100 && by_key > 10, "{by_list} {by_key}");
    }
}
