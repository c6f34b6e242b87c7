//! Arbitrary bytes as YAML through the whole core (SEMANTICS.md section
//! 10): never a panic, the same answer on one thread and two, every error
//! placed inside the text, and the strict event layer alone agreeing with
//! the workflow reader on whether the text is YAML it accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwire::engine::check_text_as;
use toolwire::parse::yaml::events::{Event, Events};
use toolwire::{Budget, Config, Error, Format, Report};

mod outline;
use outline::outline;

fn outcome(answer: &Result<Report, Error>) -> Vec<String> {
    match answer {
        Ok(report) => outline(report),
        Err(e) => vec![format!("{e:?}")],
    }
}

/// Reads the root value with the event layer alone, skipping every
/// collection's second half to exercise `skip_value` beside `next`.
fn events_accept(text: &str) -> bool {
    let mut events = Events::new(text);
    let mut open = 0usize;
    loop {
        let item = match events.next() {
            Ok(item) => item,
            Err(e) => {
                assert!(e.offset.is_some_and(|at| at <= text.len()), "{e:?}");
                return false;
            }
        };
        match item.event {
            Event::MappingStart | Event::SequenceStart => open += 1,
            Event::MappingEnd | Event::SequenceEnd => open -= 1,
            Event::Scalar(_) => {}
        }
        if open == 0 {
            break;
        }
    }
    events.finish().is_ok()
}

fuzz_target!(|data: &[u8]| {
    let config = Config::default();
    let one = check_text_as(data, Format::Yaml, &config, Budget::full().one_thread());
    let two = check_text_as(data, Format::Yaml, &config, Budget::full());
    assert_eq!(outcome(&one), outcome(&two), "threading changed the answer");
    if let Err(Error::Input(e, _)) = &one {
        assert!(e.offset.is_none_or(|at| at <= data.len()), "{e:?}");
    }
    let Ok(text) = std::str::from_utf8(data) else { return };
    // A text the reader accepted is one the event layer accepts.
    if one.is_ok() {
        assert!(events_accept(text), "the event layer refused an accepted text");
    } else {
        let _ = events_accept(text);
    }
});
