"""A denial of one way of calling again is no stop (AEM502: "do not retry with a new idempotency
key"), and "<step> and try again" waits on the step, not on time (AEM103: "enter the 6 digits only
and try again"). A bare "Do not retry." on a fixable error, and a hand-off alone, are still reported.
"""
from __future__ import annotations

import pytest

from conftest import PREVIEW, lint

APP = '''from fastapi import FastAPI, HTTPException

app = FastAPI()
KEYS = {}


@app.post("/pay")
def pay(key: str, amount: int):
    if key not in KEYS:
        raise HTTPException(409, TEXT)
    return {}
'''


def _codes(text):
    return [d.code for d in lint(APP.replace("TEXT", repr(text)), select=["AEM501", "AEM502", "AEM103"])]


@pytest.mark.parametrize("text", [
    "Do not retry with a new idempotency key; resend with the same idempotency_key.",
    "Don't try again with a different key: the first attempt may have gone through.",
    "Wrong code; enter the 6 digits only and try again.",
    "Wrong code; copy the code from the email and retry.",
])
def test_a_denial_or_a_retry_beside_a_step_is_the_step(text):
    assert _codes(text) == []


@pytest.mark.parametrize("text, code", [
    ("Invalid key. Do not retry.", "AEM502"),
    ("Payment failed; please contact support.", "AEM501"),
])
def test_a_denial_or_hand_off_alone_is_reported(text, code):
    assert _codes(text) == [code]


@pytest.mark.parametrize("text, codes", [
    # a number makes the object of "read"/"check" specific: a step, and the retry follows it
    ("That code is incorrect or expired; read the current 6-digit code from the app and try again.", []),
    ("No invoices found; check the last 30 days instead of a single day.", []),
    # no specific object: no step
    ("That code is incorrect or expired; check your input and try again.", ["AEM201"]),
])
def test_a_counted_object_makes_a_step(text, codes):
    code = f'''from flask import Flask, jsonify, request

app = Flask(__name__)


@app.post("/2fa/verify")
def verify():
    code = request.get_json().get("code", "")
    if not check_code(code):
        return jsonify(error="{text}"), 401
    return jsonify(ok=True)
'''
    found = sorted({d.code for d in lint(code, select=["AEM201", "AEM103"], settings=PREVIEW)})
    assert found == codes
