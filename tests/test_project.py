"""One project root, found as ruff finds it, read by the config, the cache, version detection,
path patterns and `errlint clean`; `--show-settings` names the detected mcp version and its source."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from errlint.cli import main
from errlint.project import find_root, load_project

BAD = 'raise RuntimeError("An unexpected error occurred.")\n'
UV_LOCK = '[[package]]\nname = "mcp"\nversion = "1.9.4"\n\n[[package]]\nname = "httpx"\nversion = "0.28.1"\n'


def run(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


def make(root: Path, files: dict) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project whose pyproject.toml has no [tool.errlint] table, with the mcp pin in uv.lock."""
    root = make(tmp_path / "proj", {
        "pyproject.toml": '[project]\nname = "proj"\ndependencies = ["mcp>=1.2"]\n',
        "uv.lock": UV_LOCK,
        "src/pkg/a.py": BAD,
        "src/pkg/gen_client.py": BAD,
    })
    monkeypatch.chdir(root)
    return root


def test_cache_lives_in_the_project_root_not_in_the_folder_checked(project):
    assert run(["src/pkg"]).exit_code == 1
    assert (project / ".errlint_cache" / "CACHEDIR.TAG").is_file()
    assert not (project / "src" / "pkg" / ".errlint_cache").exists()
    assert not (project / "src" / ".errlint_cache").exists()


def test_the_same_root_from_a_subfolder(project, monkeypatch):
    monkeypatch.chdir(project / "src" / "pkg")
    assert run(["."]).exit_code == 1
    assert (project / ".errlint_cache").is_dir()
    assert not (project / "src" / "pkg" / ".errlint_cache").exists()


def test_clean_removes_the_cache_check_uses(project, monkeypatch):
    run(["src/pkg"])
    monkeypatch.chdir(project / "src" / "pkg")
    result = run(["clean"])
    assert result.output == f"Removed {project / '.errlint_cache'}\n"
    assert not (project / ".errlint_cache").exists()
    assert run(["clean"]).output == f"No cache at {project / '.errlint_cache'}\n"


def test_clean_with_paths_and_a_broken_config(project):
    run(["src/pkg"])
    (project / "errlint.toml").write_text("select = [")  # broken: the cache is still found
    result = run(["clean", "src/pkg"])
    assert result.exit_code == 0 and not (project / ".errlint_cache").exists()


def test_path_patterns_are_relative_to_the_root(project):
    result = run(["src/pkg", "--extend-exclude", "src/pkg/gen_*.py", "--output-format", "json"])
    assert '"filename": "src/pkg/a.py"' in result.output
    assert "gen_client" not in result.output


def test_show_settings_names_the_root_and_the_mcp_version_with_its_source(project):
    out = run(["--show-settings", "src/pkg"]).output
    assert f"project root: {project}\n" in out
    assert f"cache: {project / '.errlint_cache'}\n" in out
    assert "mcp version: 1.9.4 (from uv.lock)\n" in out
    assert "fastmcp version: not detected" in out


def test_version_from_requirements_then_config_wins(tmp_path, monkeypatch):
    root = make(tmp_path, {"setup.cfg": "[metadata]\nname = x\n", "requirements-dev.txt": "mcp==1.3.0\n", "pkg/a.py": BAD})
    monkeypatch.chdir(root / "pkg")
    assert f"mcp version: 1.3.0 (from {root / 'requirements-dev.txt'})" in run(["--show-settings"]).output
    monkeypatch.chdir(root)
    (root / "errlint.toml").write_text('mcp-version = "1.10.0"\n')
    assert "mcp version: 1.10.0 (from mcp-version in errlint.toml)" in run(["--show-settings", "pkg"]).output


@pytest.mark.parametrize("marker", ["pyproject.toml", "errlint.toml", ".errlint.toml", "setup.cfg", ".git"])
def test_each_marker_makes_a_root(tmp_path, marker):
    make(tmp_path, {"outer/.git/HEAD": "ref: refs/heads/main\n", "outer/inner/src/a.py": BAD})
    inner = tmp_path / "outer" / "inner"
    if marker == ".git":
        (inner / ".git").mkdir()
    else:
        (inner / marker).write_text("")
    assert find_root([str(inner / "src" / "a.py")]) == (inner.resolve(), True)


