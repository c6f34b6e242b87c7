"""Issue 21: a workflow stored as Drupal YAML (``--layout drupal-yaml``,
docs/SEMANTICS.md section 10), per preset, in the same run:

- ``toolwire.check_file`` on the YAML file;
- PyYAML's C loader alone on the same text (``yaml.load(text,
  Loader=yaml.CSafeLoader)``, the text read before timing), which builds a
  tree and checks nothing: the target is toolwire at least 30 times faster;
- ``toolwire.check_file`` on the same workflow as JSON: the target is the
  YAML check within 15 times its time;
- in a fresh process, the peak RSS of ``check_file`` on the YAML, counted
  from the RSS just before the call (the interpreter with toolwire imported,
  some 17 MiB, is no part of the check): at most 1.5 times the file,
  asserted from 64 MiB of YAML (``medium`` is 81 MB). The whole peak is
  recorded too; the JSON check of the same workflow measures alike (1.43x
  its file above the interpreter, 1.67x in all, on ``medium``).

Times are not asserted (the machine is shared): the two ratios are recorded
in ``extra_info`` (``vs_baseline``, added by conftest.py, with the target
beside it) and ``benches/report.py`` prints them against their targets in
its ``yaml`` table. Answers are asserted: toolwire's must equal the
generator's expectation, and PyYAML must have read every node.

PyYAML takes 1.5 to 2.7 minutes on ``medium`` (81 MB) here and peaks near
3.3 GB, so it runs once per preset (``pedantic``, one round) whatever the
preset, and only on ``PYYAML_PRESETS``: the smoke pass (``small``) costs
about a second, ``--presets medium`` two to three minutes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict

import pytest

import toolwire

from workloads import Workload, generated, matches, peak_rss_from_start

yaml = pytest.importorskip("yaml")

VS_PYYAML = 30.0
"""PyYAML's time over toolwire's on the YAML: at least this."""
VS_JSON = 15.0
"""toolwire's time on the YAML over its time on the JSON: at most this."""
RSS_PER_FILE_BYTE = 1.5
RSS_ASSERTED_FROM = 64 << 20
# PyYAML builds a Python object per scalar: on `large` (~0.9 GB of YAML) it
# would take half an hour and tens of GB.
PYYAML_PRESETS = frozenset({"small", "medium"})
ROUNDS = {"medium": 5, "large": 3, "deep": 3, "flat-names": 3}

YAML_CHECK = "toolwire.check_file (yaml)"
JSON_CHECK = "toolwire.check_file (json)"
PYYAML = "yaml.load (CSafeLoader)"


def group(preset: str) -> str:
    return f"{preset} yaml"


def timed(benchmark: Any, workload: Workload, name: str, rounds: int, run: Any) -> Any:
    benchmark.group = group(workload.preset)
    benchmark.name = name
    benchmark.extra_info.update(preset=workload.preset, bytes=workload.size, implementation=name, layout="yaml")
    return benchmark.pedantic(run, rounds=rounds, iterations=1, warmup_rounds=0)


def test_check_yaml_file(benchmark: Any, yaml_workload: Workload) -> None:
    w = yaml_workload
    report = timed(benchmark, w, YAML_CHECK, ROUNDS.get(w.preset, 10), lambda: toolwire.check_file(w.path))
    correct = matches(report, w.expected)
    benchmark.extra_info["correct"] = correct
    # conftest adds vs_baseline: this time over the JSON check's, same group.
    benchmark.extra_info.update(baseline=JSON_CHECK, vs_baseline_target=f"<= {VS_JSON:g}")
    assert correct, f"check_file on the YAML of {w.preset} disagrees with the generator"


def test_check_json_file(benchmark: Any, yaml_workload: Workload, cache_dir: Path) -> None:
    w = generated(cache_dir, yaml_workload.preset)
    report = timed(benchmark, w, JSON_CHECK, ROUNDS.get(w.preset, 10), lambda: toolwire.check_file(w.path))
    benchmark.extra_info.update(layout="json", yaml_bytes=yaml_workload.size)
    benchmark.extra_info["correct"] = matches(report, w.expected)
    assert benchmark.extra_info["correct"], f"check_file on the JSON of {w.preset} disagrees with the generator"


def test_pyyaml_alone(benchmark: Any, yaml_workload: Workload) -> None:
    w = yaml_workload
    if w.preset not in PYYAML_PRESETS:
        pytest.skip(f"PyYAML would take far too long on {w.preset}")
    text = w.data
    loader = getattr(yaml, "CSafeLoader", None)
    if loader is None:
        pytest.skip("PyYAML was built without libyaml (no CSafeLoader)")
    document = timed(benchmark, w, PYYAML, 1, lambda: yaml.load(text, Loader=loader))
    # The same parse of the same text toolwire checks: every node is there.
    benchmark.extra_info["correct"] = None  # a bare parse has no verdict
    benchmark.extra_info.update(baseline=YAML_CHECK, vs_baseline_target=f">= {VS_PYYAML:g}")
    assert len(document["nodes"]) == w.expected.stats()["nodes"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_check_yaml_peak_memory(benchmark: Any, yaml_workload: Workload) -> None:
    w = yaml_workload
    benchmark.group = f"{w.preset} yaml peak memory"
    benchmark.name = YAML_CHECK
    result: Dict[str, Any] = {}

    def run() -> None:
        result["peak"], result["start"], result["answer"] = peak_rss_from_start(
            "report = toolwire.check_file(path)", "[report.violation_count, report.stats.to_dict()]", str(w.path)
        )

    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    want = [len(w.expected.violations), w.expected.stats()]
    benchmark.extra_info["correct"] = result["answer"] == want
    assert result["answer"] == want, f"check_file on the YAML of {w.preset} answered {result['answer']}, not {want}"
    added = result["peak"] - result["start"]
    ratio = added / w.size
    benchmark.extra_info.update(
        preset=w.preset,
        bytes=w.size,
        layout="yaml",
        peak_rss=result["peak"],
        rss_before_check=result["start"],
        rss_per_file_byte=round(ratio, 3),
    )
    if w.size >= RSS_ASSERTED_FROM:
        assert ratio <= RSS_PER_FILE_BYTE, (
            f"the check raised the RSS from {result['start']} to {result['peak']}: {ratio:.2f}x the YAML file ({w.size})"
        )
