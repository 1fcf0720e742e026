# SPDX-License-Identifier: MIT
# The module under test is the one on PYTHONPATH (ctest sets build/python); the CLI, for the
# tests that compare with it, is $ORRERY_CLI (ctest sets it) or build*/bin/orrery.
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _find_cli():
    given = os.environ.get("ORRERY_CLI")
    if given:
        return str(pathlib.Path(given).resolve())
    for build in ("build", "build-cpu"):
        path = ROOT / build / "bin" / "orrery"
        if path.exists():
            return str(path)
    return shutil.which("orrery")


@pytest.fixture
def cli(tmp_path):
    """Runs the orrery CLI in tmp_path; returns the completed process."""
    program = _find_cli()
    if program is None:
        pytest.skip("no orrery CLI found (set ORRERY_CLI)")

    def run(*args, check=True):
        done = subprocess.run([program, *map(str, args)], cwd=tmp_path, capture_output=True,
                              text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"orrery {' '.join(map(str, args))}: {done.stderr}")
        return done

    return run
