"""Project set-up: environment.yml lists what pyproject.toml lists; the Makefile targets exist."""
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement):
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _pyproject_packages():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        names |= {_name(r) for r in extra}
    return names


def _environment():
    return yaml.safe_load((ROOT / "environment.yml").read_text())


def test_environment_yml_lists_the_same_packages_as_pyproject():
    environment = _environment()
    conda = {_name(d) for d in environment["dependencies"] if isinstance(d, str)}
    pip = [d for d in environment["dependencies"] if isinstance(d, dict)][0]["pip"]
    assert "-e ." in pip
    listed = (conda - {"python", "pip"}) | {_name(d) for d in pip if d != "-e ."}
    assert listed == _pyproject_packages()


def test_environment_yml_uses_conda_forge_and_python_312():
    environment = _environment()
    assert environment["channels"] == ["conda-forge"]
    assert "python=3.12" in environment["dependencies"]


def test_versions_agree_where_both_pin_one():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = {_name(r): r.split(">=")[1] for extra in project["optional-dependencies"].values()
              for r in extra if ">=" in r}
    pinned |= {_name(r): r.split(">=")[1] for r in project["dependencies"] if ">=" in r}
    environment = _environment()
    entries = [d for d in environment["dependencies"] if isinstance(d, str)]
    entries += [d for d in environment["dependencies"] if isinstance(d, dict)][0]["pip"]
    for entry in entries:
        if ">=" in entry:
            assert pinned[_name(entry)] == entry.split(">=")[1], entry


def test_makefile_has_the_readme_commands():
    makefile = (ROOT / "Makefile").read_text()
    for target in ("demo", "test", "lab", "present", "bench"):
        assert re.search(rf"^{target}:", makefile, re.MULTILINE), target
    assert "make test" in (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    assert readme.index("make demo") < readme.index("make test") < 600
