"""Which parameters of each project function may carry caller input, across the project.

A parameter carries input when some call passes it input: a value from a source (a request,
`sys.argv`, the environment), or one computed from a parameter of the calling function that carries
input itself. What each call passes comes from the per-file pass (`extract.call_arguments`).

Every parameter of a function carries input when errlint cannot see all its callers: an entry point,
a public function nothing in the project calls but its tests (a library's API, a callback a framework
calls), or one reached another way (a dispatch table, a decorator, a function passed on as an
argument, a call at module level). A private function (`_name`) at module level, with no
decorator (a decorator may register it with a framework that calls it), that nothing in the
project calls is no API: no caller outside the project has it, so it passes no input
on; the code is dead, or run by tests only. A private method stays open (`getattr(self, f"_do_{x}")`
reaches methods by a name no call site shows), and so does a nested function, which its parent may
return. (A module-level function returned by name, `return _parse`, is the one escape this does not
see: the per-file pass records functions passed on as arguments, not returned ones.)

A helper whose every call passes fixed values (literals, constants, data read from a file or an
archive) gets no input through its parameters, so a guard on them is an internal check, not one the
caller can satisfy (`engine` keeps a variant of such a message's findings judged that way, and the
parameters its guard tests; the variant is used when none of those carries input).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Set, Tuple

from .project_model import ProjectModel, is_test_module

Sites = List[Tuple[str, list]]


def _parameter(sig: list, slot, method: bool) -> Optional[str]:
    positional, keyword_only, star, kwstar = sig
    if isinstance(slot, int):
        index = slot + (1 if method else 0)
        return positional[index] if index < len(positional) else star or None
    return slot if slot in positional or slot in keyword_only else kwstar or None


def _all(sig: list) -> Set[str]:
    positional, keyword_only, star, kwstar = sig
    return {p for p in positional + keyword_only + [star, kwstar] if p and p not in ("self", "cls")}


def _private_function(fq: str, fn: dict) -> bool:
    """`_flatten_source`, `__mangled`: an undecorated module-level function the project keeps to
    itself; `__init__` is Python's."""
    name = fq.rsplit(".", 1)[-1]
    if fn.get("cls") or fn.get("decos") or fn.get("parent"):
        # a method (`getattr(self, f"_do_{x}")`), one its decorator registers (`@server.read_resource()`),
        # or a nested function, which its parent may hand out (`return _parse`): called where no call site shows
        return False
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def input_params(model: ProjectModel, entries: Set[str]) -> Dict[str, Set[str]]:
    """fq -> the parameters of the function that may carry caller input."""
    calls, other = model.incoming()
    incoming: Dict[str, Sites] = {}
    unknown: Set[str] = set(entries) | other
    for target, edges in calls.items():
        for caller, name, _ in edges:
            if is_test_module(model.module_of[caller]):  # tests call with fixed values by design; they say nothing of real callers
                continue
            sites = model.functions[caller].get("args", {}).get(name)
            if sites is None:  # a call through a dispatch table or an unclassified callee: any argument
                unknown.add(target)
            else:
                incoming.setdefault(target, []).extend((caller, site) for site in sites)
    every = {fq: _all(fn.get("params") or [[], [], "", ""]) for fq, fn in model.functions.items()}
    inputs: Dict[str, Set[str]] = {
        fq: set(every[fq]) if fq in unknown or fq not in incoming and not _private_function(fq, fn) else set()
        for fq, fn in model.functions.items()}
    changed = True
    rounds = 0
    while changed and rounds < 50:
        changed, rounds = False, rounds + 1
        for target, sites in incoming.items():
            fn = model.functions.get(target)
            if fn is None or inputs[target] == every[target]:  # every parameter carries input: nothing more to learn
                continue
            sig = fn.get("params") or [[], [], "", ""]
            method = bool(fn["cls"]) and bool(sig[0]) and sig[0][0] in ("self", "cls")
            have = inputs[target]
            for caller, site in sites:
                for slot, kind in site:
                    if kind == "*":
                        new = every[target]
                    elif kind == "s" or kind[:2] in ("p:", "d:") and set(kind[2:].split(",")) & inputs.get(caller, set()):
                        param = _parameter(sig, slot, method)
                        new = {param} if param else set()
                    else:
                        continue
                    if not new <= have:
                        have |= new
                        changed = True
    return inputs


