//! What a check finds. Findings are data: a refused workflow is a report with
//! violations, never an error.

use crate::collisions::{Collision, Collisions};
use crate::input::Within;
use crate::locate::Location;
use crate::names::{normalize_name, NameLoss, UNNAMED_TOOL};
use crate::quote::{edge_name, node_name, quote};

use serde::{Deserialize, Serialize};

/// One step of a suggested fix: give `node` the label `new_label`, whose
/// tool name is `new_name`, instead of `label`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rename {
    pub node: String,
    pub label: String,
    pub new_label: String,
    pub new_name: String,
}

/// EDGE-5: a `data.edgeType` nobody recognises.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeTypeViolation {
    pub edge: usize,
    pub edge_id: Option<String>,
    pub edge_type: String,
    pub message: String,
    pub location: Option<Location>,
    /// The closest recognised edge type, when one is close.
    pub suggestion: Option<String>,
}

impl EdgeTypeViolation {
    /// `recognised`: the recognised edge types, listed as the message
    /// lists them (`data, error, ...`).
    pub(crate) fn new(
        edge: usize,
        edge_id: Option<&str>,
        edge_type: &str,
        recognised: &str,
        suggestion: Option<&str>,
    ) -> EdgeTypeViolation {
        let message = format!(
            "{} declares data.edgeType {}, which is not a recognised edge type (recognised: {recognised})",
            edge_name(edge, edge_id),
            quote(edge_type),
        );
        EdgeTypeViolation {
            edge,
            edge_id: edge_id.map(str::to_owned),
            edge_type: edge_type.to_owned(),
            message,
            location: None,
            suggestion: suggestion.map(str::to_owned),
        }
    }
}

/// A tool edge into a node, as a CMP-10 violation lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WiredEdge {
    /// Its index in `edges`.
    pub edge: usize,
    pub edge_id: Option<String>,
    /// The node it brings a tool from.
    pub source: String,
}

/// CMP-10: tools are wired to a node whose type, by the catalogue, does not
/// accept tools. One per receiving node, listing every tool edge into it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnacceptedToolsViolation {
    /// The receiving node's id.
    pub node: String,
    pub node_type: String,
    /// Every tool edge into the node, in edge order.
    pub edges: Vec<WiredEdge>,
    /// Where the catalogue defines the type: `file:line:column`.
    pub defined_at: String,
    pub message: String,
    /// The receiving node.
    pub location: Option<Location>,
}

/// Edges a CMP-10 message names before it says how many more there are:
/// the violation lists every edge, the message only needs to be readable.
pub const EDGES_NAMED_IN_MESSAGES: usize = 5;

impl UnacceptedToolsViolation {
    pub(crate) fn new(node: &str, node_type: &str, edges: Vec<WiredEdge>, defined_at: String) -> Self {
        let message = Self::message_of(node, node_type, &edges, &defined_at);
        UnacceptedToolsViolation {
            node: node.to_owned(),
            node_type: node_type.to_owned(),
            edges,
            defined_at,
            message,
            location: None,
        }
    }

    /// The message, from the fields (a snapshot rebuilds nothing; this is
    /// for the check). Names at most `EDGES_NAMED_IN_MESSAGES` edges, so a
    /// node with a million tool edges has a message of constant size.
    pub(crate) fn message_of(node: &str, node_type: &str, edges: &[WiredEdge], defined_at: &str) -> String {
        let mut named: Vec<String> = (edges.iter().take(EDGES_NAMED_IN_MESSAGES))
            .map(|e| format!("{} from {}", edge_name(e.edge, e.edge_id.as_deref()), quote(&e.source)))
            .collect();
        if edges.len() > EDGES_NAMED_IN_MESSAGES {
            named.push(format!("and {} more", edges.len() - EDGES_NAMED_IN_MESSAGES));
        }
        let count = match edges.len() {
            1 => "1 tool edge".to_owned(),
            n => format!("{n} tool edges"),
        };
        format!(
            "node {} has {count} wired to it ({}), but its type {} does not accept tools (node-type catalogue, {defined_at}): wire the tools to a node whose type accepts tools, or remove these edges",
            quote(node),
            named.join(", "),
            quote(node_type),
        )
    }
}

