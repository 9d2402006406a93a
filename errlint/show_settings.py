"""`errlint --show-settings`: the project, its config (or the config's problems, then the defaults),
the settings in effect and every rule's state."""
from __future__ import annotations

from typing import Optional

import click

from .packs import PackError
from .runner import Selection


def show_settings(project, selection: Selection, cache_dir: Optional[str] = None, no_cache: bool = False) -> None:
    """The project, its config (or the config's problems, then the defaults), the settings in effect
    (the command line's selectors and cache flags applied) and every rule's state."""
    from dataclasses import fields

    from .config import shown_path
    from .runner import load_packs
    from .registry import select_rules

    settings = project.settings
    for line in project.config_errors:
        click.echo(f"errlint: {line}", err=True)
    if project.config_errors:
        click.echo("errlint: showing the defaults instead of the invalid config; fix the problems above, then run `errlint --show-settings` again", err=True)
    config = shown_path(project.config_file) if project.config_file else "(none: defaults)"
    click.echo(f"config: {config}{' (invalid: defaults shown)' if project.config_errors else ''}")
    click.echo(f"project root: {project.root}{'' if project.anchored else ' (no pyproject.toml, errlint.toml, setup.cfg or .git above: the current directory)'}")
    click.echo("cache: off (--no-cache)" if no_cache else f"cache: {project.cache_dir(cache_dir)}")
    versions = project.versions()
    for package in ("mcp", "fastmcp"):
        version, source = versions.get(package, ("", ""))
        shown = f"{version} (from {source})" if version else "not detected (no pin in uv.lock, poetry.lock, pdm.lock, requirements*.txt, pyproject.toml or setup.cfg at the root, and not installed in its .venv)"
        click.echo(f"{package} version: {shown}")
    cli = {"select": selection.select, "extend_select": selection.extend_select, "ignore": selection.ignore}
    for f in fields(settings):
        if f.name in ("config_path", "project_root", "project_is_repo"):
            continue
        value = getattr(settings, f.name)
        if f.name == "select" and cli["select"]:
            value = tuple(cli["select"])  # the command line's --select replaces the config's
        elif f.name in ("extend_select", "ignore") and cli[f.name]:
            value = tuple(value) + tuple(cli[f.name])  # added to the config's
        click.echo(f"{f.name.replace('_', '-')} = {value!r}")
    from . import tokens

    click.echo(f"token counter: {tokens.backend()}")
    try:
        packs = load_packs(settings)
    except PackError as exc:  # shown, like a config problem; the rules below are errlint's own
        from .packs import bundled

        click.echo(f"errlint: {exc}", err=True)
        project.config_errors.append(str(exc))
        packs = bundled()
    rules, reasons = select_rules(settings, packs, selection.select, selection.extend_select, selection.ignore)
    click.echo("rules:")
    enabled = {r.code for r in rules}
    for code, reason in sorted(reasons.items()):
        click.echo(f"  {code} {'on ' if code in enabled else 'off'}  {reason}")