def test_common_folder_of_several_paths(tmp_path):
    make(tmp_path, {"p/pyproject.toml": "", "p/a/x.py": BAD, "p/b/y.py": BAD})
    assert find_root([str(tmp_path / "p/a/x.py"), str(tmp_path / "p/b")]) == ((tmp_path / "p").resolve(), True)


def test_no_marker_means_the_current_directory(tmp_path, monkeypatch):
    make(tmp_path, {"sub/deeper/a.py": BAD})
    monkeypatch.chdir(tmp_path)
    if find_root(["."])[1]:
        pytest.skip("a folder above the temporary directory holds a project marker")
    assert run(["sub/deeper"]).exit_code == 1
    assert (tmp_path / ".errlint_cache").is_dir()
    assert not (tmp_path / "sub" / "deeper" / ".errlint_cache").exists()


def test_config_and_root_come_from_one_project_object(project):
    (project / "errlint.toml").write_text('ignore = ["AEM101"]\n')
    found = load_project(["src/pkg"])
    assert found.root == project.resolve()
    assert found.config_file is not None and found.config_file.name == "errlint.toml"
    assert found.settings.project_root == str(project.resolve())
    assert found.cache_dir() == project.resolve() / ".errlint_cache"
    assert found.versions()["mcp"] == ("1.9.4", "uv.lock")


# ---------------------------------------------------------------------- mcp version: pyproject pins and the project's .venv

def metadata(name: str, version: str) -> str:
    return f"Metadata-Version: 2.3\nName: {name}\nVersion: {version}\nSummary: x\n\nVersion: 0.0.0 in the description is not a header\n"


SITE = ".venv/lib/python3.12/site-packages"
MCP2_SERVER = (
    "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('x')\n\n\n"
    "@mcp.tool()\ndef f(x: str) -> str:\n    raise ValueError(f'Unknown {x!r}; call list_x.')\n"
)


def test_version_installed_in_the_projects_venv(tmp_path, monkeypatch):
    root = make(tmp_path / "proj", {
        "pyproject.toml": '[project]\nname = "proj"\ndependencies = ["mcp", "fastmcp"]\n',
        f"{SITE}/mcp-2.1.0.dist-info/METADATA": metadata("mcp", "2.1.0"),
        f"{SITE}/fastmcp-2.3.4.dist-info/METADATA": metadata("fastmcp", "2.3.4"),
        # other packages whose names start with mcp/fastmcp are not them
        f"{SITE}/mcp_server_git-0.6.2.dist-info/METADATA": metadata("mcp-server-git", "0.6.2"),
        f"{SITE}/fastmcp_extras-9.9.dist-info/METADATA": metadata("fastmcp-extras", "9.9"),
        "server.py": MCP2_SERVER,
    })
    monkeypatch.chdir(root)
    out = run(["--show-settings"]).output
    assert f"mcp version: 2.1.0 (from {SITE}/mcp-2.1.0.dist-info/METADATA)\n" in out
    assert f"fastmcp version: 2.3.4 (from {SITE}/fastmcp-2.3.4.dist-info/METADATA)\n" in out
    # the version is used: mcp 2.1 masks a ValueError's text (AEM603 says which version it read)
    result = run(["--no-cache", "--preview", "--select", "AEM603", "server.py"])
    assert result.exit_code == 1 and "(mcp 2.1.0)" in result.output


