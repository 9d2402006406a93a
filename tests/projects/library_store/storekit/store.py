from .parsing import split_records


def load(path: str) -> list:
    if not path.endswith(".csv"):
        raise ValueError("bad file")
    with open(path) as fh:
        return split_records(fh.read())
