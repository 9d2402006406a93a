from flask import Flask, session

app = Flask(__name__)


def _user() -> str:
    if "user" not in session:
        raise PermissionError("Not signed in.")
    return session["user"]


@app.route("/me")
def me():
    return {"user": _user()}