def test_version_installed_in_a_windows_venv_and_from_the_folder_name(tmp_path, monkeypatch):
    root = make(tmp_path / "proj", {
        "pyproject.toml": '[project]\nname = "proj"\n',
        ".venv/Lib/site-packages/mcp-2.0.1.dist-info/RECORD": "",  # no METADATA: the folder name says it
        "server.py": MCP2_SERVER,
    })
    monkeypatch.chdir(root)
    assert "mcp version: 2.0.1 (from .venv/Lib/site-packages/mcp-2.0.1.dist-info)\n" in run(["--show-settings"]).output
    # mcp 2.0 does not mask the text: no AEM603
    assert run(["--no-cache", "--preview", "--select", "AEM603", "server.py"]).exit_code == 0


def test_version_precedence_lock_then_exact_pin_then_venv_then_lower_bound(tmp_path, monkeypatch):
    root = make(tmp_path / "proj", {
        "pyproject.toml": '[project]\nname = "proj"\ndependencies = ["mcp[cli]>=1.9", "fastmcp==2.2.0"]\n',
        f"{SITE}/mcp-2.1.0.dist-info/METADATA": metadata("mcp", "2.1.0"),
        f"{SITE}/fastmcp-2.3.4.dist-info/METADATA": metadata("fastmcp", "2.3.4"),
    })
    monkeypatch.chdir(root)
    out = run(["--show-settings"]).output
    assert f"mcp version: 2.1.0 (from {SITE}/mcp-2.1.0.dist-info/METADATA)\n" in out  # installed beats a lower bound
    assert "fastmcp version: 2.2.0 (from pyproject.toml)\n" in out  # an exact pin beats the installed one
    (root / "uv.lock").write_text(UV_LOCK)
    assert "mcp version: 1.9.4 (from uv.lock)\n" in run(["--show-settings"]).output  # the lock beats all
    (root / "uv.lock").unlink()
    for folder in (root / SITE).iterdir():
        for file in folder.iterdir():
            file.unlink()
        folder.rmdir()
    out = run(["--show-settings"]).output
    assert "mcp version: >=1.9 (from pyproject.toml)\n" in out  # no .venv package: the lower bound


@pytest.mark.parametrize("dependencies, shown", [
    ('["mcp==1.9.0"]', "1.9.0"),
    ('["mcp>=1.9"]', ">=1.9"),
    ('["httpx", "mcp[cli] ~= 1.10"]', ">=1.10"),
    ('["mcp-server-git==0.6", "fastmcp>=2"]', None),
])
def test_version_from_pyproject_project_dependencies(tmp_path, monkeypatch, dependencies, shown):
    root = make(tmp_path / "proj", {"pyproject.toml": f'[project]\nname = "proj"\ndependencies = {dependencies}\n'})
    monkeypatch.chdir(root)
    out = run(["--show-settings"]).output
    expected = f"mcp version: {shown} (from pyproject.toml)\n" if shown else "mcp version: not detected ("
    assert expected in out


def test_venv_of_another_folder_is_not_read(tmp_path, monkeypatch):
    """Only ROOT/.venv: not a parent's, and not the environment errlint runs in."""
    make(tmp_path, {f"{SITE}/mcp-2.1.0.dist-info/METADATA": metadata("mcp", "2.1.0")})
    root = make(tmp_path / "proj", {"pyproject.toml": '[project]\nname = "proj"\n'})
    monkeypatch.chdir(root)
    assert "mcp version: not detected (" in run(["--show-settings"]).output


def test_clean_removes_only_a_folder_errlint_made(project):
    """`errlint clean --cache-dir src` must not delete the user's code: only a folder holding the
    CACHEDIR.TAG errlint writes is removed; anything else is an error (exit 2) and stays."""
    result = run(["clean", "--cache-dir", "src"])
    assert result.exit_code == 2 and "is not an errlint cache" in result.output
    assert (project / "src" / "pkg" / "a.py").is_file()
    result = run(["clean", "--cache-dir", "src/pkg/a.py"])
    assert result.exit_code == 2 and (project / "src" / "pkg" / "a.py").is_file()
    run(["src/pkg", "--cache-dir", "mine"])
    assert (project / "mine" / "CACHEDIR.TAG").is_file()
    result = run(["clean", "--cache-dir", "mine"])
    assert result.exit_code == 0 and not (project / "mine").exists()
