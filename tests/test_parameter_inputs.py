"""A helper's parameter is caller input only when some call in the project passes input
(`extract.call_arguments`, `parameter_inputs`). A guard on parameters that every call fills with
fixed values (literals, constants, data read from a file or an archive) is a check of the project's
own code: no content finding."""
from __future__ import annotations

from errlint.extract.walker import extract
from errlint.parameter_inputs import input_params
from errlint.project_model import ProjectModel
from errlint.project_summary import summarize

import libcst as cst

from test_audience import make_project, run_json

CHECK = '''
PERMS = {"r", "w"}

def check(permission):
    if permission not in PERMS:
        raise ValueError("Invalid permission argument: %r" % permission)
    return True
'''


def codes_in(tmp_path, monkeypatch, files: dict, filename: str = "helpers.py") -> set:
    diagnostics = run_json(make_project(tmp_path, files), monkeypatch, "--preview")
    return {(d["location"]["row"], d["code"]) for d in diagnostics if d["filename"] == filename}


def cli(body: str) -> str:
    return "import click\nimport helpers\n\n@click.command()\n@click.argument('name')\ndef main(name):\n" + body


def test_every_call_passes_a_literal(tmp_path, monkeypatch):
    files = {"helpers.py": CHECK, "cli.py": cli("    helpers.check('r')\n    if helpers.check('w'):\n        click.echo(name)\n")}
    assert codes_in(tmp_path, monkeypatch, files) == set()


def test_one_call_passes_the_command_argument(tmp_path, monkeypatch):
    files = {"helpers.py": CHECK, "cli.py": cli("    helpers.check('r')\n    helpers.check(name)\n")}
    assert codes_in(tmp_path, monkeypatch, files) == {(6, "AEM204")}


def test_input_passed_on_through_another_helper(tmp_path, monkeypatch):
    # cli -> relay(name) -> check(perm): the chain carries the command's argument
    relay = "import helpers\n\ndef relay(perm, flag=False):\n    return helpers.check(perm.lower())\n"
    files = {"helpers.py": CHECK, "relay.py": relay, "cli.py": cli("    import relay\n    relay.relay(name)\n")}
    assert codes_in(tmp_path, monkeypatch, files) == {(6, "AEM204")}
    # the same chain fed a constant is the project's own check
    files["cli.py"] = cli("    import relay\n    relay.relay('R', flag=name)\n")
    assert codes_in(tmp_path / "b", monkeypatch, files) == set()


def test_values_read_from_an_archive_are_not_input(tmp_path, monkeypatch):
    helper = ('def safe_member(name):\n    if " " in name:\n        raise ValueError(f"member name with a space in archive: {name}")\n'
              '    return name\n')
    server = ("import tarfile, io\nimport httpx\nfrom fastmcp import FastMCP\nimport helpers\nmcp = FastMCP('x')\n\n"
              "@mcp.tool()\ndef unpack(paper_id: str) -> str:\n    data = httpx.get(f'https://arxiv.org/e-print/{paper_id}').content\n"
              "    with tarfile.open(fileobj=io.BytesIO(data)) as archive:\n        for member in archive.getmembers():\n"
              "            helpers.safe_member(member.name)\n    return 'ok'\n")
    assert codes_in(tmp_path, monkeypatch, {"helpers.py": helper, "server.py": server}) == set()
    # handed the tool's own argument, the same guard is the agent's to satisfy
    server_input = server.replace("helpers.safe_member(member.name)", "helpers.safe_member(paper_id)")
    assert any(row == 3 for row, _ in codes_in(tmp_path / "b", monkeypatch, {"helpers.py": helper, "server.py": server_input}))


def test_a_method_called_with_constants_through_self(tmp_path, monkeypatch):
    helper = ("class Access:\n    def __init__(self, perms):\n        self.perms = perms\n\n"
              "    def check(self, permission):\n        if permission not in ('r', 'w'):\n"
              "            raise ValueError(f'Invalid permission argument: {permission!r}')\n        return permission in self.perms\n\n"
              "    def can_read(self):\n        return self.check('r')\n")
    body = "    access = helpers.Access(name)\n    click.echo(access.can_read())\n"
    assert codes_in(tmp_path, monkeypatch, {"helpers.py": helper, "cli.py": cli(body)}) == set()


