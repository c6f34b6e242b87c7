//! Drupal `flowdrop_node_type` config entities (YAML) as catalogue entries
//! (SEMANTICS 11): `id`, `parameters.tool.connectable` (the type accepts
//! tools when it is `true`) and `executor_plugin`. Read on the strict YAML
//! event layer, so invalid YAML, repeated keys, a second document or an
//! alias bomb are errors with their place, as they are for workflows;
//! every other key is skipped unread.

use crate::catalogue::Entry;
use crate::error::InputError;
use crate::input::Kind;
use crate::parse::yaml::events::{Event, Events, Item};

/// A kind in YAML's words.
fn yaml_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Object => "a mapping",
        Kind::Array => "a sequence",
        Kind::String => "a string",
        Kind::Foreign => "the end of a mapping or sequence",
        other => other.article_name(),
    }
}

/// `item` when it is a string scalar; an error naming `what` and what was
/// there instead, where it is, otherwise.
fn string_or_error(item: Item<'_>, what: &str) -> Result<String, InputError> {
    let kind = item.kind();
    match item.event {
        Event::Scalar(s) if kind == Kind::String => Ok(s.value.into_owned()),
        _ => Err(InputError::new(
            format!("`{what}` must be a string, got {}", yaml_name(kind)),
            Some(item.at),
        )),
    }
}

/// Calls `member` with each key of the mapping whose start was just read,
/// positioned at its value, which `member` must consume.
fn members<'a>(
    events: &mut Events<'a>,
    mut member: impl FnMut(&mut Events<'a>, &str) -> Result<(), InputError>,
) -> Result<(), InputError> {
    loop {
        let item = events.next()?;
        match item.event {
            Event::MappingEnd => return Ok(()),
            Event::Scalar(key) => member(events, &key.value)?,
            _ => {
                return Err(InputError::new(
                    "a mapping or sequence used as a key (not supported)",
                    Some(item.at),
                ))
            }
        }
    }
}

/// Reads a mapping that may also be absent in effect: null (`~`) or an
/// empty mapping; anything else is an error naming `what`. True when a
/// mapping was opened (its members are to be read).
fn open_mapping(events: &mut Events<'_>, what: &str) -> Result<bool, InputError> {
    let item = events.next()?;
    match item.kind() {
        Kind::Object => Ok(true),
        Kind::Null => Ok(false),
        kind => Err(InputError::new(
            format!("`{what}` must be a mapping, got {}", yaml_name(kind)),
            Some(item.at),
        )),
    }
}

/// The one type a Drupal node-type config file defines, located at its
/// `id`.
pub(crate) fn read_drupal_yaml(text: &str) -> Result<Vec<Entry>, InputError> {
    let mut events = Events::new(text);
    let top = events.next()?;
    if top.event != Event::MappingStart {
        return Err(InputError::new(
            format!(
                "a Drupal node-type config file must be a YAML mapping, got {}",
                yaml_name(top.kind())
            ),
            Some(top.at),
        ));
    }
    let mut id: Option<(String, usize)> = None;
    let mut executor_plugin = None;
    let mut accepts_tools = false;
    members(&mut events, |events, key| {
        match key {
            "id" => {
                let item = events.next()?;
                let at = item.at;
                let value = string_or_error(item, "id")?;
                if value.is_empty() {
                    return Err(InputError::new(
                        "`id` must be a non-empty string, got an empty string",
                        Some(at),
                    ));
                }
                id = Some((value, at));
            }
            "executor_plugin" => {
                let item = events.next()?;
                executor_plugin = match item.kind() {
                    Kind::Null => None,
                    _ => Some(string_or_error(item, "executor_plugin")?),
                };
            }
            "parameters" => {
                if open_mapping(events, "parameters")? {
                    members(events, |events, parameter| {
                        if parameter != "tool" {
                            return events.skip_value();
                        }
                        if open_mapping(events, "parameters.tool")? {
                            members(events, |events, key| {
                                if key != "connectable" {
                                    return events.skip_value();
                                }
                                let item = events.next()?;
                                match &item.event {
                                    Event::Scalar(s) if item.kind() == Kind::Bool => {
                                        // The core schema's spellings of true.
                                        accepts_tools = matches!(&*s.value, "true" | "True" | "TRUE");
                                        Ok(())
                                    }
                                    _ => Err(InputError::new(
                                        format!(
                                            "`parameters.tool.connectable` must be true or false, got {}",
                                            yaml_name(item.kind())
                                        ),
                                        Some(item.at),
                                    )),
                                }
                            })?;
                        }
                        Ok(())
                    })?;
                }
            }
            _ => events.skip_value()?,
        }
        Ok(())
    })?;
    events.finish()?;
    let Some((id, offset)) = id else {
        return Err(InputError::new(
            "the node type has no `id` (a flowdrop_node_type config entity names its type there)",
            Some(top.at),
        ));
    };
    Ok(vec![Entry {
        id,
        accepts_tools,
        executor_plugin,
        offset,
    }])
}

