//! The head of a workflow (`id`, `input_ports`: [`crate::head`]) read from
//! text, by the same [`Source`] logic for JSON and YAML. The reader meets
//! the two keys in any order among the others and hands the head to the
//! sink once the top-level object is read.

use std::borrow::Cow;

use super::{is_array, Reader, Result, Source};
use crate::error::InputError;
use crate::head::{self, Head};
use crate::input::{Field, Kind};

/// The head as far as the top-level object has been read. A key met again
/// replaces what the earlier one gave (JSON keeps the last value; YAML
/// refuses a repeat before this matters), so each part is kept apart until
/// the end.
#[derive(Default)]
pub(crate) struct HeadReading<'a> {
    id: Option<Cow<'a, str>>,
    id_offset: Option<usize>,
    id_problem: Option<InputError>,
    /// The tool ports and the problems of the last `input_ports` read.
    ports: Head<'a>,
}

impl<'a> HeadReading<'a> {
    /// Reads the value of the top-level key `key` when it is part of the
    /// head; false, with nothing consumed, when it is not.
    pub(crate) fn member<S: Source<'a>>(&mut self, reader: Reader<'_>, s: &mut S, key: &str) -> Result<bool> {
        match key {
            "id" => self.id(s)?,
            "input_ports" => self.ports = reader.input_ports(s)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn id<S: Source<'a>>(&mut self, s: &mut S) -> Result<()> {
        let at = s.pos()?;
        self.id_offset = Some(at);
        (self.id, self.id_problem) = match s.field()? {
            Field::Str(id) => (Some(id), None),
            // `field` says missing only of a key it never met.
            Field::Missing => (None, None),
            Field::Other(kind) => (None, Some(head::id_problem(kind, Some(at)))),
        };
        Ok(())
    }

    /// The head read: the `id`'s problem before those of `input_ports`.
    pub(crate) fn finish(self) -> Head<'a> {
        let mut problems = Vec::with_capacity(self.ports.problems.len() + 1);
        problems.extend(self.id_problem);
        problems.extend(self.ports.problems);
        Head {
            id: self.id,
            id_offset: self.id_offset,
            tool_ports: self.ports.tool_ports,
            problems,
        }
    }
}

impl Reader<'_> {
    /// The `input_ports` value: its tool ports, and its problems. `null`
    /// and an empty object are empty, as for `nodes`.
    fn input_ports<'a, S: Source<'a>>(self, s: &mut S) -> Result<Head<'a>> {
        let mut ports = Head::default();
        match is_array(s, "input_ports")? {
            Ok(true) => s.array(|s, index| {
                self.go_on()?;
                let at = s.pos()?;
                let entry = port_entry(s, index, at)?;
                ports.push(entry);
                Ok(())
            })?,
            Ok(false) => {}
            Err(e) => ports.problems.push(e),
        }
        Ok(ports)
    }
}

/// Entry `index` of `input_ports`, which starts at `at`: only `port` and
/// `node_id` are read; the last of a repeated key counts, as everywhere.
fn port_entry<'a, S: Source<'a>>(s: &mut S, index: usize, at: usize) -> Result<head::Entry<'a>> {
    let kind = s.peek_kind()?;
    if kind != Kind::Object {
        s.skip_value()?;
        return Ok(head::Entry::Problem(head::port_shape_problem(index, kind, Some(at))));
    }
    let (mut port, mut node_id) = (Field::Missing, Field::Missing);
    s.object(|s, key| {
        match key.as_ref() {
            "port" => port = s.field()?,
            "node_id" => node_id = s.field()?,
            _ => s.skip_value()?,
        }
        Ok(())
    })?;
    Ok(head::entry(index, Some(at), &port, node_id))
}