def test_a_function_nothing_in_the_project_calls_keeps_its_findings(tmp_path, monkeypatch):
    # a library's API: its callers are outside the project, so its parameters are input
    assert codes_in(tmp_path, monkeypatch, {"helpers.py": CHECK}) == {(6, "AEM204")}


def test_a_function_passed_as_a_callback_keeps_its_findings(tmp_path, monkeypatch):
    body = "    helpers.check('r')\n    for p in map(helpers.check, name.split(',')):\n        click.echo(p)\n"
    assert codes_in(tmp_path, monkeypatch, {"helpers.py": CHECK, "cli.py": cli(body)}) == {(6, "AEM204")}


def _site(code: str) -> list:
    facts = extract(cst.parse_module(code))
    fn = next(f for f in facts.functions if f.name == "caller")
    return fn.call_args, fn.refs


def test_argument_kinds():
    args, refs = _site("import os, helpers\nLIMIT = 3\ndef caller(a, b, *rest, **kw):\n    x = a.strip()\n    t = {'k': 1}\n"
                       "    helpers.f(1, x, LIMIT, t[b], os.environ['HOME'], *rest, key=b, **kw)\n")
    # `x = a.strip()` and `b` pass the input on as sent ("d:"); `t[b]` is a record found with it ("c")
    assert args["helpers.f"] == [[[0, "c"], [1, "d:a"], [2, "c"], [3, "c"], [4, "s"], ["*", "*"], ["key", "d:b"], ["*", "*"]]]
    assert refs == [["LIMIT", "helpers.f"]]  # names passed on, with the call they go to (a function would run in it); locals are left out


def test_argument_built_from_an_input_is_not_the_input():
    """A value built from one input (a query around it, a field or record reached through it) is
    input, but it does not stand for the input: "p:", not "d:"."""
    args, _ = _site("import helpers\ndef caller(a, ctx, n):\n    q = f'SELECT * FROM t ORDER BY {a}'\n    m = int(n) if n else 0\n"
                    "    helpers.f(q, ctx.client, a + '.json', int(n.strip()), m)\n")
    assert args["helpers.f"] == [[[0, "p:a"], [1, "p:ctx"], [2, "p:a"], [3, "d:n"], [4, "p:n"]]]


def test_fixpoint_over_a_chain():
    files = {
        "/p/cli.py": "import click\nimport mid\n@click.command()\n@click.argument('n')\ndef main(n):\n    mid.relay(n, 2)\n",
        "/p/mid.py": "import leaf\ndef relay(value, other):\n    leaf.use(other)\n    leaf.use2(value)\n",
        "/p/leaf.py": "def use(v):\n    return v\ndef use2(v):\n    return v\n",
    }
    summaries = [(path, summarize(extract(cst.parse_module(code)))) for path, code in files.items()]
    model = ProjectModel(summaries)
    entries = {node for node, _, _ in model.entry_points()}
    inputs = input_params(model, entries)
    assert inputs["mid.relay"] == {"value"}
    assert inputs["leaf.use"] == set()
    assert inputs["leaf.use2"] == {"v"}
    assert inputs["cli.main"] == {"n"}


def test_calls_from_tests_do_not_fix_a_parameter(tmp_path, monkeypatch):
    test = "import helpers\n\ndef test_rejects():\n    helpers.check('x')\n"
    assert codes_in(tmp_path, monkeypatch, {"helpers.py": CHECK, "tests/test_helpers.py": test}) == {(6, "AEM204")}


