//! The way into the core: text, a file, many files, a graph a front end
//! built, a site of workflows, or an explanation, each in with a [`Budget`]
//! (or an [`Interrupt`] where a `jobs` count sets the threads) and out with a
//! report or one error type ([`Error`]). Front ends (the Python binding,
//! tests, fuzzers, benchmarks) come in here and only convert; `check` does
//! the one check each of these runs.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::budget::{Budget, Interrupt};
use crate::catalogue::Catalogue;
use crate::check::check;
use crate::error::Error;
use crate::explain::{views, Views};
use crate::files::{read_file, FileBytes};
use crate::graph::ToolGraph;
use crate::parse::{parse_format, Format};
use crate::site::{self, check_site as check_site_facts, Head, PortRef, SiteReport, Workflow as SiteWorkflow};
use crate::threads::{in_parallel, workers};
use crate::{Config, InputError, Report};

/// The error of a failed parse: an interruption when one was asked for,
/// otherwise the input error, located in `text`.
fn input_error(error: InputError, text: &[u8], interrupt: Interrupt<'_>) -> Error {
    if interrupt.requested() {
        return Error::Interrupted;
    }
    let location = error.location(text);
    Error::Input(error, location)
}

/// After work that may have stopped early: its result, or `Interrupted`.
fn finished<T>(value: T, interrupt: Interrupt<'_>) -> Result<T, Error> {
    if interrupt.requested() {
        Err(Error::Interrupted)
    } else {
        Ok(value)
    }
}

/// A file's bytes; an interrupted read is an interruption, not an I/O error.
fn read(path: &Path, budget: Budget<'_>) -> Result<FileBytes, Error> {
    read_file(path, budget).map_err(|e| {
        if budget.interrupt.requested() {
            Error::Interrupted
        } else {
            Error::Io(e)
        }
    })
}

/// Checks JSON text; on one thread unless the budget allows a second.
pub fn check_text(text: &[u8], config: &Config, budget: Budget<'_>) -> Result<Report, Error> {
    check_text_as(text, Format::Json, config, budget)
}

/// Checks text of `format`; on one thread unless the budget allows a second.
pub fn check_text_as(text: &[u8], format: Format, config: &Config, budget: Budget<'_>) -> Result<Report, Error> {
    let graph = parse_format(text, format, config, budget).map_err(|e| input_error(e, text, budget.interrupt))?;
    check_graph(graph, config, budget)
}

/// Checks a workflow read into a graph (by `parse`, or by a front end from
/// objects it parsed itself).
pub fn check_graph(graph: ToolGraph<'_>, config: &Config, budget: Budget<'_>) -> Result<Report, Error> {
    finished(check(graph, config, budget), budget.interrupt)
}

/// Reads and checks one file, as `format`, or by its name when `None`
/// (`Format::of_path`: YAML for `.yml` and `.yaml`).
pub fn check_file(path: &Path, format: Option<Format>, config: &Config, budget: Budget<'_>) -> Result<Report, Error> {
    if budget.interrupt.requested() {
        return Err(Error::Interrupted);
    }
    let bytes = read(path, budget)?;
    let format = format.unwrap_or_else(|| Format::of_path(path));
    let outcome = check_text_as(&bytes, format, config, budget);
    // A single large file: its report need not wait for the unmapping.
    // (Checking many files, each thread unmaps its own as it goes.)
    if budget.allow_thread {
        bytes.release_in_background();
    }
    outcome
}

/// Checks every file with up to `jobs` threads (0: one per core), each as
/// `check_file` with `format`; one outcome per path, in order, the same for
/// any number of jobs.
pub fn check_files(
    paths: &[PathBuf],
    format: Option<Format>,
    config: &Config,
    jobs: usize,
    interrupt: Interrupt<'_>,
) -> Vec<Result<Report, Error>> {
    let budget = per_file(jobs, paths.len(), interrupt);
    in_parallel(paths, jobs, |path| check_file(path, format, config, budget))
}

/// What a site check gives: each file's report, as `check_files` gives it,
/// and what the calls between the files find (SEMANTICS 12).
pub struct SiteOutcome {
    pub reports: Vec<Result<Report, Error>>,
    pub site: SiteReport,
}

/// Checks `paths` as the workflows of one site: each file read and parsed
/// once, checked as `check_files` checks it, and its calls into the others
/// followed (`site::check_site`). Calls are only known from a catalogue's
/// workflow-backed types: without a catalogue nothing is crossed. `names`:
/// what the site's findings and errors call each file, when not its path
/// (a Dask worker reads a file by its absolute path, and names it as the
/// client was given it, so its findings equal a local check's).
pub fn check_site(
    paths: &[PathBuf],
    names: Option<&[String]>,
    format: Option<Format>,
    config: &Config,
    jobs: usize,
    interrupt: Interrupt<'_>,
) -> SiteOutcome {
    let budget = per_file(jobs, paths.len(), interrupt);
    let named: Vec<(&PathBuf, String)> = paths
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let name = names.and_then(|names| names.get(i)).cloned();
            (path, name.unwrap_or_else(|| path.to_string_lossy().into_owned()))
        })
        .collect();
    let outcomes = in_parallel(&named, jobs, |(path, name)| {
        let parsed = parsed(path, format, config, budget, |graph| {
            let facts = config
                .catalogue
                .as_ref()
                .map(|catalogue| site_facts(&graph, name, catalogue));
            let report = check_graph(graph, config, budget);
            (report, facts)
        });
        parsed.unwrap_or_else(|e| (Err(e), None))
    });
    let (reports, facts): (Vec<_>, Vec<_>) = outcomes.into_iter().unzip();
    let site = if interrupt.requested() {
        SiteReport::default()
    } else {
        check_site_facts(&facts)
    };
    SiteOutcome { reports, site }
}

