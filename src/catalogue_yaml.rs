//! Drupal `flowdrop_node_type` config entities (YAML) as catalogue entries:
//! `id`, `parameters.tool.connectable` and `executor_plugin` (SEMANTICS 11).

use crate::catalogue::Entry;
use crate::error::InputError;

/// The one type a Drupal node-type config file defines.
pub(crate) fn read_drupal_yaml(_text: &str) -> Result<Vec<Entry>, InputError> {
    Err(InputError::new(
        "Drupal YAML node-type catalogues are not readable yet",
        None,
    ))
}
