//! Bytes read as a report snapshot (src/snapshot.rs), as a Dask client reads
//! what arrives from a worker: never a panic; bytes that decode answer for
//! every item in range; and when the bytes are a workflow, its report
//! encoded decodes to the same counts, and its bytes are what was encoded.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwire::snapshot::{encode, Shipped, ShippedViolation};
use toolwire::engine::check_text;
use toolwire::{Budget, Config};

/// Reads every item, as the Python binding may.
fn read_everything(shipped: &Shipped) {
    for i in 0..shipped.warning_count() {
        assert!(shipped.warning(i).is_some());
    }
    for i in 0..shipped.violation_count() {
        match shipped.violation(i).expect("a violation in range") {
            ShippedViolation::ToolNameCollision(c) => {
                assert!(c.tools.len() >= 2);
                for tool in &c.tools {
                    let path = shipped.path(tool, 0, usize::MAX).expect("a path");
                    assert_eq!(path.len(), tool.path_len);
                }
            }
            ShippedViolation::UnrecognisedEdgeType(_) => {}
            ShippedViolation::UnacceptedTools(u) => assert!(!u.edges.is_empty()),
        }
    }
    for g in 0..shipped.group_count() as u32 {
        let group = shipped.group(g).expect("a group in range");
        let consumers = shipped.group_consumers(g, 0, usize::MAX).expect("its consumers");
        assert_eq!(consumers.len() as u64, group.count);
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(shipped) = Shipped::decode(data) {
        read_everything(&shipped);
    }
    if let Ok(report) = check_text(data, &Config::default(), Budget::full()) {
        let bytes = encode(&report, u64::MAX).expect("no budget to exceed");
        let shipped = Shipped::decode(&bytes).expect("an encoded report decodes");
        assert_eq!(shipped.bytes(), &bytes[..]);
        assert_eq!(shipped.violation_count(), report.violation_count());
        assert_eq!(shipped.warning_count(), report.warnings.len());
        assert_eq!(shipped.group_count(), report.collisions.group_count());
        read_everything(&shipped);
    }
});