/// One reason a workflow is refused, read from a [`Report`].
#[derive(Clone, Copy)]
pub enum Violation<'r> {
    /// CMP-9: two or more distinct tools reaching a consumer share a name.
    ToolNameCollision(Collision<'r>),
    /// EDGE-5: a `data.edgeType` nobody recognises.
    UnrecognisedEdgeType(&'r EdgeTypeViolation),
    /// CMP-10: tools wired to a node whose type does not accept them.
    UnacceptedTools(&'r UnacceptedToolsViolation),
}

impl Violation<'_> {
    pub fn rule(&self) -> &'static str {
        match self {
            Violation::ToolNameCollision(_) => "CMP-9",
            Violation::UnrecognisedEdgeType(_) => "EDGE-5",
            Violation::UnacceptedTools(_) => "CMP-10",
        }
    }

    /// Built on access for CMP-9.
    pub fn message(&self) -> String {
        match self {
            Violation::ToolNameCollision(c) => c.message(),
            Violation::UnrecognisedEdgeType(e) => e.message.clone(),
            Violation::UnacceptedTools(u) => u.message.clone(),
        }
    }

    pub fn location(&self) -> Option<Location> {
        match self {
            Violation::ToolNameCollision(c) => c.location(),
            Violation::UnrecognisedEdgeType(e) => e.location,
            Violation::UnacceptedTools(u) => u.location,
        }
    }
}

/// Something worth knowing that never refuses a workflow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Warning {
    /// `DUPLICATE-KEY`: a key toolwire reads appears twice in one object.
    /// `R8`: a tool edge names a node that is not declared. `NAME-LOSSY`: a
    /// tool's label drops letters on the way to its name. `NAME-UNNAMED`:
    /// nothing of it is left but `unnamed_tool`. `CMP-10-UNKNOWN`: nodes
    /// that receive tool edges have a type the catalogue does not know (or
    /// none), so CMP-10 could not be checked at them.
    #[serde(deserialize_with = "known_code")]
    pub code: Code,
    /// The node's id; empty for a DUPLICATE-KEY outside a node, or in a
    /// node without a string id.
    pub node: String,
    /// The tool edge, for R8; the edge, for a DUPLICATE-KEY in one.
    pub edge: Option<usize>,
    pub message: String,
    /// The edge (R8), the repeated key (DUPLICATE-KEY) or the node.
    pub location: Option<Location>,
}

/// A warning's code, one of [`Warning::CODES`]. Named so that serde's
/// derive does not take the field for a string borrowed from its input:
/// it is read back as the code it spells, by `known_code`.
pub type Code = &'static str;

/// A warning's code read back (from a snapshot) as the one of
/// [`Warning::CODES`] it spells; any other is refused.
fn known_code<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<&'static str, D::Error> {
    let code = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
    (Warning::CODES.into_iter())
        .find(|known| *known == code)
        .ok_or_else(|| serde::de::Error::custom("an unknown warning code"))
}

