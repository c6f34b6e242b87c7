//! Node-type catalogues (SEMANTICS 11): which node types accept tools
//! (CMP-10), and which forward them (passthroughs, CMP-9). A stored
//! workflow names each node's type but not what the type can do; that is
//! read here from the two forms real sites have:
//!
//! - the editor's node list, the body of `GET /api/flowdrop/nodes`
//!   (`{"success": ..., "data": [NodeMetadata, ...]}`) or a bare array of
//!   `NodeMetadata`: a type accepts tools when one of its `inputs` has
//!   `dataType` `"tool"`;
//! - Drupal config, one `flowdrop_node_type.flowdrop_node_type.<id>.yml`
//!   per type: it accepts tools when `parameters.tool.connectable` is
//!   `true` (read in `catalogue_yaml.rs`, on the YAML event layer).
//!
//! Either way a type whose `executor_plugin` is the Tool Box
//! (`flowdrop_node_processor:toolbox`) is a passthrough, whatever its id.
//! A catalogue that cannot be read is an error naming the file, line and
//! column: it never leaves CMP-10 silently unchecked.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use crate::error::InputError;
use crate::input::Kind;
use crate::locate::{locate_all, Location};
use crate::parse::scan::Scanner;
use crate::quote::quote;

/// The executor plugin of the Tool Box: a type run by it forwards tools.
pub const TOOLBOX_EXECUTOR: &str = "flowdrop_node_processor:toolbox";

/// How an executor plugin names the workflow it runs (SEMANTICS 12): a
/// type whose plugin is this prefix and a workflow id runs that workflow.
pub const WORKFLOW_EXECUTOR: &str = "flowdrop_workflow_executor:flowdrop_workflow:";

/// What the catalogue says about one node type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeType {
    /// CMP-10: a node of this type may have tools wired to it.
    pub accepts_tools: bool,
    /// Run by the Tool Box: forwards every tool wired into it (CMP-9).
    pub passthrough: bool,
    /// The id of the workflow a node of this type runs (SEMANTICS 12).
    pub runs: Option<String>,
    /// The catalogue file that defines it, and where in it.
    pub file: String,
    pub location: Location,
}

/// Node types by id, from one or more catalogue files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Catalogue {
    // Ordered, so that everything derived from a catalogue (the passthrough
    // list, messages) is the same from run to run.
    types: BTreeMap<String, NodeType>,
}

