//! The snapshot against the check it was made from, read through the one
//! interface both answer (`ReadFindings`), and against bytes that are not
//! a snapshot.

use super::*;
use crate::engine::check_text;
use crate::findings::Missing;
use crate::{Budget, Config, Report};

fn check(doc: &str) -> Report {
    check_text(doc.as_bytes(), &Config::default(), Budget::full()).unwrap()
}

fn tool_edge(from: &str, to: &str) -> String {
    format!(r#"{{"source": "{from}", "target": "{to}", "data": {{"edgeType": "tool_availability"}}}}"#)
}

fn node(id: &str, ty: &str, label: &str) -> String {
    format!(r#"{{"id": "{id}", "type": "{ty}", "data": {{"label": "{label}"}}}}"#)
}

fn workflow(nodes: &[String], edges: &[String]) -> String {
    format!(r#"{{"nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
}

/// Two same-named tools in one toolbox wired into `agents` agents (and
/// one more wired in beside the box into every other agent): groups of
/// many violations, and violations in two groups per consumer.
fn fanout(agents: usize) -> String {
    let mut nodes = vec![
        node("t1", "http", "Web Search"),
        node("t2", "http", "web-search"),
        node("box", "toolbox", "Kit"),
        node("f1", "http", "Fetch"),
        node("f2", "http", "fetch"),
    ];
    let mut edges = vec![tool_edge("t1", "box"), tool_edge("t2", "box")];
    for a in 0..agents {
        let agent = format!("agent{a:03}");
        nodes.push(node(&agent, "agent", "Agent"));
        edges.push(tool_edge("box", &agent));
        if a % 2 == 1 {
            edges.push(tool_edge("f1", &agent));
            edges.push(tool_edge("f2", &agent));
        }
    }
    workflow(&nodes, &edges)
}

/// A tool reaching an agent through a chain of `boxes` toolboxes, next
/// to a same-named tool wired in directly: one violation whose paths
/// are `boxes + 2` and 2 ids long.
fn chain(boxes: usize) -> String {
    let mut nodes = vec![
        node("deep", "http", "Lookup"),
        node("near", "http", "lookup"),
        node("agent", "agent", "A"),
    ];
    let mut edges = vec![tool_edge("deep", "b0"), tool_edge("near", "agent")];
    for b in 0..boxes {
        nodes.push(node(&format!("b{b}"), "toolbox", &format!("Box {b}")));
        let next = if b + 1 == boxes {
            "agent".to_owned()
        } else {
            format!("b{}", b + 1)
        };
        edges.push(tool_edge(&format!("b{b}"), &next));
    }
    workflow(&nodes, &edges)
}

fn examples() -> Vec<Report> {
    vec![
        check(include_str!("../../tests/data/spec-cmp9-refused.json")),
        check(include_str!("../../tests/data/spec-cmp9-accepted.json")),
        check(include_str!("../../tests/data/multi-violation.json")),
        check(include_str!("../../tests/data/shared-toolbox.json")),
        check(&fanout(40)),
        check(&chain(70)),
        check(
            r#"{"nodes": [{"id": "a", "id": "t"}], "edges": [{"source": "t", "source": "t", "target": "c", "targetHandle": "c-input-tool"}]}"#,
        ),
        cmp10_example(),
    ]
}

/// A check against a catalogue where agents and toolboxes take tools and
/// `http` nodes do not (CMP-10).
fn with_catalogue() -> Config {
    let mut catalogue = crate::catalogue::Catalogue::default();
    let types = br#"[{"id": "agent", "inputs": [{"dataType": "tool"}]},
        {"id": "toolbox", "inputs": [{"dataType": "tool"}]}, {"id": "http"}]"#;
    catalogue
        .add("types.json", types, crate::catalogue::Form::EditorJson)
        .unwrap();
    Config::default().with_catalogue(std::sync::Arc::new(catalogue))
}

/// CMP-10 beside CMP-9: a tool wired into a type that does not accept
/// tools, and one into a type the catalogue does not know.
fn cmp10_example() -> Report {
    let config = with_catalogue();
    let nodes = [
        node("t1", "http", "Search"),
        node("t2", "http", "search"),
        node("a", "agent", "A"),
        node("m", "mystery", "M"),
    ];
    let mut edges = vec![tool_edge("t1", "a"), tool_edge("t2", "a"), tool_edge("t1", "m")];
    edges.push(r#"{"id": "e3", "source": "a", "target": "t2", "targetHandle": "t2-input-tool"}"#.to_owned());
    check_text(workflow(&nodes, &edges).as_bytes(), &config, Budget::full()).unwrap()
}

/// A deterministic stream of numbers (xorshift64*), so that a failing
/// seed fails again.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// A random workflow with every kind of finding in reach: tools of few
/// names (CMP-9) wired into toolboxes and agents, boxes into later boxes
/// (shared paths, groups through a box or not), sometimes a chain of 65 to
/// 80 boxes (paths too long for box labels), edges of unknown types
/// (EDGE-5, with a suggestion or not), tools wired into tools (CMP-10) and
/// into a type the catalogue does not know, into undeclared nodes (R8),
/// lossy and unnamed labels, and a repeated key.
fn random_workflow(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let labels = [
        "Search",
        "search",
        "Web Search",
        "web-search",
        "Fetch",
        "fetch",
        "Café",
        "??",
    ];
    let (tools, boxes, agents) = (3 + rng.below(8), 1 + rng.below(5), 1 + rng.below(6));
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    for t in 0..tools {
        nodes.push(node(&format!("t{t}"), "http", labels[rng.below(labels.len())]));
    }
    for b in 0..boxes {
        // A box labelled by its id is left out of box labels.
        let label = if rng.one_in(2) {
            format!("b{b}")
        } else {
            format!("Box {b}")
        };
        nodes.push(node(&format!("b{b}"), "toolbox", &label));
    }
    for a in 0..agents {
        nodes.push(node(&format!("a{a}"), "agent", "Agent"));
    }
    let agent = |rng: &mut Rng| format!("a{}", rng.below(agents));
    for t in 0..tools {
        for _ in 0..1 + rng.below(2) {
            let to = if rng.one_in(3) {
                agent(&mut rng)
            } else {
                format!("b{}", rng.below(boxes))
            };
            edges.push(tool_edge(&format!("t{t}"), &to));
        }
    }
    for b in 0..boxes {
        for _ in 0..1 + rng.below(3) {
            let later = b + 1 + rng.below(boxes);
            let to = if later < boxes && rng.one_in(2) {
                format!("b{later}")
            } else {
                agent(&mut rng)
            };
            edges.push(tool_edge(&format!("b{b}"), &to));
        }
    }
    if rng.one_in(3) {
        let long = 65 + rng.below(16);
        nodes.push(node("deep", "http", "Search"));
        edges.push(tool_edge("deep", "c0"));
        for c in 0..long {
            nodes.push(node(&format!("c{c}"), "toolbox", &format!("Chain {c}")));
            let next = if c + 1 == long {
                agent(&mut rng)
            } else {
                format!("c{}", c + 1)
            };
            edges.push(tool_edge(&format!("c{c}"), &next));
        }
    }
    for k in 0..rng.below(3) {
        let edge_type = if rng.one_in(2) { "tool_availabilty" } else { "telepathy" };
        edges.push(format!(
            r#"{{"id": "e{k}", "source": "t0", "target": "{}", "data": {{"edgeType": "{edge_type}"}}}}"#,
            agent(&mut rng)
        ));
    }
    if rng.one_in(2) {
        let (from, to) = (rng.below(tools), rng.below(tools));
        edges.push(tool_edge(&format!("t{from}"), &format!("t{to}")));
    }
    if rng.one_in(3) {
        nodes.push(node("m", "mystery", "M"));
        edges.push(tool_edge("t1", "m"));
    }
    if rng.one_in(3) {
        edges.push(tool_edge("t2", "ghost"));
    }
    if rng.one_in(3) {
        nodes.push(r#"{"id": "twice", "type": "http", "data": {"label": "One", "label": "Two"}}"#.to_owned());
    }
    workflow(&nodes, &edges)
}

/// Workflows made by code: the fan-out and the chain, and random ones.
fn generated() -> Vec<Report> {
    let mut reports = vec![check(&fanout(40)), check(&chain(70))];
    let config = with_catalogue();
    for seed in 0..60 {
        let text = random_workflow(seed);
        reports.push(check_text(text.as_bytes(), &config, Budget::full()).unwrap());
    }
    reports
}

fn encoded(findings: &dyn ReadFindings) -> Vec<u8> {
    encode(findings, u64::MAX).unwrap()
}

fn shipped(findings: &dyn ReadFindings) -> Shipped {
    Shipped::decode(&encoded(findings)).unwrap()
}

/// Everything `b` answers, asked of `a` too, every answer equal; past
/// every count, both answer nothing.
fn assert_same_answers(a: &dyn ReadFindings, b: &dyn ReadFindings) {
    assert_eq!(a.stats(), b.stats());
    assert_eq!(a.node_types_checked(), b.node_types_checked());
    assert_eq!(a.warning_count(), b.warning_count());
    for i in 0..=a.warning_count() {
        assert_eq!(a.warning(i), b.warning(i));
    }
    assert_eq!(a.violation_count(), b.violation_count());
    for i in 0..=a.violation_count() {
        let (va, vb) = (a.violation(i), b.violation(i));
        assert_eq!(va, vb, "violation {i}");
        let tools = match &va {
            Some(Finding::ToolNameCollision(c)) => c.tools.iter().map(|t| t.path_len).collect(),
            _ => Vec::new(),
        };
        for (t, &len) in tools.iter().enumerate() {
            for (from, to) in [(0, usize::MAX), (1, 3), (len - 1, len), (len, len + 5), (3, 1)] {
                let path = a.tool_path(i, t, from, to);
                assert_eq!(path, b.tool_path(i, t, from, to), "violation {i} tool {t} {from}..{to}");
                assert_eq!(path.unwrap().len(), to.min(len).saturating_sub(from));
            }
        }
        let past = tools.len();
        let missing = match va {
            None => Missing::Violation,
            Some(Finding::ToolNameCollision(_)) => Missing::Tool,
            Some(_) => Missing::Tools,
        };
        assert_eq!(a.tool_path(i, past, 0, 1), Err(missing));
        assert_eq!(b.tool_path(i, past, 0, 1), Err(missing));
    }
    assert_eq!(a.group_count(), b.group_count());
    for g in 0..=a.group_count() as GroupIx {
        let group = a.group(g);
        assert_eq!(group, b.group(g));
        let count = group.map_or(0, |group| group.count as usize);
        for (from, to) in [(0, count + 1), (1, 3), (count, count)] {
            assert_eq!(a.group_consumers(g, from, to), b.group_consumers(g, from, to));
        }
    }
    assert!(!a.work().is_empty(), "the first is a check, with its work");
    assert!(b.work().is_empty(), "a snapshot did no work");
}

#[test]
fn reading_a_check_and_its_snapshot_through_the_trait_gives_the_same_answers() {
    for report in examples().iter().chain(&generated()) {
        let bytes = encoded(report);
        let shipped = Shipped::decode(&bytes).unwrap();
        assert_same_answers(report, &shipped);
        // Read and written again: the same bytes, so encode writes what
        // the trait reads, whichever kind of report it reads.
        assert_eq!(encoded(&shipped), bytes);
    }
}

#[test]
fn the_generated_workflows_hold_every_kind_of_finding() {
    // Otherwise the comparison above would leave some field untried.
    let reports = generated();
    let mut codes = Vec::new();
    let (mut suggested, mut unsuggested, mut cmp10, mut fixed, mut labelled, mut long) = (0, 0, 0, 0, 0, 0);
    let (mut through_box, mut not_through, mut shared) = (0, 0, 0);
    for report in &reports {
        codes.extend(report.warnings.iter().map(|w| w.code));
        for v in (0..report.violation_count()).filter_map(|i| ReadFindings::violation(report, i)) {
            match v {
                Finding::UnrecognisedEdgeType(e) if e.suggestion.is_some() && e.location.is_some() => suggested += 1,
                Finding::UnrecognisedEdgeType(_) => unsuggested += 1,
                Finding::UnacceptedTools(u) => cmp10 += usize::from(!u.edges.is_empty()),
                Finding::ToolNameCollision(c) => {
                    fixed += usize::from(!c.fix.is_empty());
                    labelled += usize::from(!c.box_labels.is_empty());
                    long += usize::from(c.tools.iter().any(|t| t.path_len > 64));
                }
            }
        }
        for g in (0..report.group_count() as GroupIx).filter_map(|g| ReadFindings::group(report, g)) {
            through_box += usize::from(g.through.is_some());
            not_through += usize::from(g.through.is_none());
            shared += usize::from(g.count > 1);
        }
    }
    for code in Warning::CODES {
        assert!(codes.contains(&code), "no {code} warning");
    }
    for (kind, count) in [
        ("EDGE-5 with a suggestion", suggested),
        ("EDGE-5 without", unsuggested),
        ("CMP-10", cmp10),
        ("CMP-9 with a fix", fixed),
        ("CMP-9 with box labels", labelled),
        ("CMP-9 with a path past 64 ids", long),
        ("group through a box", through_box),
        ("group not through a box", not_through),
        ("group of many consumers", shared),
    ] {
        assert!(count > 0, "no {kind}");
    }
}

#[test]
fn the_warning_codes_a_check_makes_are_known_to_the_decoder() {
    use crate::names::NameLoss;
    let lossy = Warning::lossy_name("t", "Café", "caf", NameLoss::NonAscii).unwrap();
    let unnamed = Warning::lossy_name("t", "??", "unnamed_tool", NameLoss::Everything).unwrap();
    let repeated = Warning::duplicate_key(crate::input::Within::Workflow, None, "nodes");
    for warning in [repeated, Warning::undeclared("t", 0), lossy, unnamed] {
        assert!(Warning::CODES.contains(&warning.code), "{}", warning.code);
    }
}

#[test]
fn the_budget_counts_violations_tools_and_path_ids() {
    // One violation; tools with paths of 72 and 2 ids: 1 + 73 + 3.
    let report = check(&chain(70));
    let copy = shipped(&report);
    for findings in [&report as &dyn ReadFindings, &copy] {
        assert!(encode(findings, 77).is_ok());
        assert_eq!(encode(findings, 76), Err(TooLarge { violation_count: 1 }));
    }
    // 60 violations, each with two tools of 3-id paths (the 20 beside
    // the box: 2 ids): 40 * 9 + 20 * 7.
    let report = check(&fanout(40));
    assert!(encode(&report, 500).is_ok());
    assert_eq!(encode(&report, 499), Err(TooLarge { violation_count: 60 }));
    // Fewer ids than violations: refused before any is read.
    assert_eq!(encode(&report, 59), Err(TooLarge { violation_count: 60 }));
    // CMP-10: one id per violation and one per edge it lists (here 1),
    // beside a CMP-9 violation of two tools with 2-id paths.
    let report = cmp10_example();
    assert!(encode(&report, 2 + 7).is_ok());
    assert_eq!(encode(&report, 2 + 6), Err(TooLarge { violation_count: 2 }));
}

#[test]
fn foreign_and_newer_bytes_are_refused_by_name() {
    let bytes = encoded(&examples()[0]);
    let error = |bytes: &[u8]| Shipped::decode(bytes).err().unwrap();
    assert_eq!(error(b"").what, "no snapshot magic");
    assert_eq!(error(b"{\"nodes\": []}").what, "no snapshot magic");
    for version in [0, 2, VERSION + 1] {
        let mut other = bytes.clone();
        other[MAGIC.len()] = version;
        let refused = error(&other);
        assert_eq!(refused.what, "a format version this toolwire does not read");
        assert_eq!(
            refused.to_string(),
            "not a toolwire report snapshot: a format version this toolwire does not read at byte 4"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(error(&longer).what, "bytes after the end of the snapshot");
}

/// MAGIC, VERSION and an empty head: the start of a made-up snapshot.
fn made_up() -> Writer {
    let mut w = Writer(MAGIC.to_vec());
    w.0.push(VERSION);
    w.item(&Head {
        stats: Stats::default(),
        node_types_checked: false,
    });
    w
}

#[test]
fn a_count_past_the_end_is_refused_before_allocating() {
    // A warning count of 2^62: refused, not reserved.
    let mut w = made_up();
    w.item(&(1u64 << 62));
    let refused = Shipped::decode(&w.0).err().unwrap();
    let count_at = made_up().0.len();
    assert_eq!(
        (refused.what, refused.offset),
        ("a count larger than the bytes left", count_at)
    );
}

#[test]
fn items_that_do_not_read_are_refused_with_what_and_where() {
    // Offsets after the head: the first count at 0.
    let head = made_up().0.len();
    let refused = |w: Writer| {
        let e = Shipped::decode(&w.0).err().unwrap();
        (e.what, e.within, e.offset - head)
    };
    // A warning count of eleven bytes: over 64 bits.
    let mut w = made_up();
    w.0.extend([0xff; 10]);
    w.0.push(0x01);
    assert_eq!(refused(w), ("an integer too large for its field", Some("a count"), 0));
    // A warning whose code is not one.
    let mut w = made_up();
    w.item(&1u64);
    let mut warning = Warning::undeclared("t", 0);
    warning.code = "R9";
    w.item(&warning);
    assert_eq!(refused(w), ("an unknown warning code", Some("a warning"), 1));
    // A violation of a fourth kind, and one of a known kind cut short.
    for (bytes, what) in [
        ([3u8, 0], "an unknown kind of violation"),
        ([0, 0], "an item cut short by the end of the bytes"),
    ] {
        let mut w = made_up();
        w.item(&0u64);
        w.item(&1u64);
        w.0.extend(bytes);
        assert_eq!(refused(w), (what, Some("a violation"), 2));
    }
}

#[test]
fn a_cmp10_violation_in_a_report_that_did_not_check_cmp10_is_refused() {
    let report = cmp10_example();
    let mut bytes = encoded(&report);
    // The head ends with the flag, just before the warning count.
    let flag = MAGIC.len() + 1 + postcard::to_allocvec(&report.stats).unwrap().len();
    assert_eq!(bytes[flag], 1);
    bytes[flag] = 0;
    let refused = Shipped::decode(&bytes).err().unwrap();
    assert_eq!(refused.what, "a CMP-10 violation in a report that did not check CMP-10");
}

#[test]
fn groups_that_do_not_match_their_violations_are_refused() {
    // Four violations: groups 0, 1, 0, 2.
    assert_eq!(
        members_by_group(&[0, 1, 0, 2], 3),
        Ok((vec![0, 2, 1, 3], vec![0, 2, 3, 4]))
    );
    let refused = |groups: &[GroupIx], count| members_by_group(groups, count).unwrap_err();
    assert_eq!(refused(&[0, 3], 2), "a CMP-9 violation in a group that does not exist");
    assert_eq!(refused(&[1, 0], 2), "groups out of the order of their first violations");
    assert_eq!(refused(&[0, 0], 2), "a group without violations");
}

/// Reads every item, as the binding may: a snapshot that decoded answers
/// every index in range.
fn read_everything(shipped: &Shipped) {
    for i in 0..shipped.warning_count() {
        assert!(shipped.warning(i).is_some());
    }
    for i in 0..shipped.violation_count() {
        if let Finding::ToolNameCollision(c) = shipped.violation(i).unwrap() {
            for (t, tool) in c.tools.iter().enumerate() {
                assert_eq!(tool.path.ids(0, usize::MAX).len(), tool.path_len);
                assert_eq!(shipped.tool_path(i, t, 0, usize::MAX).unwrap().len(), tool.path_len);
            }
        }
    }
    for g in 0..shipped.group_count() as GroupIx {
        let group = shipped.group(g).unwrap();
        assert_eq!(
            shipped.group_consumers(g, 0, usize::MAX).unwrap().len() as u64,
            group.count
        );
    }
}

#[test]
fn every_truncation_and_every_changed_byte_decodes_or_fails_cleanly() {
    for report in [
        check(include_str!("../../tests/data/multi-violation.json")),
        check(&fanout(3)),
        cmp10_example(),
    ] {
        let bytes = encoded(&report);
        for end in 0..bytes.len() {
            assert!(
                Shipped::decode(&bytes[..end]).is_err(),
                "a snapshot cut at {end} decoded"
            );
        }
        let mut changed = bytes.clone();
        let mut decoded = 0;
        for at in 0..bytes.len() {
            for value in [0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff, bytes[at] ^ 0x20] {
                changed[at] = value;
                // Ok or Err, never a panic; what decoded reads whole.
                if let Ok(shipped) = Shipped::decode(&changed) {
                    read_everything(&shipped);
                    decoded += 1;
                }
            }
            changed[at] = bytes[at];
        }
        assert!(
            decoded > bytes.len(),
            "the sweep decoded only {decoded} changed snapshots"
        );
    }
}
