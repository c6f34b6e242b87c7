//! The YAML parser on a thread of its own: it hands its events over in
//! batches through a bounded channel, and the batches travel back empty to
//! be filled again, so nothing is allocated per batch once the pipe is
//! primed. The strings the reader no longer needs (every scalar the text
//! spells as it is, which the reader borrows instead) travel back with
//! them and are freed on the parser's thread: freed on the reader's, each
//! would take the lock of the allocator arena the parser is allocating
//! from, and the two threads would spend their time waiting on it. The reader sees exactly the events, errors included, that the
//! parser would have given it directly, in the same order, so the outcome
//! does not depend on the thread.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use saphyr_parser::{Event as Raw, Parser};

use super::events::{RawEvent, RawEvents};

/// Events per batch: large enough that the channel costs little per
/// event, small enough that the reader starts at once.
const BATCH: usize = 2048;
/// Batches in flight each way.
const IN_FLIGHT: usize = 8;

/// A batch on its way back: emptied, with the strings to free.
type Returned<'a> = (Vec<RawEvent<'a>>, Vec<String>);

/// The reader's end: batches to read, and the way back for empty ones.
pub(super) struct Piped<'a> {
    full: Receiver<Vec<RawEvent<'a>>>,
    empty: SyncSender<Returned<'a>>,
    /// Strings to free on the parser's thread, sent back with the next batch.
    discarded: Vec<String>,
    /// The batch being read, reversed so each event is popped off its end.
    batch: Vec<RawEvent<'a>>,
    /// The parser gave its last event (the end, or an error).
    done: bool,
}

impl<'a> RawEvents<'a> for Piped<'a> {
    fn next_raw(&mut self) -> RawEvent<'a> {
        loop {
            if let Some(event) = self.batch.pop() {
                if matches!(event, None | Some(Err(_)) | Some(Ok((Raw::StreamEnd, _)))) {
                    self.done = true;
                }
                return event;
            }
            if self.done {
                return None;
            }
            let used = std::mem::replace(
                &mut self.batch,
                match self.full.recv() {
                    Ok(batch) => batch,
                    // The parser stopped without its last event: it cannot,
                    // short of a panic, which joining it passes on.
                    Err(_) => return None,
                },
            );
            // The parser may have stopped already; then the batch is dropped.
            let discarded = std::mem::take(&mut self.discarded);
            let _ = self.empty.try_send((used, discarded));
        }
    }

    fn discard(&mut self, value: String) {
        self.discarded.push(value);
    }
}

/// The reader's end of a pipe over `text`, and the parser's work, to run
/// on another thread: it parses until the end or an error, or until the
/// reader hangs up.
pub(super) fn pipe<'a>(text: &'a str) -> (Piped<'a>, impl FnOnce() + Send + 'a) {
    let (full_tx, full_rx) = sync_channel::<Vec<RawEvent<'a>>>(IN_FLIGHT);
    let (empty_tx, empty_rx) = sync_channel::<Returned<'a>>(IN_FLIGHT + 2);
    let parse = move || {
        let mut parser = Parser::new_from_str(text);
        loop {
            let mut batch = match empty_rx.try_recv() {
                // The reader's discarded strings are freed here, on this thread.
                Ok((batch, discarded)) => {
                    drop(discarded);
                    batch
                }
                Err(_) => Vec::with_capacity(BATCH),
            };
            batch.clear();
            let mut last = false;
            while batch.len() < BATCH && !last {
                let event = parser.next_event();
                last = matches!(event, None | Some(Err(_)) | Some(Ok((Raw::StreamEnd, _))));
                batch.push(event);
            }
            // Read from the end: the first event last.
            batch.reverse();
            if full_tx.send(batch).is_err() || last {
                return;
            }
        }
    };
    let piped = Piped {
        full: full_rx,
        empty: empty_tx,
        batch: Vec::new(),
        discarded: Vec::new(),
        done: false,
    };
    (piped, parse)
}
