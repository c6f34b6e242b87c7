//! Arbitrary bytes through the whole core: never a panic, the same answer
//! on one thread and two, and JSON syntax judged exactly as serde_json
//! judges it (where serde_json can: valid UTF-8, nesting under its limit).
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwire::engine::check_text;
use toolwire::{Budget, Config, Error, Report};

mod outline;
use outline::outline;

/// Everything an answer says, as text: the error, or every violation
/// (for CMP-9 with its tools, their paths and the fix), the warnings and
/// the counts.
fn outcome(answer: &Result<Report, Error>) -> Vec<String> {
    match answer {
        Ok(report) => outline(report),
        Err(e) => vec![format!("{e:?}")],
    }
}

fuzz_target!(|data: &[u8]| {
    let config = Config::default();
    let one = check_text(data, &config, Budget::full().one_thread());
    let two = check_text(data, &config, Budget::full());
    assert_eq!(outcome(&one), outcome(&two), "threading changed the answer");

    let Ok(text) = std::str::from_utf8(data) else { return };
    let depth = text.bytes().filter(|b| matches!(b, b'[' | b'{')).count();
    if depth > 100 || text.starts_with('\u{feff}') {
        return; // beyond serde_json's recursion limit, or a BOM it accepts
    }
    let ours_is_json = !matches!(&one, Err(Error::Input(e, _)) if e.message.starts_with("invalid JSON"));
    let theirs = serde_json::from_str::<serde_json::Value>(text);
    if theirs
        .as_ref()
        .is_err_and(|e| e.to_string().starts_with("number out of range"))
    {
        return; // valid JSON that serde_json cannot hold in an f64 (1E999)
    }
    let theirs_is_json = theirs.is_ok();
    assert_eq!(
        ours_is_json,
        theirs_is_json,
        "JSON validity differs: {:?}",
        outcome(&one)
    );
});