/// A catalogue file that cannot be used: its name, what is wrong, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueError {
    pub file: String,
    pub message: String,
    pub location: Option<Location>,
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.location {
            Some(at) => write!(f, "{}:{}:{}: {}", self.file, at.line, at.column, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for CatalogueError {}

impl CatalogueError {
    pub fn new(file: &str, message: impl Into<String>, location: Option<Location>) -> CatalogueError {
        CatalogueError {
            file: file.to_owned(),
            message: message.into(),
            location,
        }
    }
}

/// Which form a catalogue file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// The editor's node list (JSON).
    EditorJson,
    /// One Drupal `flowdrop_node_type` config entity (YAML).
    DrupalYaml,
}

impl Form {
    /// YAML when the name ends `.yml` or `.yaml`, JSON otherwise (as for
    /// workflows, SEMANTICS 10).
    pub fn of_path(path: &Path) -> Form {
        match path.extension().and_then(|e| e.to_str()) {
            Some("yml" | "yaml") => Form::DrupalYaml,
            _ => Form::EditorJson,
        }
    }
}

impl Catalogue {
    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    pub fn get(&self, id: &str) -> Option<&NodeType> {
        self.types.get(id)
    }

    /// Every type, by id.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &NodeType)> {
        self.types.iter().map(|(id, t)| (id.as_str(), t))
    }

    /// The ids of the types run by the Tool Box, by id.
    pub fn passthrough_ids(&self) -> impl Iterator<Item = &str> {
        self.iter().filter(|(_, t)| t.passthrough).map(|(id, _)| id)
    }

    /// Reads every file, in order, into one catalogue. A type defined twice
    /// (in one file or in two) is an error naming both places: which one
    /// holds would depend on the order the files were given in.
    pub fn load(paths: &[impl AsRef<Path>]) -> Result<Catalogue, CatalogueError> {
        let mut catalogue = Catalogue::default();
        for path in paths {
            let path = path.as_ref();
            let name = path.to_string_lossy();
            let bytes = std::fs::read(path)
                .map_err(|e| CatalogueError::new(&name, format!("cannot read the file: {e}"), None))?;
            catalogue.add(&name, &bytes, Form::of_path(path))?;
        }
        Ok(catalogue)
    }

    /// Adds the types of one file's bytes, read as `form`.
    pub fn add(&mut self, file: &str, bytes: &[u8], form: Form) -> Result<(), CatalogueError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let at = Location::of(bytes, e.valid_up_to());
            CatalogueError::new(file, "the node-type catalogue is not UTF-8 text", Some(at))
        })?;
        let found = match form {
            Form::EditorJson => read_editor_json(text),
            Form::DrupalYaml => crate::catalogue_yaml::read_drupal_yaml(text),
        };
        let found = found.map_err(|e| CatalogueError::new(file, e.message.clone(), e.location(bytes)))?;
        // Every type keeps where it is defined (a later definition's error
        // names it), so all are located, in one sweep of the text: one at a
        // time from the start, n types in a file of n lines would cost n x n.
        let offsets: Vec<usize> = found.iter().map(|entry| entry.offset).collect();
        for (entry, location) in found.into_iter().zip(locate_all(bytes, &offsets)) {
            self.insert(file, entry, location)?;
        }
        Ok(())
    }

    fn insert(&mut self, file: &str, entry: Entry, location: Location) -> Result<(), CatalogueError> {
        if let Some(first) = self.types.get(&entry.id) {
            let message = format!(
                "node type {} is defined twice: first at {}:{}:{}",
                quote(&entry.id),
                first.file,
                first.location.line,
                first.location.column
            );
            return Err(CatalogueError::new(file, message, Some(location)));
        }
        let passthrough = entry.executor_plugin.as_deref() == Some(TOOLBOX_EXECUTOR);
        let runs = entry
            .executor_plugin
            .as_deref()
            .and_then(|plugin| plugin.strip_prefix(WORKFLOW_EXECUTOR))
            .filter(|workflow| !workflow.is_empty())
            .map(str::to_owned);
        let node_type = NodeType {
            accepts_tools: entry.accepts_tools,
            passthrough,
            runs,
            file: file.to_owned(),
            location,
        };
        self.types.insert(entry.id, node_type);
        Ok(())
    }
}

/// One type as a reader found it, `offset` bytes into its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub id: String,
    pub accepts_tools: bool,
    pub executor_plugin: Option<String>,
    pub offset: usize,
}

/// The editor's node list: `{"data": [NodeMetadata, ...], ...}` or a bare
/// array of them. Only `id`, `inputs[].dataType` and `executor_plugin` are
/// read; a wrong shape in any of them is an error where it is.
fn read_editor_json(text: &str) -> Result<Vec<Entry>, InputError> {
    let mut s = Scanner::new(text);
    let mut entries = Vec::new();
    let top = s.pos();
    match s.peek_kind()? {
        Kind::Array => read_node_list(&mut s, &mut entries)?,
        Kind::Object => {
            let mut seen_data = false;
            s.object(|s, key| {
                if key == "data" {
                    let at = s.pos();
                    let kind = s.peek_kind()?;
                    if kind != Kind::Array {
                        return Err(InputError::new(
                            format!("`data` must be an array of node types, got {}", kind.article_name()),
                            Some(at),
                        ));
                    }
                    seen_data = true;
                    entries.clear(); // A repeated key: the last one is read.
                    read_node_list(s, &mut entries)
                } else {
                    s.skip_value()
                }
            })?;
            if !seen_data {
                return Err(InputError::new(
                    "the node list has no `data` array (expected the body of GET /api/flowdrop/nodes, or an array of node types)",
                    Some(top),
                ));
            }
        }
        kind => {
            return Err(InputError::new(
                format!(
                    "a node-type catalogue in JSON must be an object with a `data` array or an array, got {}",
                    kind.article_name()
                ),
                Some(top),
            ))
        }
    }
    s.finish()?;
    Ok(entries)
}

