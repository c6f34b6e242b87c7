//! What a report says, as text, for the fuzz targets that compare two
//! reports (`mod outline;` in each).

use toolwire::{Report, Violation};

/// Everything a report says, as text, for comparing two reports.
pub fn outline(report: &Report) -> Vec<String> {
    let mut lines: Vec<String> = report.violations().map(|v| describe(&v)).collect();
    lines.extend(report.warnings.iter().map(|w| format!("{w:?}")));
    lines.push(format!("{:?}", report.stats));
    lines
}

fn describe(v: &Violation<'_>) -> String {
    match v {
        Violation::UnrecognisedEdgeType(e) => format!("{e:?}"),
        Violation::UnacceptedTools(u) => format!("{u:?}"),
        Violation::ToolNameCollision(c) => {
            let tools: Vec<String> = c
                .tools()
                .iter()
                .map(|t| format!("{} {:?} {:?}", t.id(), t.path(), t.location()))
                .collect();
            format!("{} {:?} {tools:?} {:?}", c.message(), c.location(), c.fix())
        }
    }
}