Forwarded = Dict[str, Dict[str, Set[Tuple[str, str]]]]


def forwarded_params(model: ProjectModel, entries: Dict[str, str]) -> Forwarded:
    """fq -> parameter -> the (entry point, its parameter) whose value the parameter receives.

    `entries` maps the entry points that take their inputs as parameters (MCP tools, click and
    typer commands) to their audience. A helper's parameter stands for an entry point's input when
    a call passes it a value computed from that one input alone (`_check_limit(limit)`,
    `_check_range(int(offset), 0, 100)`), from the entry point itself or through other helpers that
    pass it on. A value computed from several inputs stands for none of them."""
    calls, _ = model.incoming()
    out: Forwarded = {}
    for fq in entries:
        fn = model.functions.get(fq)
        if fn is not None:
            out[fq] = {p: {(fq, p)} for p in _all(fn.get("params") or [[], [], "", ""])}
    sites: List[Tuple[str, str, list]] = []
    for target, edges in calls.items():
        for caller, name, _ in edges:
            if is_test_module(model.module_of[caller]):
                continue
            for site in model.functions[caller].get("args", {}).get(name) or ():
                sites.append((target, caller, site))
    changed, rounds = True, 0
    while changed and rounds < 20:
        changed, rounds = False, rounds + 1
        for target, caller, site in sites:
            given = out.get(caller)
            fn = model.functions.get(target)
            if not given or fn is None or target in entries:
                continue
            sig = fn.get("params") or [[], [], "", ""]
            method = bool(fn["cls"]) and bool(sig[0]) and sig[0][0] in ("self", "cls")
            for slot, kind in site:
                source = kind[2:] if kind.startswith("d:") else ""
                if source not in given:
                    continue
                param = _parameter(sig, slot, method)
                if not param or param in (sig[2], sig[3]):
                    continue  # gathered into `*args` or `**kwargs`: no one parameter stands for it
                have = out.setdefault(target, {}).setdefault(param, set())
                if not given[source] <= have:
                    have |= given[source]
                    changed = True
    return out


class ParameterInputs:
    """Lazily computed `input_params` and `forwarded_params` for one project model."""

    def __init__(self, model: ProjectModel, entries: Set[str], named_entries: Optional[Dict[str, str]] = None):
        self.model = model
        self.entries = entries
        self.named_entries = named_entries or {}
        self._inputs: Optional[Dict[str, Set[str]]] = None
        self._forwarded: Optional[Forwarded] = None

    def forwarded(self, fq: str, params: Sequence[str], audience: str) -> List[Tuple[str, str, str]]:
        """(parameter of `fq`, entry point, the entry point's input) for each of `params` that
        receives one input of an entry point of `audience` (`forwarded_params`)."""
        if not params or not self.named_entries:
            return []
        if self._forwarded is None:
            self._forwarded = forwarded_params(self.model, self.named_entries)
        found = self._forwarded.get(fq, {})
        return sorted((p, entry, name) for p in params for entry, name in found.get(p, ()) if self.named_entries.get(entry) == audience)

    def fixed(self, fq: str, params: Sequence[str]) -> bool:
        """True when none of `params` (parameters of `fq`, the ones a guard tests) carries caller
        input: every call in the project passes them fixed values."""
        if not params:
            return False
        if self._inputs is None:
            self._inputs = input_params(self.model, self.entries)
        return fq in self._inputs and not set(params) & self._inputs[fq]
