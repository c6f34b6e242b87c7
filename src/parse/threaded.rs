//! Reading and graph building on two threads. The JSON parser is the slow
//! half and cannot be split, but interning ids (hash-table probes that miss
//! the cache) can run beside it: the parser sends what it reads in chunks
//! to a builder thread. Chunk buffers travel back to be reused, so no
//! memory is allocated per chunk. The same [`Recorder`] carries what the
//! second half of a YAML text read in two (`yaml::pieces`) gives to the
//! thread that reads the first half, which replays it once that is done.

use std::borrow::Cow;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use crate::graph::{GraphBuilder, IdHasher, Sink};
use crate::head::Head;
use crate::input::{DuplicateKey, Field, Place, UnknownEdgeType};
use crate::InputError;

/// One call on a [`Sink`], recorded to be replayed on the builder thread.
enum Record<'a> {
    NodeShapeError(InputError),
    EdgeShapeError(InputError),
    /// With the hash of its id.
    /// With the hash of its id, its label and its type (kept for CMP-10).
    Node(Place, Field<'a>, u64, Option<Cow<'a, str>>, Option<Cow<'a, str>>, bool),
    /// With the hashes of its ends.
    ToolEdge(Place, Option<Cow<'a, str>>, Field<'a>, Field<'a>, [u64; 2]),
    UnknownEdgeType(UnknownEdgeType<'a>),
    OtherEdge,
    /// Rare, so boxed: it does not make every record larger.
    DuplicateKey(Box<DuplicateKey<'a>>),
    /// The workflow's head: once, at the end of the pass (boxed, as rare).
    Head(Box<Head<'a>>),
}

impl<'a> Record<'a> {
    /// The hashes of the ids replaying this record looks up.
    fn hashes(&self) -> &[u64] {
        match self {
            Record::Node(_, _, hash, ..) => std::slice::from_ref(hash),
            Record::ToolEdge(.., hashes) => hashes,
            _ => &[],
        }
    }

    fn replay(self, builder: &mut GraphBuilder<'a>) {
        match self {
            Record::NodeShapeError(e) => builder.node_shape_error(e),
            Record::EdgeShapeError(e) => builder.edge_shape_error(e),
            Record::Node(place, id, hash, label, node_type, passthrough) => {
                builder.hashed_node(place, id, hash, label, node_type, passthrough)
            }
            Record::ToolEdge(place, id, source, target, hashes) => {
                builder.hashed_tool_edge(place, id, source, target, hashes)
            }
            Record::UnknownEdgeType(unknown) => builder.unknown_edge_type(unknown),
            Record::OtherEdge => builder.other_edge(),
            Record::DuplicateKey(repeat) => builder.duplicate_key(*repeat),
            Record::Head(head) => builder.head(*head),
        }
    }
}

const CHUNK: usize = 4096;
/// How many records ahead of the one being handled the builder starts
/// loading the id table's slots, then the copies of ids those slots point
/// to (which needs the slot): each far enough ahead to cover a memory
/// access, not so far the lines are evicted again.
const SLOTS_AHEAD: usize = 16;
const COPIES_AHEAD: usize = 8;
/// Chunks in flight: enough to ride out the other thread being paused
/// for a scheduler slice or two (on a busy host, the other core is often
/// taken), few enough to keep memory flat: about 15 MB of records at most,
/// while the file is hundreds. With 4, one thread's pause soon stalled the
/// other too.
const IN_FLIGHT: usize = 32;

/// A [`Sink`] that records each call, its ids hashed while their bytes
/// are in this thread's cache, and sends the records in chunks to another
/// thread, which replays them into a [`GraphBuilder`] with [`replay`] and
/// sends the chunks back empty: the builder thread of [`on_two_threads`],
/// or the thread that read the first half of a YAML text read in two
/// (`yaml::pieces`), once it has.
pub(crate) struct Recorder<'a> {
    hasher: IdHasher,
    chunk: Vec<Record<'a>>,
    full: SyncSender<Vec<Record<'a>>>,
    empty: Receiver<Vec<Record<'a>>>,
}

/// The other end of a [`Recorder`]: full chunks in, empty ones back.
pub(crate) struct Chunks<'a> {
    full: Receiver<Vec<Record<'a>>>,
    empty: SyncSender<Vec<Record<'a>>>,
}

impl<'a> Recorder<'a> {
    /// A recorder, and the end its chunks arrive at; ids are hashed with
    /// `hasher`, which must be the id hasher of the builder the records
    /// are replayed into. At most `in_flight` chunks wait to be replayed:
    /// past that, recording waits.
    pub(crate) fn new(hasher: IdHasher, in_flight: usize) -> (Self, Chunks<'a>) {
        let (full_tx, full_rx) = sync_channel(in_flight);
        let (empty_tx, empty_rx) = sync_channel(in_flight);
        let recorder = Recorder {
            hasher,
            chunk: Vec::with_capacity(CHUNK),
            full: full_tx,
            empty: empty_rx,
        };
        (
            recorder,
            Chunks {
                full: full_rx,
                empty: empty_tx,
            },
        )
    }

    fn push(&mut self, record: Record<'a>) {
        self.chunk.push(record);
        if self.chunk.len() == CHUNK {
            self.flush();
        }
    }

    /// Sends what is recorded so far; dropping the recorder sends the rest.
    fn flush(&mut self) {
        if self.chunk.is_empty() {
            return;
        }
        let next = self.empty.try_recv().unwrap_or_else(|_| Vec::with_capacity(CHUNK));
        let full = std::mem::replace(&mut self.chunk, next);
        // A send fails only if the other end is gone: the builder thread
        // panicked (the join reports it), or the records are not wanted.
        let _ = self.full.send(full);
    }
}

impl Drop for Recorder<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

impl<'a> Chunks<'a> {
    /// Replays every chunk, in order, into `builder`, until the recorder
    /// is dropped.
    pub(crate) fn replay(&self, builder: &mut GraphBuilder<'a>) {
        for mut chunk in self.full.iter() {
            replay(&mut chunk, builder);
            let _ = self.empty.try_send(chunk);
        }
    }
}

impl<'a> Sink<'a> for Recorder<'a> {
    fn node_shape_error(&mut self, error: InputError) {
        self.push(Record::NodeShapeError(error));
    }
    fn edge_shape_error(&mut self, error: InputError) {
        self.push(Record::EdgeShapeError(error));
    }
    fn node(
        &mut self,
        place: Place,
        id: Field<'a>,
        label: Option<Cow<'a, str>>,
        node_type: Option<Cow<'a, str>>,
        passthrough: bool,
    ) {
        let hash = self.hasher.hash(&id);
        self.push(Record::Node(place, id, hash, label, node_type, passthrough));
    }
    fn tool_edge(&mut self, place: Place, id: Option<Cow<'a, str>>, source: Field<'a>, target: Field<'a>) {
        let hashes = [self.hasher.hash(&source), self.hasher.hash(&target)];
        self.push(Record::ToolEdge(place, id, source, target, hashes));
    }
    fn unknown_edge_type(&mut self, unknown: UnknownEdgeType<'a>) {
        self.push(Record::UnknownEdgeType(unknown));
    }
    fn other_edge(&mut self) {
        self.push(Record::OtherEdge);
    }
    fn duplicate_key(&mut self, repeat: DuplicateKey<'a>) {
        self.push(Record::DuplicateKey(Box::new(repeat)));
    }
    fn head(&mut self, head: Head<'a>) {
        self.push(Record::Head(Box::new(head)));
    }
}

/// Replays `chunk` into `builder` and leaves it empty. Step by step: a
/// record's ids are announced to the table SLOTS_AHEAD steps before it is
/// replayed, so the slots' cache lines arrive while the records before it
/// are handled, and the copies those slots point to are loaded
/// COPIES_AHEAD steps before it.
fn replay<'a>(chunk: &mut Vec<Record<'a>>, builder: &mut GraphBuilder<'a>) {
    for step in 0..chunk.len() + SLOTS_AHEAD {
        if let Some(record) = chunk.get(step) {
            record.hashes().iter().for_each(|&h| builder.prefetch(h));
        }
        let copies_of = (step + COPIES_AHEAD).checked_sub(SLOTS_AHEAD);
        if let Some(record) = copies_of.and_then(|at| chunk.get(at)) {
            record.hashes().iter().for_each(|&h| builder.prefetch_copy(h));
        }
        if let Some(at) = step.checked_sub(SLOTS_AHEAD) {
            std::mem::replace(&mut chunk[at], Record::OtherEdge).replay(builder);
        }
    }
    chunk.clear();
}

/// Runs `read` (which feeds a sink) on this thread and a [`GraphBuilder`] on
/// another, and returns what `read` returned with the finished builder.
pub fn on_two_threads<'a, T: Send>(
    expected_nodes: usize,
    keep_types: bool,
    read: impl FnOnce(&mut dyn Sink<'a>) -> T + Send,
) -> (T, GraphBuilder<'a>) {
    std::thread::scope(|scope| {
        let builder = GraphBuilder::with_capacity(expected_nodes).keeping_types(keep_types);
        let (mut recorder, chunks) = Recorder::new(builder.id_hasher(), IN_FLIGHT);
        let builder = scope.spawn(move || {
            let mut builder = builder;
            chunks.replay(&mut builder);
            builder
        });
        let result = read(&mut recorder);
        drop(recorder); // sends the last chunk and closes the channel: the builder thread finishes
        match builder.join() {
            Ok(builder) => (result, builder),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
