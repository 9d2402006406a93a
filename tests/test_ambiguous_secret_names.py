"""AEM301 by provenance: a name whose only secret word is one that is as often something else
(`token`, `session_id`, `signature`) is a secret only with a credential qualifier, a secret's origin
(an env var, a header or cookie, a loop over credentials) or a message or function that speaks of
authentication. The reviewers' false positives on real code were of this kind: a formula lexer's
`token_value`, a WebDAV `old_token`, a Stata `session_id`, a pagination token, a sharing mode
`collection_by_token`."""
from __future__ import annotations

import pytest

from conftest import at


def aem301(code):
    return at(code, select=["AEM301"])


@pytest.mark.parametrize("code", [
    # a lexer's token, named by what it is a part of
    '''
    def check_function_name(token_value: str):
        raise ValueError(f"{token_value!r} is not a valid function name.")
    ''',
    # a sync token the client sent back
    '''
    def sync(old_token):
        if not old_token.startswith("http://example.org/ns/sync/"):
            raise ValueError("Malformed token: %r" % old_token)
    ''',
    # a session handle an agent chose
    '''
    from fastmcp import FastMCP
    mcp = FastMCP("stata")
    SESSIONS = {}
    @mcp.tool()
    def close_session(session_id: str):
        if session_id not in SESSIONS:
            raise KeyError(f"Session {session_id} not found; call list_sessions.")
    ''',
    # a tokenizer's special token
    '''
    def check_vocab(tokenizer, vocab):
        pad_token = tokenizer.pad_token
        if pad_token not in vocab:
            raise ValueError(f"pad token {pad_token} is not in the vocabulary")
    ''',
    # a function's signature
    '''
    import inspect
    def no_args(fn):
        signature = inspect.signature(fn)
        if signature.parameters:
            raise TypeError(f"{fn.__name__}{signature} must take no arguments")
    ''',
    # a setting about tokens, logged at start-up
    '''
    import logging
    log = logging.getLogger(__name__)
    class Sharing:
        def report(self):
            log.info("sharing.collection_by_token: %s", self.sharing_collection_by_token)
    ''',
    # a record's field read from a pagination object
    '''
    import logging
    log = logging.getLogger(__name__)
    def page(pending):
        next_page_token = pending.token if pending else None
        log.info("Returned a page, next_page_token=%s", next_page_token)
    ''',
])
def test_an_ambiguous_name_with_no_evidence_is_not_a_secret(code):
    assert aem301(code) == []


def test_a_credential_qualifier_makes_the_token_a_secret():
    code = '''
    def upload(github_token, access_token, bot_token):
        raise ValueError(f"Rejected {github_token}")
    def refresh(access_token):
        raise ValueError(f"Cannot use {access_token} here")
    def post(bot_token):
        raise ValueError(f"Chat unreachable with {bot_token}")
    '''
    assert aem301(code) == [(3, "AEM301"), (5, "AEM301"), (7, "AEM301")]


def test_a_secret_origin_makes_the_name_a_secret():
    code = '''
    import logging, os
    log = logging.getLogger(__name__)
    def from_env():
        token = os.environ["TOKEN"]
        raise ValueError(f"Sync with {token} failed")
    def from_header(request):
        token = request.headers["X-Token"]
        raise ValueError(f"Unknown {token}")
    def from_cookie(request):
        session_id = request.cookies.get("session_id")
        raise KeyError(f"No session {session_id}")
    def from_headers(headers):
        for name, token in headers.items():
            log.info("header %s=%s", name, token)
    '''
    assert aem301(code) == [(6, "AEM301"), (9, "AEM301"), (12, "AEM301"), (15, "AEM301")]


def test_a_message_or_function_that_speaks_of_authentication_makes_the_name_a_secret():
    code = '''
    def verify(token):
        raise ValueError(f"Token {token} expired; log in again.")
    def check(signature):  # a signature needs its origin (a header, a MAC): see below
        raise PermissionError(f"Signature {signature} rejected by the webhook")
    def login(user, token):
        raise ValueError(f"Something went wrong for {token}")
    class Authenticator:
        def check(self, session_id):
            raise KeyError(f"No such session {session_id}")
    '''
    assert aem301(code) == [(3, "AEM301"), (7, "AEM301"), (10, "AEM301")]


