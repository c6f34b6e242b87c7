"""toolwire.dask is an optional extra: without it, ``import toolwire`` and
the CLI work as before (and never import dask, so they start as fast), and
asking for Dask says which extra to install. These tests run whether the
extra is installed or not; each hides it in a subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import List

from support import DATA

# Makes `import distributed` fail in the subprocess as it does where the
# extra is not installed.
WITHOUT_EXTRA = "import sys; sys.modules['distributed'] = None; "

# Names the first of the extra's modules found missing: distributed here,
# dask where the extra is not installed at all.
NEEDS_EXTRA = (
    r"toolwire.dask needs the optional extra 'dask' \((dask|distributed|fsspec) is not installed\): "
    r"pip install 'toolwire\[dask\]'"
)


def python(code: str, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_importing_toolwire_dask_without_the_extra_names_it() -> None:
    done = python(WITHOUT_EXTRA + "import toolwire.dask")
    assert done.returncode == 1
    assert re.fullmatch("ImportError: " + NEEDS_EXTRA, done.stderr.strip().splitlines()[-1])


def test_toolwire_and_its_cli_do_not_import_dask() -> None:
    done = python(
        "import sys, toolwire, toolwire.cli\n"
        "toolwire.cli.main(['check', '--no-config', sys.argv[1]])\n"
        "print([m for m in ('dask', 'distributed', 'fsspec', 'pandas', 'toolwire.dask') if m in sys.modules])\n",
        str(DATA / "spec-cmp9-accepted.json"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_cli_dask_without_the_extra_says_what_to_install() -> None:
    argv: List[str] = ["check", "--dask", "local:2", str(DATA / "spec-cmp9-accepted.json")]
    done = python(WITHOUT_EXTRA + "import sys, toolwire.cli; sys.exit(toolwire.cli.main(sys.argv[1:]))", *argv)
    assert (done.returncode, done.stdout) == (2, "")
    assert re.fullmatch("toolwire: --dask: " + NEEDS_EXTRA + "\n", done.stderr)