#[cfg(test)]
mod tests {
    use crate::catalogue::{Catalogue, Form};
    use crate::locate::Location;

    fn read(text: &str) -> Result<Catalogue, crate::catalogue::CatalogueError> {
        let mut c = Catalogue::default();
        c.add("t.yml", text.as_bytes(), Form::DrupalYaml)?;
        Ok(c)
    }

    #[test]
    fn cmp10_drupal_types_accept_tools_when_parameters_tool_is_connectable() {
        let agent = "uuid: x\nid: agent\nparameters:\n  prompt:\n    connectable: true\n  tool:\n    configurable: false\n    connectable: true\nexecutor_plugin: 'flowdrop_agents:agent'\n";
        let c = read(agent).unwrap();
        let t = c.get("agent").unwrap();
        assert!(t.accepts_tools && !t.passthrough);
        assert_eq!(t.location, Location { line: 2, column: 5 });
        for text in [
            "id: http\nparameters:\n  url:\n    connectable: true\n",
            "id: http\nparameters:\n  tool:\n    connectable: false\n",
            "id: http\nparameters: {  }\n",
            "id: http\nparameters: ~\n",
            "id: http\n",
            "id: http\nparameters:\n  tool:\n    connectable: 'true'\n",
        ] {
            let outcome = read(text);
            match outcome {
                Ok(c) => assert!(!c.get("http").unwrap().accepts_tools, "{text}"),
                // A quoted 'true' is a string, not the boolean.
                Err(e) => assert!(e.message.contains("must be true or false, got a string"), "{text}: {e}"),
            }
        }
        let kit = read("id: my_kit\nexecutor_plugin: 'flowdrop_node_processor:toolbox'\nparameters:\n  tool:\n    connectable: true\n").unwrap();
        assert!(
            kit.get("my_kit").unwrap().passthrough,
            "the Tool Box's executor, whatever the id"
        );
    }

    #[test]
    fn malformed_drupal_types_are_errors_with_their_place() {
        for (text, message, line, column) in [
            ("- id: a\n", "must be a YAML mapping, got a sequence", 1, 1),
            ("label: A\n", "has no `id`", 1, 1),
            ("id: 7\n", "`id` must be a string, got a number", 1, 5),
            ("id: ''\n", "`id` must be a non-empty string", 1, 5),
            ("id: a\nid: b\n", "", 2, 1),
            (
                "id: a\nparameters: [1]\n",
                "`parameters` must be a mapping, got a sequence",
                2,
                13,
            ),
            (
                "id: a\nparameters:\n  tool: yes\n",
                "`parameters.tool` must be a mapping, got a string",
                3,
                9,
            ),
            (
                "id: a\nparameters:\n  tool:\n    connectable: 1\n",
                "must be true or false, got a number",
                4,
                18,
            ),
            (
                "id: a\nexecutor_plugin: [x]\n",
                "`executor_plugin` must be a string",
                2,
                18,
            ),
            ("id: a\n---\nid: b\n", "", 2, 1),
            ("id: [a\n", "", 1, 1),
        ] {
            let e = read(text).unwrap_err();
            assert_eq!(e.file, "t.yml");
            assert!(e.message.contains(message), "{text:?}: {e}");
            let at = e.location.unwrap();
            if !message.is_empty() {
                assert_eq!((at.line, at.column), (line, column), "{text:?}: {e}");
            }
        }
    }
}
