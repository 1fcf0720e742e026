# SPDX-License-Identifier: MIT
# The examples compile, and name only what the module has (they run outside CI: they draw with
# matplotlib and take seconds to minutes).
import ast
import pathlib
import py_compile

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