/// The site facts of every file of `paths` (`site::facts`), each read and
/// parsed once as `check_site` reads it, and not checked: what
/// `site::call_views` needs to explain a workflow of the site. Without a
/// catalogue no node runs a workflow, so the facts name no call.
pub fn read_site(
    paths: &[PathBuf],
    format: Option<Format>,
    config: &Config,
    jobs: usize,
    interrupt: Interrupt<'_>,
) -> Vec<Result<SiteWorkflow, Error>> {
    let budget = per_file(jobs, paths.len(), interrupt);
    let none = Catalogue::default();
    let catalogue = config.catalogue.as_deref().unwrap_or(&none);
    in_parallel(paths, jobs, |path| {
        parsed(path, format, config, budget, |graph| {
            site_facts(&graph, &path.to_string_lossy(), catalogue)
        })
    })
}

/// `then` of the graph of the file at `path` (as `format`, or by its
/// name), or why it could not be read or parsed.
fn parsed<T>(
    path: &Path,
    format: Option<Format>,
    config: &Config,
    budget: Budget<'_>,
    then: impl FnOnce(ToolGraph<'_>) -> T,
) -> Result<T, Error> {
    if budget.interrupt.requested() {
        return Err(Error::Interrupted);
    }
    let bytes = read(path, budget)?;
    let format = format.unwrap_or_else(|| Format::of_path(path));
    let graph = parse_format(&bytes, format, config, budget).map_err(|e| input_error(e, &bytes, budget.interrupt))?;
    Ok(then(graph))
}

/// The budget of each file of a many-file check: with several files at
/// once every core is busy, so no second thread each.
fn per_file(jobs: usize, files: usize, interrupt: Interrupt<'_>) -> Budget<'_> {
    Budget::new(workers(jobs, files) == 1, interrupt)
}

/// The site facts of one parsed workflow (`site::facts`), from what the
/// reader found in its document besides nodes and edges.
fn site_facts(graph: &ToolGraph<'_>, file: &str, catalogue: &Catalogue) -> SiteWorkflow {
    let head = &graph.head;
    let ports: Vec<PortRef<'_>> = head
        .tool_ports
        .iter()
        .map(|port| PortRef {
            node_id: &port.node_id,
            node: port.node,
            index: port.index,
            offset: port.offset,
        })
        .collect();
    let problems: Vec<(&str, Option<usize>)> = head.problems.iter().map(|p| (&*p.message, p.offset)).collect();
    let head = Head {
        id: head.id.as_deref(),
        tool_ports: &ports,
        problems: &problems,
    };
    site::facts(graph, file, head, catalogue)
}

/// What each consumer of text of `format` sees, or only the node
/// `consumer`: the views, made one by one as `take` asks for them
/// (`explain::views`).
pub fn explain_text<T>(
    text: &[u8],
    format: Format,
    consumer: Option<&str>,
    config: &Config,
    budget: Budget<'_>,
    take: impl FnOnce(Views<'_, '_>) -> T,
) -> Result<T, Error> {
    let graph = parse_format(text, format, config, budget).map_err(|e| input_error(e, text, budget.interrupt))?;
    explain_graph(&graph, consumer, take)
}

/// `explain_text` of a file, as `format` or by its name when `None`.
pub fn explain_file<T>(
    path: &Path,
    format: Option<Format>,
    consumer: Option<&str>,
    config: &Config,
    budget: Budget<'_>,
    take: impl FnOnce(Views<'_, '_>) -> T,
) -> Result<T, Error> {
    let bytes = read(path, budget)?;
    let format = format.unwrap_or_else(|| Format::of_path(path));
    explain_text(&bytes, format, consumer, config, budget, take)
}

/// `explain_text` of a graph a front end built.
pub fn explain_graph<T>(
    graph: &ToolGraph<'_>,
    consumer: Option<&str>,
    take: impl FnOnce(Views<'_, '_>) -> T,
) -> Result<T, Error> {
    Ok(take(views(graph, consumer)?))
}

/// Where the time of `check_file` goes: reading, parsing into the graph,
/// checking. For the benchmark suite.
pub fn phase_times(path: &Path, config: &Config) -> Result<[Duration; 3], Error> {
    let start = Instant::now();
    let budget = Budget::full();
    let bytes = read(path, budget)?;
    let read = start.elapsed();
    let graph = parse_format(&bytes, Format::of_path(path), config, budget)
        .map_err(|e| input_error(e, &bytes, budget.interrupt))?;
    let parsed = start.elapsed();
    let report = check(graph, config, budget);
    let checked = start.elapsed();
    drop(report);
    Ok([read, parsed - read, checked - parsed])
}