fn read_node_list(s: &mut Scanner<'_>, entries: &mut Vec<Entry>) -> Result<(), InputError> {
    s.array(|s, index| {
        let at = s.pos();
        let kind = s.peek_kind()?;
        if kind != Kind::Object {
            return Err(InputError::new(
                format!("node type {index}: must be an object, got {}", kind.article_name()),
                Some(at),
            ));
        }
        let mut id = None;
        let mut id_kind = None;
        let mut accepts_tools = false;
        let mut executor_plugin = None;
        s.object(|s, key| match key.as_ref() {
            "id" => {
                let value_at = s.pos();
                match s.field()? {
                    crate::input::Field::Str(v) if !v.is_empty() => id = Some(v.into_owned()),
                    other => id_kind = Some((other.describe(), value_at)),
                }
                Ok(())
            }
            "executor_plugin" => {
                executor_plugin = s.field()?.into_string().map(|p| p.into_owned());
                Ok(())
            }
            "inputs" => {
                let inputs_at = s.pos();
                match s.peek_kind()? {
                    Kind::Array => {}
                    Kind::Null => return s.skip_value(),
                    // PHP writes an empty array as `{}` (as for `nodes`, EDGE-2).
                    Kind::Object if s.empty_object() => {
                        accepts_tools = false;
                        return Ok(());
                    }
                    other => {
                        return Err(InputError::new(
                            format!(
                                "node type {index}: `inputs` must be an array, got {}",
                                other.article_name()
                            ),
                            Some(inputs_at),
                        ))
                    }
                }
                accepts_tools = false;
                s.array(|s, port| {
                    let port_at = s.pos();
                    let kind = s.peek_kind()?;
                    if kind != Kind::Object {
                        return Err(InputError::new(
                            format!(
                                "node type {index}: input {port} must be an object, got {}",
                                kind.article_name()
                            ),
                            Some(port_at),
                        ));
                    }
                    s.object(|s, key| {
                        if key == "dataType" {
                            if s.field()?.as_str() == Some("tool") {
                                accepts_tools = true;
                            }
                            Ok(())
                        } else {
                            s.skip_value()
                        }
                    })
                })
            }
            _ => s.skip_value(),
        })?;
        match id {
            Some(id) => entries.push(Entry {
                id,
                accepts_tools,
                executor_plugin,
                offset: at,
            }),
            None => {
                let (got, place) = id_kind.unwrap_or(("missing", at));
                return Err(InputError::new(
                    format!("node type {index}: `id` must be a non-empty string, got {got}"),
                    Some(place),
                ));
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn editor(text: &str) -> Result<Catalogue, CatalogueError> {
        let mut c = Catalogue::default();
        c.add("nodes.json", text.as_bytes(), Form::EditorJson)?;
        Ok(c)
    }

    #[test]
    fn cmp10_editor_list_types_accept_tools_by_a_tool_input() {
        let text = r#"{"success": true, "data": [
            {"id": "agent", "inputs": [{"id": "p", "dataType": "string"}, {"id": "tools", "dataType": "tool"}]},
            {"id": "http", "inputs": [{"id": "url", "dataType": "string"}], "outputs": [{"dataType": "tool"}]},
            {"id": "kit", "executor_plugin": "flowdrop_node_processor:toolbox", "inputs": [{"dataType": "tool"}]},
            {"id": "bare"}
        ]}"#;
        let c = editor(text).unwrap();
        let view: Vec<(&str, bool, bool)> = c.iter().map(|(id, t)| (id, t.accepts_tools, t.passthrough)).collect();
        assert_eq!(
            view,
            [
                ("agent", true, false),
                ("bare", false, false),
                ("http", false, false),
                ("kit", true, true)
            ]
        );
        assert_eq!(c.get("http").unwrap().location, Location { line: 3, column: 13 });
        assert_eq!(c.passthrough_ids().collect::<Vec<_>>(), ["kit"]);
        let bare = editor(r#"[{"id": "a", "inputs": [{"dataType": "tool"}]}, {"id": "b", "inputs": {}}]"#).unwrap();
        assert!(bare.get("a").unwrap().accepts_tools);
        assert!(
            !bare.get("b").unwrap().accepts_tools,
            "PHP's empty array, as JSON writes it, is no input"
        );
    }

    #[test]
    fn malformed_editor_lists_are_errors_naming_file_line_and_column() {
        for (text, message, line, column) in [
            ("{\"data\": [", "invalid JSON", 1, 11),
            ("{\"success\": true}", "no `data` array", 1, 1),
            (
                "{\"data\": {}}",
                "`data` must be an array of node types, got an object",
                1,
                10,
            ),
            ("[1]", "node type 0: must be an object, got a number", 1, 2),
            (
                "[{\"id\": \"a\"},\n {\"inputs\": []}]",
                "node type 1: `id` must be a non-empty string, got missing",
                2,
                2,
            ),
            (
                "[{\"id\": 3}]",
                "node type 0: `id` must be a non-empty string, got a number",
                1,
                9,
            ),
            (
                "[{\"id\": \"a\", \"inputs\": 1}]",
                "node type 0: `inputs` must be an array, got a number",
                1,
                24,
            ),
            (
                "[{\"id\": \"a\", \"inputs\": [2]}]",
                "node type 0: input 0 must be an object",
                1,
                25,
            ),
            (
                "[{\"id\": \"a\"},\n {\"id\": \"a\"}]",
                "node type \"a\" is defined twice: first at nodes.json:1:2",
                2,
                2,
            ),
            (
                "\"x\"",
                "must be an object with a `data` array or an array, got a string",
                1,
                1,
            ),
        ] {
            let e = editor(text).unwrap_err();
            assert_eq!(e.file, "nodes.json");
            assert!(e.message.contains(message), "{text}: {e}");
            assert_eq!(e.location, Some(Location { line, column }), "{text}: {e}");
        }
    }

    #[test]
    fn every_type_is_located_where_it_is_defined_in_one_pass() {
        // Lines of one type and of several, characters of several bytes
        // before a type on its line, a CRLF, and a type defined twice at
        // the end: each where `Location::of` finds it, and the text read
        // about once, not once per type.
        let count = 3_000;
        let mut text = String::from("{\"data\": [");
        let mut offsets = Vec::new();
        for i in 0..count {
            text.push_str(if i % 3 == 0 {
                "\n"
            } else if i % 7 == 0 {
                "\r\n "
            } else {
                " "
            });
            offsets.push((format!("type_{i}"), text.len()));
            text.push_str(&format!(
                "{{\"id\": \"type_{i}\", \"description\": \"{}\"}},",
                "é".repeat(i % 5)
            ));
        }
        text.push_str("\n {\"id\": \"type_7\"}]}");
        let bytes = text.as_bytes();
        let read_before = crate::locate::bytes_read();
        let e = editor(&text).unwrap_err();
        let read = crate::locate::bytes_read() - read_before;
        assert!(
            read <= 3 * bytes.len(),
            "{read} bytes read to locate a text of {}",
            bytes.len()
        );
        let seventh = Location::of(bytes, offsets[7].1);
        assert!(
            e.message
                .ends_with(&format!("first at nodes.json:{}:{}", seventh.line, seventh.column)),
            "{e}"
        );
        assert_eq!(
            e.location,
            Some(Location::of(bytes, text.rfind("{\"id\": \"type_7").unwrap()))
        );
        // Without the repeat, every type is where it is.
        let text = format!("{}]}}", text[..text.rfind(",\n").unwrap()].to_owned());
        let c = editor(&text).unwrap();
        assert_eq!(c.len(), count);
        for (id, offset) in &offsets {
            assert_eq!(
                c.get(id).unwrap().location,
                Location::of(text.as_bytes(), *offset),
                "{id}"
            );
        }
    }

    #[test]
    fn a_type_defined_in_two_files_is_an_error_naming_both() {
        let mut c = Catalogue::default();
        c.add("a.json", br#"[{"id": "agent"}]"#, Form::EditorJson).unwrap();
        let e = c
            .add("b.json", br#"[{"id": "x"}, {"id": "agent"}]"#, Form::EditorJson)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "b.json:1:15: node type \"agent\" is defined twice: first at a.json:1:2"
        );
    }
}
