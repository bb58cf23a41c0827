"""The rules core is plain Python: no module under scorekeeper/rules imports Django."""

import ast
import pathlib
import subprocess
import sys

RULES = pathlib.Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"


def test_no_module_imports_django_statically():
    offenders = []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "django"]
    assert list(RULES.rglob("*.py")), "no rules modules found"
    assert offenders == []


def test_importing_every_rules_module_loads_no_django():
    modules = sorted(
        "scorekeeper.rules." + ".".join(p.relative_to(RULES).with_suffix("").parts)
        for p in RULES.rglob("*.py")
        if p.name != "__init__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=RULES.parents[1]
    )
    assert run.returncode == 0, run.stdout + run.stderr