impl Warning {
    /// Every code a warning can have: a report snapshot (`snapshot`) names
    /// a warning's code by it when it is read back.
    pub const CODES: [&'static str; 5] = ["DUPLICATE-KEY", "R8", "NAME-LOSSY", "NAME-UNNAMED", "CMP-10-UNKNOWN"];

    /// `key` (a path such as `data.label`) appears again in the object
    /// `within`, whose id (the last one) is `id`.
    pub(crate) fn duplicate_key(within: Within, id: Option<&str>, key: &str) -> Warning {
        let (what, node, edge) = match within {
            Within::Workflow => ("the workflow".to_owned(), "", None),
            Within::Node(index) => (node_name(index, id), id.unwrap_or(""), None),
            Within::Edge(index) => (edge_name(index, id), "", Some(index)),
        };
        Warning {
            code: "DUPLICATE-KEY",
            node: node.to_owned(),
            edge,
            message: format!(
                "{what} repeats the key {}: the last value is the one read (as JavaScript and PHP read it), and the one before is ignored",
                quote(key)
            ),
            location: None,
        }
    }

    pub(crate) fn undeclared(node: &str, edge: usize) -> Warning {
        Warning {
            code: "R8",
            node: node.to_owned(),
            edge: Some(edge),
            message: format!(
                "node {} is wired by tool edge {edge} but never declared in `nodes`; it is checked as a node with no type, and its id is its label",
                quote(node)
            ),
            location: None,
        }
    }

    /// CMP-10-UNKNOWN: `count` nodes receive tool edges and have the type
    /// `node_type` (None: no type, or not declared), which the catalogue
    /// does not know; `first` is the first of them by id and `shown` the
    /// ids named in the message, quoted and joined.
    pub(crate) fn unknown_type(node_type: Option<&str>, count: u64, first: &str, shown: &str) -> Warning {
        let nodes = match count {
            1 => "1 node".to_owned(),
            n => format!("{n} nodes"),
        };
        let (what, which) = match node_type {
            Some(t) => (
                format!("node type {} is not in the node-type catalogue", quote(t)),
                "of that type",
            ),
            None => (
                "a node with no type (or never declared) has none in the catalogue".to_owned(),
                "with no type",
            ),
        };
        Warning {
            code: "CMP-10-UNKNOWN",
            node: first.to_owned(),
            edge: None,
            message: format!(
                "{what}, so CMP-10 was not checked at the {nodes} {which} receiving tool edges ({shown}): add the type to the catalogue to check them"
            ),
            location: None,
        }
    }

    /// A tool whose label loses more than case and punctuation; None when
    /// it loses nothing.
    pub(crate) fn lossy_name(node: &str, label: &str, name: &str, loss: NameLoss) -> Option<Warning> {
        let (code, why) = match loss {
            NameLoss::None => return None,
            NameLoss::NonAscii => ("NAME-LOSSY", "non-ASCII characters are dropped from tool names"),
            NameLoss::Everything => (
                "NAME-UNNAMED",
                "it has no ASCII letter or digit, and every such tool is called the same",
            ),
        };
        debug_assert!(loss != NameLoss::Everything || name == UNNAMED_TOOL);
        Some(Warning {
            code,
            node: node.to_owned(),
            edge: None,
            message: format!(
                "tool {} is labelled {}, which becomes the name {}: {why}",
                quote(node),
                quote(label),
                quote(name)
            ),
            location: None,
        })
    }
}

/// A report's warnings, kept as what each is about and worded when read:
/// a workflow can warn about every one of its tools, and few readers look
/// at more than the count and the first few. The ids and labels they name
/// are copied into one string, so the store costs a copy of those bytes
/// and no allocation per warning.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Warnings {
    about: Vec<Warned>,
    /// The id, then (for a lossy name) the label, of each warning in turn.
    text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// DUPLICATE-KEY: the key's path, where it is, and whether the object
    /// has a string id (kept as the warning's text, which may be empty).
    Repeated(&'static str, Within, bool),
    /// R8, with the tool edge that names the node.
    Undeclared(usize),
    Lossy(NameLoss),
    /// CMP-10-UNKNOWN: how many nodes, whether there is a type (the text's
    /// id), and the length of the first node's id, which the text holds
    /// after the type and before the shown ids.
    UnknownType(u64, bool, usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Warned {
    why: Why,
    /// Where its id starts in `text`; its label (if any) follows the id.
    start: usize,
    id_len: usize,
    label_len: usize,
    location: Option<Location>,
}

impl Warnings {
    pub fn len(&self) -> usize {
        self.about.len()
    }

    pub fn is_empty(&self) -> bool {
        self.about.is_empty()
    }

    /// Warning `index`, worded.
    pub fn get(&self, index: usize) -> Option<Warning> {
        let warned = self.about.get(index)?;
        let id_end = warned.start + warned.id_len;
        let id = &self.text[warned.start..id_end];
        let mut warning = match warned.why {
            Why::Repeated(key, within, has_id) => Warning::duplicate_key(within, has_id.then_some(id), key),
            Why::Undeclared(edge) => Warning::undeclared(id, edge),
            Why::Lossy(loss) => {
                let label = &self.text[id_end..id_end + warned.label_len];
                Warning::lossy_name(id, label, &normalize_name(label), loss)?
            }
            Why::UnknownType(count, typed, first_len) => {
                let rest = &self.text[id_end..id_end + warned.label_len];
                let (first, shown) = rest.split_at(first_len);
                Warning::unknown_type(typed.then_some(id), count, first, shown)
            }
        };
        warning.location = warned.location;
        Some(warning)
    }

    pub fn iter(&self) -> impl Iterator<Item = Warning> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// DUPLICATE-KEY: `key` appears again in the object `within`, whose id
    /// is `id`.
    pub(crate) fn push_duplicate_key(&mut self, within: Within, id: Option<&str>, key: &'static str) {
        self.push(Why::Repeated(key, within, id.is_some()), id.unwrap_or(""), "");
    }

    /// R8: `node` is wired by tool edge `edge` but never declared.
    pub(crate) fn push_undeclared(&mut self, node: &str, edge: usize) {
        self.push(Why::Undeclared(edge), node, "");
    }

    /// A tool whose `label` loses `loss` on the way to its name; nothing
    /// when it loses nothing.
    pub(crate) fn push_lossy(&mut self, node: &str, label: &str, loss: NameLoss) {
        if loss != NameLoss::None {
            self.push(Why::Lossy(loss), node, label);
        }
    }

    /// CMP-10-UNKNOWN (see `Warning::unknown_type`).
    pub(crate) fn push_unknown_type(&mut self, node_type: Option<&str>, count: u64, first: &str, shown: &str) {
        let rest = format!("{first}{shown}");
        let why = Why::UnknownType(count, node_type.is_some(), first.len());
        self.push(why, node_type.unwrap_or(""), &rest);
    }

    fn push(&mut self, why: Why, id: &str, label: &str) {
        let start = self.text.len();
        self.text.push_str(id);
        self.text.push_str(label);
        self.about.push(Warned {
            why,
            start,
            id_len: id.len(),
            label_len: label.len(),
            location: None,
        });
    }

    /// Where each warning is, in order.
    pub(crate) fn locate(&mut self, locations: &[Option<Location>]) {
        for (warned, at) in self.about.iter_mut().zip(locations) {
            warned.location = *at;
        }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Declared nodes.
    pub nodes: usize,
    /// All edges, tool wiring or not.
    pub edges: usize,
    pub tool_edges: usize,
    pub consumers: usize,
    /// Declared nodes whose type is a passthrough type.
    pub passthroughs: usize,
}

/// What a check finds. CMP-9 violations are stored by cause and read on
/// demand; see [`Collisions`].
pub struct Report {
    /// EDGE-5 violations, in edge order.
    pub edge_violations: Vec<EdgeTypeViolation>,
    /// CMP-9 violations, by consumer id and name.
    pub collisions: Collisions<'static>,
    /// CMP-10 violations, by node id.
    pub unaccepted_tools: Vec<UnacceptedToolsViolation>,
    /// Whether CMP-10 was checked: only against a catalogue (SEMANTICS 11).
    pub node_types_checked: bool,
    pub warnings: Warnings,
    pub stats: Stats,
}

impl Report {
    /// Accepted: no violation of any rule.
    pub fn ok(&self) -> bool {
        self.edge_violations.is_empty() && self.collisions.is_empty() && self.unaccepted_tools.is_empty()
    }

    /// Every violation: EDGE-5 ones first, then CMP-10 ones, then CMP-9
    /// ones (SEMANTICS 6). The violations that stand alone come before
    /// those that form clash groups, so readers find the groups' start by
    /// one bisection on the rule.
    pub fn violation_count(&self) -> u64 {
        self.edge_violations.len() as u64 + self.collisions.len() + self.unaccepted_tools.len() as u64
    }

    /// Violation `index` in the order of `violation_count`.
    pub fn violation(&self, index: u64) -> Option<Violation<'_>> {
        let edges = self.edge_violations.len() as u64;
        let alone = self.violations_before_cmp9();
        if index < edges {
            Some(Violation::UnrecognisedEdgeType(&self.edge_violations[index as usize]))
        } else if index < alone {
            Some(Violation::UnacceptedTools(
                &self.unaccepted_tools[(index - edges) as usize],
            ))
        } else {
            self.collisions.get(index - alone).map(Violation::ToolNameCollision)
        }
    }

    /// How many violations come before the first CMP-9 one (EDGE-5, CMP-10).
    pub fn violations_before_cmp9(&self) -> u64 {
        (self.edge_violations.len() + self.unaccepted_tools.len()) as u64
    }

    pub fn violations(&self) -> impl Iterator<Item = Violation<'_>> + '_ {
        (0..self.violation_count()).filter_map(move |i| self.violation(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_worded_when_read_as_they_would_have_been_when_found() {
        let mut warnings = Warnings::default();
        warnings.push_duplicate_key(Within::Edge(2), Some("e"), "data.edgeType");
        warnings.push_duplicate_key(Within::Node(0), None, "id");
        warnings.push_undeclared("agent", 7);
        warnings.push_lossy("t1", "Café", NameLoss::NonAscii);
        warnings.push_lossy("t2", "plain", NameLoss::None);
        warnings.push_lossy("t3", "??", NameLoss::Everything);
        let at = Location { line: 3, column: 9 };
        warnings.locate(&[None, None, None, Some(at), None]);
        let mut expected = vec![
            Warning::duplicate_key(Within::Edge(2), Some("e"), "data.edgeType"),
            Warning::duplicate_key(Within::Node(0), None, "id"),
            Warning::undeclared("agent", 7),
            Warning::lossy_name("t1", "Café", "caf", NameLoss::NonAscii).unwrap(),
            Warning::lossy_name("t3", "??", UNNAMED_TOOL, NameLoss::Everything).unwrap(),
        ];
        expected[3].location = Some(at);
        assert_eq!(warnings.len(), 5, "a label that loses nothing is no warning");
        assert_eq!(warnings.iter().collect::<Vec<_>>(), expected);
        assert_eq!(warnings.get(5), None);
    }

    #[test]
    fn a_duplicate_key_names_its_object_and_key() {
        let in_node = Warning::duplicate_key(Within::Node(3), Some("b"), "data.label");
        assert_eq!((in_node.node.as_str(), in_node.edge), ("b", None));
        assert_eq!(
            in_node.message,
            "node 3 (id \"b\") repeats the key \"data.label\": the last value is the one read (as JavaScript and PHP read it), and the one before is ignored"
        );
        let in_edge = Warning::duplicate_key(Within::Edge(1), None, "source");
        assert_eq!((in_edge.node.as_str(), in_edge.edge), ("", Some(1)));
        assert!(in_edge.message.starts_with("edge 1 repeats the key \"source\""));
        let top = Warning::duplicate_key(Within::Workflow, None, "nodes");
        assert!(top.message.starts_with("the workflow repeats the key \"nodes\""));
    }
}
