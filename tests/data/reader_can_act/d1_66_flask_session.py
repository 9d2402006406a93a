from flask import Flask, session

app = Flask(__name__)


def _user() -> str:
    if "user" not in session:
        raise PermissionError("Not signed in.")
    return session["user"]


@app.route("/me")
def me():
    return {"user": _user()}


@app.errorhandler(PermissionError)
def denied(error):
    # without a handler Flask answers a bare 500 and the text goes to the log
    return {"error": str(error)}, 403
