# SPDX-License-Identifier: MIT
# The examples compile, and name only what the module has (they run outside CI: they draw with
# matplotlib and take seconds to minutes); without matplotlib they say what to install.
import ast
import os
import pathlib
import py_compile
import subprocess
import sys

import pytest

import orrery

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "python").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_compiles_and_uses_the_module_s_names(path):
    py_compile.compile(str(path), doraise=True)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "orrery":
            assert hasattr(orrery, node.attr), f"{path.name}: orrery.{node.attr}"


def test_there_are_examples():
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("path", [p for p in EXAMPLES if "matplotlib" in p.read_text()],
                         ids=lambda p: p.name)
def test_an_example_without_matplotlib_says_what_to_install(path, tmp_path):
    # A matplotlib that cannot be imported, first on the path, as on a python without it.
    (tmp_path / "matplotlib.py").write_text("raise ModuleNotFoundError(\"No module named 'matplotlib'\")\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=120)
    assert done.returncode == 1
    assert "draws with matplotlib" in done.stderr and "python3-matplotlib" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