def test_the_same_lexer_token_is_not_read_as_authentication_by_its_words():
    # "author" is not "auth", and "Malformed"/"Unexpected" say nothing of authentication
    code = '''
    def parse(token):
        raise SyntaxError(f"Unexpected token {token}; the author list ends here")
    '''
    assert aem301(code) == []


def test_the_object_qualifies_an_ambiguous_attribute():
    code = '''
    import logging
    log = logging.getLogger(__name__)
    def f(ctx, auth, pending_page_token, self_like):
        log.info("using %s", ctx.session.token)
        log.info("using %s", auth.token)
        log.info("next page %s", pending_page_token.token)
        log.info("lexer at %s", self_like.lexer.token)
    '''
    assert aem301(code) == [(5, "AEM301"), (6, "AEM301")]


# ------------------------------------------------------------------ evidence of a credential

def test_a_value_sent_to_authenticate_is_a_credential():
    code = '''
    import httpx, requests
    from fastmcp import FastMCP
    from fastmcp.exceptions import ToolError
    mcp = FastMCP("gh")

    @mcp.tool()
    def list_repos(org: str, token: str) -> list:
        r = httpx.get(f"https://api.example.com/orgs/{org}", headers={"Authorization": f"Bearer {token}"})
        if r.status_code != 200:
            raise ToolError(f"The API returned {r.status_code} for {org} with {token}")
        return r.json()

    def post(channel, token, WebClient):
        client = WebClient(token=token)
        raise RuntimeError(f"Posting to {channel} failed with {token}")

    class Client:
        def __init__(self, token):
            self.token = token
            self.session = requests.Session()
            self.session.headers["X-Api-Key"] = self.token

        def get(self, path):
            raise RuntimeError(f"GET {path} failed with {self.token}")

    def ping(s, token):
        s.headers.update({"Authorization": "Bearer " + token})
        raise ConnectionError("ping failed for " + token)
    '''
    assert aem301(code) == [(11, "AEM301"), (16, "AEM301"), (25, "AEM301"), (29, "AEM301")]


def test_a_declaration_or_an_origin_makes_it_a_credential():
    code = '''
    import getpass, hmac, hashlib, logging, os
    import click
    from fastapi import Cookie, FastAPI, Header, HTTPException
    log = logging.getLogger(__name__)
    app = FastAPI()

    @app.get("/items")
    def items(x_token: str = Header(), session_id: str = Cookie(default=None)):
        if x_token != "expected":
            raise HTTPException(status_code=400, detail=f"X-Token header invalid: {x_token}")
        log.warning("unknown session %s", session_id)

    @click.command()
    @click.option("--token", envvar="REGISTRY_TOKEN")
    def push(token):
        raise click.ClickException(f"Unrecognised format: {token}")

    def ask():
        token = getpass.getpass("Token: ")
        raise ValueError(f"Token {token} has the wrong length")

    def verify(secret_key, body):
        expected_signature = hmac.new(secret_key, body, hashlib.sha256).hexdigest()
        raise ValueError(f"mismatch, expected {expected_signature}")

    class Api:
        def __init__(self):
            self.token = os.environ["GITHUB_PAT"]
        def call(self):
            raise RuntimeError(f"Malformed value {self.token}")

    def bearer(request):
        header = request.headers.get("Authorization", "")
        token = header.split(" ", 1)[-1]
        raise ValueError(f"Unknown value {token}")

    def start(settings, args):
        raise RuntimeError(f"gateway closed ({settings.token}, {args.session_id})")
    '''
    assert aem301(code) == [(11, "AEM301"), (12, "AEM301"), (17, "AEM301"), (21, "AEM301"), (25, "AEM301"),
                            (31, "AEM301"), (36, "AEM301"), (39, "AEM301")]


def test_a_signature_needs_its_origin_and_a_name_counts_only_for_its_own_parameters():
    code = '''
    import inspect, logging
    log = logging.getLogger(__name__)

    def register_backend(backend):
        signature = inspect.signature(backend.authenticate)
        raise TypeError(f"authenticate() has an unsupported signature {signature}")

    class AuthMiddleware:
        def check(self, handler):
            signature = inspect.signature(handler)
            raise TypeError(f"the handler must take (request), got {signature}")

    def document_auth_api(fn):
        lexer_token = fn.__name__
        log.warning("cannot document %s", lexer_token)

    def csrf(request):
        csrf_token = request.form.get("csrf_token")
        raise PermissionError(f"Forbidden: CSRF token {csrf_token} does not match")
    '''
    assert aem301(code) == []
