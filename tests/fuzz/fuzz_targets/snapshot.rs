//! Bytes read as a report snapshot (src/snapshot), as a Dask client reads
//! what arrives from a worker: never a panic; bytes that decode answer for
//! every item in range; and when the bytes are a workflow, its report and
//! the snapshot of it answer the same through `ReadFindings`, and the
//! snapshot encodes to the bytes it was decoded from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwire::engine::check_text;
use toolwire::findings::{Finding, ReadFindings};
use toolwire::snapshot::{encode, Shipped};
use toolwire::{Budget, Config};

/// Reads every item, as the Python binding may.
fn read_everything(findings: &dyn ReadFindings) {
    for i in 0..findings.warning_count() {
        assert!(findings.warning(i).is_some());
    }
    for i in 0..findings.violation_count() {
        match findings.violation(i).expect("a violation in range") {
            Finding::ToolNameCollision(c) => {
                assert!(c.tools.len() >= 2);
                for (t, tool) in c.tools.iter().enumerate() {
                    assert_eq!(tool.path.ids(0, usize::MAX).len(), tool.path_len);
                    let path = findings.tool_path(i, t, 0, usize::MAX).expect("a path");
                    assert_eq!(path.len(), tool.path_len);
                }
            }
            Finding::UnrecognisedEdgeType(_) => {}
            Finding::UnacceptedTools(u) => assert!(!u.edges.is_empty()),
        }
    }
    for g in 0..findings.group_count() as u32 {
        let group = findings.group(g).expect("a group in range");
        let consumers = findings.group_consumers(g, 0, usize::MAX).expect("its consumers");
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
        assert_eq!(encode(&shipped, u64::MAX).expect("no budget to exceed"), bytes);
        assert_eq!(shipped.violation_count(), report.violation_count());
        for i in 0..report.violation_count() {
            assert_eq!(shipped.violation(i), ReadFindings::violation(&report, i));
        }
        assert_eq!(shipped.warning_count(), report.warnings.len());
        assert_eq!(shipped.group_count(), report.collisions.group_count());
        read_everything(&shipped);
    }
});