def test_bytes_a_project_helper_downloaded_are_not_input(tmp_path, monkeypatch):
    # arxiv's shape: the tool downloads the archive for the paper id the agent sent, and a helper checks
    # the archive's own limits; the agent chose the paper, not the archive's contents
    helper = ("MAX_TOTAL = 10\n\ndef extract(data: bytes) -> int:\n    total = 0\n    for size in data:\n        total += size\n"
              "        if total > MAX_TOTAL:\n            raise ValueError('source archive expanded size exceeds safety limit')\n    return total\n")
    server = ("import httpx\nfrom fastmcp import FastMCP\nimport helpers\nmcp = FastMCP('x')\n\n"
              "def _download_source_archive(paper_id: str) -> bytes:\n    return httpx.get(f'https://arxiv.org/e-print/{paper_id}').content\n\n"
              "@mcp.tool()\ndef source(paper_id: str) -> int:\n    return helpers.extract(_download_source_archive(paper_id))\n")
    assert codes_in(tmp_path, monkeypatch, {"helpers.py": helper, "server.py": server}) == set()
    # a helper that shapes the agent's own value passes input on
    server_input = server.replace("helpers.extract(_download_source_archive(paper_id))", "helpers.extract(paper_id.encode())")
    assert (8, "AEM204") in codes_in(tmp_path / "b", monkeypatch, {"helpers.py": helper, "server.py": server_input})


def test_only_the_parameters_the_guard_tests_matter(tmp_path, monkeypatch):
    # httpx's shape: the request is the caller's, the redirect history is built from responses
    helper = ("MAX_REDIRECTS = 20\n\ndef follow(request, history):\n    while True:\n        if len(history) > MAX_REDIRECTS:\n"
              "            raise RuntimeError('Exceeded maximum allowed redirects.')\n        if not request:\n"
              "            raise ValueError('Invalid request')\n        history = history + [_send_single_request(request)]\n\n\n"
              "def _send_single_request(request):\n    return request\n")
    body = "    helpers.follow(name, [])\n"
    codes = codes_in(tmp_path, monkeypatch, {"helpers.py": helper, "cli.py": cli(body)})
    assert not any(row == 6 for row, _ in codes)  # the history guard: the project's own limit
    assert any(row == 8 for row, _ in codes)  # the request guard: the command's argument


def test_a_nested_function_called_by_its_parent_has_call_sites(tmp_path, monkeypatch):
    helper = ("LIMIT = 100\n\ndef flatten(parts):\n    total = 0\n\n    def emit(value):\n        nonlocal total\n        total += len(value)\n"
              "        if total > LIMIT:\n            raise ValueError('flattened source exceeds the limit')\n\n"
              "    for part in parts:\n        emit('x' * 3)\n    return total\n")
    body = "    helpers.flatten([name])\n"
    assert not any(row == 10 for row, _ in codes_in(tmp_path, monkeypatch, {"helpers.py": helper, "cli.py": cli(body)}))
    fed = helper.replace("emit('x' * 3)", "emit(part)")
    assert any(row == 10 for row, _ in codes_in(tmp_path / "b", monkeypatch, {"helpers.py": fed, "cli.py": cli(body)}))


BUDGET = '''
class _Budget:
    def __init__(self, total):
        self.remaining = total

    def take(self, data, limit):
        if len(data) > limit:
            raise ValueError("The project is too large to read.")
        return data
'''


def test_method_of_an_instance_the_code_made(tmp_path, monkeypatch):
    # `budget = helpers._Budget(...)` (a private class); `budget.take(...)` with fixed values: the guard is the project's own check
    body = "    budget = helpers._Budget(10)\n    budget.take(b'abc', 5)\n    click.echo(name)\n"
    files = {"helpers.py": BUDGET, "cli.py": cli(body)}
    assert codes_in(tmp_path, monkeypatch, files) == set()
    # the same method handed the command's argument checks caller input
    files["cli.py"] = cli("    budget = helpers._Budget(10)\n    budget.take(name, 5)\n")
    assert {code for _, code in codes_in(tmp_path / "b", monkeypatch, files)} >= {"AEM202"}


def test_a_list_of_the_worlds_answers_stays_the_projects_own(tmp_path, monkeypatch):
    # httpx's auth loop: `history` grows with responses to the caller's request; the response is the
    # world's answer, so the history passed on is the project's own, though `request` is among its
    # ancestors (`call_arguments`: a parameter counts when it alone makes the argument input)
    helper = ("MAX_REDIRECTS = 20\n\n\nclass Client:\n    def send(self, request):\n        return self._auth(request, history=[])\n\n"
              "    def _auth(self, request, history):\n        while True:\n            response = self._send_handling_redirects(request, history=history)\n"
              "            history = history + [response]\n\n"
              "    def _send_handling_redirects(self, request, history):\n        if len(history) > MAX_REDIRECTS:\n"
              "            raise RuntimeError('Exceeded maximum allowed redirects.')\n        return request\n")
    body = "    helpers.Client().send(name)\n"
    codes = codes_in(tmp_path, monkeypatch, {"helpers.py": helper, "cli.py": cli(body)})
    assert not any(row == 15 for row, _ in codes), codes
    # the same list grown with the command's own argument is input
    passed_on = helper.replace("history = history + [response]", "history = history + [request]")
    codes = codes_in(tmp_path / "b", monkeypatch, {"helpers.py": passed_on, "cli.py": cli(body)})
    assert any(row == 15 for row, _ in codes), codes


# A method the project defines, called on a receiver whose class errlint knows only by dispatch over
# the class hierarchy: the calls' arguments decide, as for any other call.
LOCK = ("class BaseStore:\n    def acquire(self, mode):\n        raise NotImplementedError\n\n"
        "class FileStore(BaseStore):\n    def acquire(self, mode):\n        if mode not in ('r', 'w'):\n"
        "            raise ValueError('Invalid mode: %r' % mode)\n        return mode\n\n"
        "def load(kind):\n    return {'file': FileStore}[kind]()\n")


def test_a_method_on_what_a_factory_returns(tmp_path, monkeypatch):
    # `store = helpers.load(...)`: the receiver's class is known only up to BaseStore
    body = "    store = helpers.load('file')\n    store.acquire('r')\n    click.echo(name)\n"
    assert codes_in(tmp_path, monkeypatch, {"helpers.py": LOCK, "cli.py": cli(body)}) == set()
    body_input = "    store = helpers.load('file')\n    store.acquire(name)\n"
    assert codes_in(tmp_path / "b", monkeypatch, {"helpers.py": LOCK, "cli.py": cli(body_input)}) == {(8, "AEM204")}


def test_a_method_on_a_parameter_of_unknown_class(tmp_path, monkeypatch):
    # `def run(store)` with no annotation: every caller hands some store, each call passes "w"
    relay = "def save(store, text):\n    store.acquire('w')\n    return text\n"
    body = "    import relay\n    relay.save(helpers.load('file'), name)\n"
    files = {"helpers.py": LOCK, "relay.py": relay, "cli.py": cli(body)}
    assert codes_in(tmp_path, monkeypatch, files) == set()
    files["relay.py"] = "def save(store, text):\n    store.acquire(text)\n    return text\n"
    assert codes_in(tmp_path / "b", monkeypatch, files) == {(8, "AEM204")}


def test_a_method_on_an_element_of_a_registry(tmp_path, monkeypatch):
    # handlers filled by a decorator: the element's class comes from the hierarchy; the tool passes
    # a constant, then its own argument
    helper = ("REGISTRY = []\n\ndef register(cls):\n    REGISTRY.append(cls())\n    return cls\n\n"
              "class Exporter:\n    def export(self, fmt):\n        raise NotImplementedError\n\n"
              "@register\nclass CsvExporter(Exporter):\n    def export(self, fmt):\n        if fmt not in ('csv', 'tsv'):\n"
              "            raise ValueError(f'Cannot export as {fmt!r}')\n        return fmt\n")
    server = ("from fastmcp import FastMCP\nimport helpers\nmcp = FastMCP('x')\n\n@mcp.tool()\ndef export(table: str) -> str:\n"
              "    for exporter in helpers.REGISTRY:\n        exporter.export('csv')\n    return table\n")
    files = {"helpers.py": helper, "server.py": server}
    assert codes_in(tmp_path, monkeypatch, files) == set()
    files["server.py"] = server.replace("exporter.export('csv')", "exporter.export(table)")
    assert codes_in(tmp_path / "b", monkeypatch, files) == {(15, "AEM204")}


def test_builtin_methods_on_locals_are_not_recorded():
    # `parts.append(x)` can reach no project function: no call site is kept for it, while a method
    # only a project class defines is kept
    module = cst.parse_module("def f(name, store):\n    parts = []\n    parts.append(name)\n    store.acquire_lock('r')\n")
    facts = extract(module, "m.py")
    fn = [f for f in facts.functions if f.name == "f"][0]
    assert fn.call_args == {"<>.acquire_lock": [[[0, "c"]]]}
